"""tbe.common.platform: set_current_compile_soc_info, get_soc_spec, get_bit_len, ..."""
from .platform_info import *  # noqa: F401,F403
from . import platform_info  # noqa: F401
from npuvp.tik.soc import get_bit_len  # noqa: F401

BLOCK_REDUCE = 16
BLOCK_REDUCE_INT8 = 32
BLOCK_IN = 16
BLOCK_OUT = 16
C0_SIZE = 16
ELEMENTS_VECTOR_OP_FP16 = 128
VECTOR_INST_BLOCK_WIDTH = 256
VECTOR_INST_BLOCK_NUM = 8
VECTOR_INST_MAX_REPEAT_TIMES = 255
BLOCK_SIZE = 32
