"""te.platform: get_soc_spec, set_current_compile_soc_info, cce_conf, cce_params."""
from tbe.common.platform import *  # noqa: F401,F403
from tbe.common.platform.platform_info import get_soc_spec, set_current_compile_soc_info, te_set_version  # noqa: F401
from npuvp.tik.soc import get_bit_len, api_check_support, intrinsic_check_support  # noqa: F401
from . import cce_conf  # noqa: F401
from . import cce_params  # noqa: F401
from . import cce_intrin  # noqa: F401
