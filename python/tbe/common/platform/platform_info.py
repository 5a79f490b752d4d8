"""SoC facts for TIK operators (npuvp.tik.soc answers them for the modelled chips)."""
from npuvp.tik.soc import (set_current_compile_soc_info, get_soc_spec, get_bit_len, api_check_support,  # noqa: F401
                           intrinsic_check_support, te_set_version)

ASCEND_910 = "Ascend910"
ASCEND_910B = "Ascend910B"
ASCEND_310P = "Ascend310P"
ASCEND_310 = "Ascend310"
SOC_VERSION = "SOC_VERSION"
SHORT_SOC_VERSION = "SHORT_SOC_VERSION"
AICORE_TYPE = "AiCore"
VECTOR_CORE_TYPE = "VectorCore"
CORE_NUM = "CORE_NUM"
UB_SIZE = "UB_SIZE"
L1_SIZE = "L1_SIZE"
L0A_SIZE = "L0A_SIZE"
L0B_SIZE = "L0B_SIZE"
L0C_SIZE = "L0C_SIZE"
L2_SIZE = "L2_SIZE"
