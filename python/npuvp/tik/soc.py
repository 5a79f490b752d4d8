"""The SoC a TIK operator is compiled for, and the facts TIK's platform helpers report.

`set_current_compile_soc_info("Ascend910")` (or $NPUVP_PLATFORM) picks the npuvp platform
the operator runs on; `get_soc_spec(key)` answers from the same table, whose sizes equal the
platform configs in platforms/configs/.
"""
import os

from .errors import TikError

# npuvp platform -> what get_soc_spec reports. Sizes in bytes.
_PLATFORMS = {
    "ascend910": dict(SOC_VERSION="Ascend910A", SHORT_SOC_VERSION="Ascend910", CORE_NUM=32,
                      UB_SIZE=256 * 1024, L1_SIZE=1024 * 1024, L0A_SIZE=64 * 1024, L0B_SIZE=64 * 1024,
                      L0C_SIZE=256 * 1024, L2_SIZE=32 * 1024 * 1024, product="Ascend910"),
    "ascend310p": dict(SOC_VERSION="Ascend310P3", SHORT_SOC_VERSION="Ascend310P", CORE_NUM=8,
                       UB_SIZE=256 * 1024, L1_SIZE=1024 * 1024, L0A_SIZE=64 * 1024, L0B_SIZE=64 * 1024,
                       L0C_SIZE=256 * 1024, L2_SIZE=16 * 1024 * 1024, product="Ascend310P"),
    "ascend910b": dict(SOC_VERSION="Ascend910B2", SHORT_SOC_VERSION="Ascend910B", CORE_NUM=24,
                       UB_SIZE=192 * 1024, L1_SIZE=512 * 1024, L0A_SIZE=64 * 1024, L0B_SIZE=64 * 1024,
                       L0C_SIZE=128 * 1024, L2_SIZE=192 * 1024 * 1024, product="Ascend910B"),
}

_ENV_TO_PLATFORM = {"ascend910": "ascend910", "ascend310p": "ascend310p", "ascend910b": "ascend910b",
                    "core910": "ascend910", "core910b": "ascend910b"}


def platform_for_soc(soc):
    """The npuvp platform of a TIK/CANN SoC name, or None."""
    s = str(soc).strip()
    low = s.lower()
    if low.startswith("ascend910b") and len(s) > 10 and s[10] in "1234":
        return "ascend910b"
    if low.startswith("ascend910_93"):
        return "ascend910b"
    if low.startswith("ascend910"):
        return "ascend910"
    if low.startswith("ascend310p"):
        return "ascend310p"
    return None


class _State:
    soc = None        # the SoC name given to set_current_compile_soc_info
    platform = None   # its npuvp platform
    core_type = "AiCore"


def _default_platform():
    env = os.environ.get("NPUVP_PLATFORM")
    if env:
        name = os.path.splitext(os.path.basename(env))[0]
        return _ENV_TO_PLATFORM.get(name, name)
    return "ascend910"


def current_platform():
    """The npuvp platform operators run on now: $NPUVP_PLATFORM wins, then the SoC set."""
    env = os.environ.get("NPUVP_PLATFORM")
    if env:
        return env
    return _State.platform or _default_platform()


def current_spec():
    plat = current_platform()
    name = os.path.splitext(os.path.basename(plat))[0]
    return _PLATFORMS.get(_ENV_TO_PLATFORM.get(name, name), _PLATFORMS["ascend910"])


def set_current_compile_soc_info(soc_version, core_type="AiCore", aicore_num=None, l1_fusion=None):
    """Chooses the SoC operators are built and run for (TIK: te.platform / tbe.common.platform)."""
    plat = platform_for_soc(soc_version)
    if plat is None:
        raise TikError("set_current_compile_soc_info: SoC '%s' is not one npuvp models (Ascend910*, "
                       "Ascend310P*, Ascend910B1..4)" % soc_version)
    _State.soc = str(soc_version)
    _State.platform = plat
    _State.core_type = core_type
    return "success"


te_set_version = set_current_compile_soc_info


def get_soc_spec(key):
    """TIK's get_soc_spec: "UB_SIZE", "CORE_NUM", "SOC_VERSION", "L1_SIZE", ..."""
    spec = current_spec()
    if key == "SOC_VERSION" and _State.soc:
        return _State.soc
    if key == "FULL_SOC_VERSION":
        return _State.soc or spec["SOC_VERSION"]
    if key in ("CUBE_CORE_NUM", "AICORE_NUM"):
        return spec["CORE_NUM"]
    if key == "VECTOR_CORE_NUM":
        return spec["CORE_NUM"] * (2 if spec["product"] == "Ascend910B" else 1)
    if key == "CORE_TYPE":
        return _State.core_type
    if key == "UB_BLOCK_SIZE":
        return 32
    if key in spec and key != "product":
        return spec[key]
    raise TikError("get_soc_spec: unknown key '%s' (known: %s)" % (
        key, ", ".join(sorted(k for k in spec if k != "product"))))


def api_check_support(intrinsic, dtype=""):
    """Whether the product has an instruction for a dtype (answers for the common vector ops)."""
    product = current_spec()["product"]
    name = intrinsic.split(".")[-1]
    if name == "data_move_pad":  # DataCopyPad: the A2 products only
        return product == "Ascend910B"
    if dtype in ("float32",) and name in ("vln", "vexp", "vrec", "vsqrt", "vrsqrt", "vadd", "vmul", "vconv",
                                          "vsub", "vmax", "vmin", "vdiv", "vadds", "vmuls", "vec_exp",
                                          "vec_ln", "vec_rec", "vec_add", "vec_mul"):
        return True
    if dtype in ("float16", "int32", "int16", ""):
        return True
    return product != "Ascend310"


def intrinsic_check_support(intrinsic, dtype=""):
    """TBE's intrinsic_check_support("Intrinsic_vexp", "float32"): answered as api_check_support
    answers for the TIK instruction of the same name."""
    name = str(intrinsic)
    if name.startswith("Intrinsic_"):
        name = name[len("Intrinsic_"):]
    return api_check_support("tik." + name, dtype)


def get_bit_len(dtype):
    """Bits of a dtype name ("float16" -> 16)."""
    dtype = str(dtype).lower()
    table = {"int8": 8, "uint8": 8, "bool": 8, "int16": 16, "uint16": 16, "float16": 16, "bfloat16": 16,
             "int32": 32, "uint32": 32, "float32": 32, "int64": 64, "uint64": 64, "float64": 64, "uint1": 1}
    if dtype not in table:
        raise TikError("get_bit_len: unknown dtype '%s'" % dtype)
    return table[dtype]


class Dprofile:
    """tik.Dprofile(arch, version): the product a Tik container builds for."""

    def __init__(self, ai_core_arch=None, ai_core_version=None, ddk_version=None):
        if ai_core_arch is not None and ai_core_version is not None:
            version = str(ai_core_version)
            # The older product names: "cloud" is the Ascend 910; "mini" (Ascend 310) is not
            # modelled and keeps the current SoC.
            soc = version if version.lower().startswith("ascend") else {"cloud": "Ascend910"}.get(version.lower())
            if soc:
                set_current_compile_soc_info(soc)
        self.arch = ai_core_arch
        self.version = ai_core_version

    def get_aicore_num(self):
        return get_soc_spec("CORE_NUM")

    def get_unified_buffer_size(self):
        return get_soc_spec("UB_SIZE")

    def get_l1_buffer_size(self):
        return get_soc_spec("L1_SIZE")

    def get_l0a_buffer_size(self):
        return get_soc_spec("L0A_SIZE")

    def get_l0b_buffer_size(self):
        return get_soc_spec("L0B_SIZE")

    def get_l0c_buffer_size(self):
        return get_soc_spec("L0C_SIZE")

    def get_product_name(self):
        return current_spec()["product"]
