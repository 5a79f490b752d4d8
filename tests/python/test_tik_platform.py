"""The import names and platform helpers TIK operators use."""
import pytest


def test_import_names():
    from tbe import tik as tbe_tik
    from te import tik as te_tik
    import te.platform as tp
    from tbe.common.platform import platform_info  # noqa: F401
    from tbe.common.utils import para_check  # noqa: F401
    from te.utils import op_utils  # noqa: F401
    import tikdb  # noqa: F401
    assert tbe_tik.Tik is te_tik.Tik
    assert tp.cce_conf.get_soc_spec is tp.get_soc_spec


def test_soc_spec_follows_the_soc():
    from tbe.common.platform import set_current_compile_soc_info, get_soc_spec
    set_current_compile_soc_info("Ascend910")
    assert get_soc_spec("UB_SIZE") == 256 * 1024
    assert get_soc_spec("CORE_NUM") == 32
    assert get_soc_spec("SOC_VERSION") == "Ascend910"
    set_current_compile_soc_info("Ascend310P3")
    assert get_soc_spec("CORE_NUM") == 8
    set_current_compile_soc_info("Ascend910B2")
    assert get_soc_spec("UB_SIZE") == 192 * 1024
    assert get_soc_spec("L0C_SIZE") == 128 * 1024
    with pytest.raises(RuntimeError, match="UNKNOWN_KEY"):
        get_soc_spec("UNKNOWN_KEY")
    with pytest.raises(RuntimeError, match="not one npuvp models"):
        set_current_compile_soc_info("Ascend999")


def test_dprofile_and_bit_len():
    from tbe import tik
    from te import platform as tbe_platform
    assert tik.Dprofile().get_aicore_num() == 32
    assert tik.Dprofile("v100", "Ascend310P3").get_aicore_num() == 8
    assert tbe_platform.get_bit_len("float16") == 16
    assert tbe_platform.cce_intrin.get_bit_len("int32") == 32
    with pytest.raises(RuntimeError, match="unknown dtype"):
        tbe_platform.get_bit_len("float128")


def test_para_check_validates_and_passes_through():
    from tbe.common.utils import para_check

    @para_check.check_op_params(para_check.REQUIRED_INPUT, para_check.REQUIRED_OUTPUT, para_check.KERNEL_NAME)
    def op(x, y, kernel_name="op"):
        return kernel_name

    assert op({"shape": (4, 4), "dtype": "float16"}, {"shape": (4, 4), "dtype": "float16"}, "my_op") == "my_op"
    with pytest.raises(RuntimeError, match="kernel_name"):
        op({"shape": (4,), "dtype": "float16"}, {"shape": (4,), "dtype": "float16"}, "1bad name")
    with pytest.raises(RuntimeError, match="dtype"):
        para_check.check_dtype("float16", ("float32",))
    with pytest.raises(RuntimeError, match="rank"):
        para_check.check_shape([1] * 9)


def test_npuvp_platform_env_picks_the_platform(monkeypatch):
    from npuvp.tik import soc
    monkeypatch.setenv("NPUVP_PLATFORM", "ascend310p")
    assert soc.current_platform() == "ascend310p"
    assert soc.current_spec()["CORE_NUM"] == 8
