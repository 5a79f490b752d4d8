from tbe.common.utils.para_check import *  # noqa: F401,F403
