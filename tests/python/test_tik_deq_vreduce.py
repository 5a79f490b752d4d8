"""vconv/vec_conv with deqscale (deq mode, int32 -> float16) and vreduce's rsvd_scalar and
counter mode; bit-exact against numpy, and the errors name the line."""
import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info
from npuvp.tik import TikError


def build_deq(api, scale, n=128):
    t = tik.Tik()
    x = t.Tensor("int32", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (n,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("int32", (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (n,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, n * 4 // 32, 0, 0)
    if scale == "scalar":
        scale = t.Scalar("float16", "s", init_value=0.0125)
    if api == "vec_conv":
        t.vec_conv(64, "", yu, xu, n // 64, 4, 8, deqscale=scale)
    else:
        t.vconv(64, "", yu, xu, n // 64, 1, 1, 4, 8, deqscale=scale)
    t.data_move(y, yu, 0, 1, n * 2 // 32, 0, 0)
    t.BuildCCE("deq", [x], [y])
    return t


@pytest.mark.parametrize("soc", ["Ascend910", "Ascend310P3", "Ascend910B1"])
@pytest.mark.parametrize("api,scale", [("vec_conv", 0.0125), ("vconv", "scalar"), ("vconv", 3.0)])
def test_deq_int32_to_float16(soc, api, scale):
    set_current_compile_soc_info(soc)
    a = np.random.default_rng(4).integers(-20000, 20000, 128).astype(np.int32)
    a[:4] = [0, 1, -1, 2 ** 31 - 1]
    t = build_deq(api, scale)
    y, = t.tikdb.start_debug({"x": a})
    s = np.float64(np.float16(0.0125 if scale == "scalar" else scale))
    prod = a.astype(np.float64) * s  # exact: 31 x 11 significant bits
    want = np.clip(prod, -65504, 65504).astype(np.float16)  # one rounding, finite overflow saturates
    assert y.tobytes() == want.tobytes()


def _fails(match, fn):
    with pytest.raises(TikError, match=match) as e:
        fn()
    assert "test_tik_deq_vreduce.py:" in str(e.value)


def test_deq_errors():
    t = tik.Tik()
    i32 = t.Tensor("int32", (64,), name="i32", scope=tik.scope_ubuf)
    f16 = t.Tensor("float16", (64,), name="f16", scope=tik.scope_ubuf)
    f32 = t.Tensor("float32", (64,), name="f32", scope=tik.scope_ubuf)
    s32 = t.Scalar("float32", "s32", init_value=1.0)
    _fails("int32 -> float16", lambda: t.vec_conv(64, "", f32, i32, 1, 8, 8, deqscale=1.0))
    _fails("must be float16", lambda: t.vec_conv(64, "", f16, i32, 1, 4, 8, deqscale=s32))
    _fails("vdeq mode", lambda: t.vec_conv(64, "", f16, i32, 1, 4, 8, deqscale=f16))


def build_vreduce(mask, mask_mode, repeat=2, pattern=1):
    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (256,), name="y", scope=tik.scope_gm)
    c = t.Tensor("int32", (8,), name="c", scope=tik.scope_gm)
    xu = t.Tensor("float16", (256,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (256,), name="yu", scope=tik.scope_ubuf)
    cu = t.Tensor("int32", (8,), name="cu", scope=tik.scope_ubuf)
    kept = t.Scalar("int32", "kept")
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.vec_dup(128, yu, 0.0, 2, 8)
    t.vec_dup(8, cu, 0, 1, 8)
    t.vreduce(mask, yu, xu, pattern, repeat, 1, 8, 0, rsvd_scalar=kept, mask_mode=mask_mode)
    cu[0].set_as(kept)
    with t.if_scope(kept > 60):  # scalar control flow on the count
        cu[1].set_as(1)
    t.data_move(y, yu, 0, 1, 16, 0, 0)
    t.data_move(c, cu, 0, 1, 1, 0, 0)
    t.BuildCCE("vreduce_cnt", [x], [y, c])
    return t


@pytest.mark.parametrize("soc", ["Ascend910", "Ascend310P3", "Ascend910B1"])
def test_vreduce_rsvd_scalar_and_counter_mode(soc):
    set_current_compile_soc_info(soc)
    a = np.arange(256).astype(np.float16)
    t = build_vreduce(100, "counter")
    y, c = t.tikdb.start_debug({"x": a})
    # counter mode: 100 elements of each repeat; Ascend910 takes it as normal mode (the whole 128)
    n = 128 if soc == "Ascend910" else 100
    kept = np.concatenate([a[0:n:2], a[128:128 + n:2]])
    want = np.zeros(256, np.float16)
    want[:kept.size] = kept
    assert y.tobytes() == want.tobytes()
    assert c[0] == kept.size and c[1] == (1 if kept.size > 60 else 0)


def test_vreduce_normal_mode_count():
    a = np.arange(256).astype(np.float16)
    t = build_vreduce(128, "normal", pattern=5)
    y, c = t.tikdb.start_debug({"x": a})
    assert c[0] == 64 and c[1] == 1
    assert y[:64].tobytes() == np.concatenate([a[2:128:4], a[130:256:4]]).tobytes()


def test_vreduce_and_sort_errors():
    t = tik.Tik()
    u = t.Tensor("float16", (256,), name="u", scope=tik.scope_ubuf)
    f = t.Scalar("float16", "f")
    _fails("whole repeats", lambda: t.vreduce(100, u, u, 1, 1, 1, 8, 0))
    _fails("integer Scalar", lambda: t.vreduce(128, u, u, 1, 1, 1, 8, 0, rsvd_scalar=f))
    _fails("CCE intrinsic", lambda: t.vreducev2(128, u, u, 1, 1, 1, 8, 0))
    _fails("Ascend910B", lambda: _on_910b_sort())


def _on_910b_sort():
    set_current_compile_soc_info("Ascend910B1")
    t = tik.Tik()
    u = t.Tensor("float16", (256,), name="u", scope=tik.scope_ubuf)
    t.vbitsort(u, u, 1)
