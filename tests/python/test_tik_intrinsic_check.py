"""intrinsic_check_support (TBE's name for the product check) answers as api_check_support does."""
from tbe.common.platform import set_current_compile_soc_info, intrinsic_check_support, api_check_support
import te.platform as te_platform


def test_intrinsic_check_support_follows_the_product():
    set_current_compile_soc_info("Ascend910B1")
    assert intrinsic_check_support("Intrinsic_data_move_pad") is True
    assert te_platform.intrinsic_check_support("Intrinsic_vexp", "float32") is True
    set_current_compile_soc_info("Ascend910")
    assert intrinsic_check_support("Intrinsic_data_move_pad") is False
    assert api_check_support("tik.data_move_pad") is False
