"""vec_rec/rsqrt/ln/expm1_high_preci: the work-tensor sizes of the TIK reference, and results bit
for bit equal to a numpy model of the vector instructions npuvp issues (docs/tik.md,
python/npuvp/tik/high_preci_ops.py): float16 widened to float32, float32 one Newton step."""
import numpy as np
import pytest
from tbe import tik
from npuvp.tik import TikError

from conftest import expf, logf

F32 = np.float32


def rec_f32(a):
    a = a.astype(F32)
    x = F32(1) / a
    e = a * x
    e = e * F32(-1)
    e = e + F32(1)
    e = e * x
    return x + e


def rsqrt_f32(a):
    a = a.astype(F32)
    y = (1.0 / np.sqrt(a.astype(np.float64))).astype(F32)  # the contract's Rsqrt: once-rounded
    e = y * y
    e = e * a
    e = e * F32(-0.5)
    e = e + F32(0.5)
    e = e * y
    return y + e


def expm1_f32(a):
    """Kahan's expm1 in float32 steps: clamp, u = Exp, (u + -1) * x / Ln(u), x where u == 1."""
    x = np.maximum(np.minimum(a.astype(F32), F32(80)), F32(-80))
    u = expf(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = ((u + F32(-1)) * x) / logf(u)
    return np.where(u == F32(1), x, r).astype(F32)


MODEL = {
    "rec": lambda a: rec_f32(a),
    "rsqrt": lambda a: rsqrt_f32(a),
    "ln": lambda a: logf(a.astype(F32)),
    "expm1": lambda a: expm1_f32(a),
}


def build(name, dtype, n, mask, repeat, work_elems, src_rep=None, work_dtype=None):
    t = tik.Tik()
    per = 128 if dtype == "float16" else 64
    src_rep = 8 if src_rep is None else src_rep
    x = t.Tensor(dtype, (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (n,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (n,), name="yu", scope=tik.scope_ubuf)
    work_dtype = work_dtype or ("float32" if name in ("rec", "rsqrt") else "float16")
    wk = t.Tensor(work_dtype, (work_elems,), name="wk", scope=tik.scope_ubuf)
    burst = n * (2 if dtype == "float16" else 4) // 32
    t.data_move(xu, x, 0, 1, burst, 0, 0)
    t.vec_dup(per, yu, 0.0, n // per, 8)
    getattr(t, "vec_%s_high_preci" % name)(mask, yu, xu, wk, repeat, 8, src_rep)
    t.data_move(y, yu, 0, 1, burst, 0, 0)
    t.BuildCCE("hp_" + name, [x], [y])
    return t


def inputs(name, dtype, n, seed=3):
    rng = np.random.default_rng(seed)
    if name == "expm1":
        a = rng.uniform(-3, 3, n) * 10.0 ** rng.integers(-5, 1, n)  # down to 3e-5: the small-|x| range
    elif name == "ln":
        a = rng.uniform(0.01, 60, n)
    else:
        a = rng.uniform(0.05, 40, n) * rng.choice([-1, 1], n) if name == "rec" else rng.uniform(0.01, 500, n)
    return a.astype(dtype)


@pytest.mark.parametrize("name,dtype,factor", [("rec", "float16", 4), ("rec", "float32", 2),
                                               ("rsqrt", "float16", 5), ("rsqrt", "float32", 3),
                                               ("ln", "float16", 10), ("expm1", "float16", 11)])
def test_full_repeats_bit_exact(name, dtype, factor):
    per = 128 if dtype == "float16" else 64
    n = 2 * per
    a = inputs(name, dtype, n)
    # the reference's example: mask full, repeat_times 2, src_rep_stride 8 -> wk_size_unit = 2 * per
    t = build(name, dtype, n, per, 2, factor * n)
    y, = t.tikdb.start_debug({"x": a})
    want = MODEL[name](a).astype(dtype)
    assert y.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["rec", "rsqrt", "ln"])
def test_partial_and_bit_masks_leave_other_elements(name):
    n = 256
    a = inputs(name, "float16", n, seed=5)
    want_all = MODEL[name](a).astype(np.float16)
    # a count mask of 100: elements 64..99 go through the high half
    t = build(name, "float16", n, 100, 2, 10 * n, work_dtype=None)
    y, = t.tikdb.start_debug({"x": a})
    keep = np.zeros(n, bool)
    for r in range(2):
        keep[r * 128: r * 128 + 100] = True
    want = np.where(keep, want_all, np.float16(0))
    assert y.tobytes() == want.tobytes()
    # bit-wise: [mask_h, mask_l], mask_len by the highest set bit (66 here)
    t = build(name, "float16", n, [0b10, 0xF0F0], 1, 10 * n)
    y, = t.tikdb.start_debug({"x": a})
    keep = np.zeros(n, bool)
    keep[[i for i in range(16) if (0xF0F0 >> i) & 1] + [65]] = True
    want = np.where(keep, want_all, np.float16(0))
    assert y.tobytes() == want.tobytes()


def test_in_place_float32():
    t = tik.Tik()
    x = t.Tensor("float32", (128,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float32", (128,), name="y", scope=tik.scope_gm)
    u = t.Tensor("float32", (128,), name="u", scope=tik.scope_ubuf)
    wk = t.Tensor("float32", (3 * 128,), name="wk", scope=tik.scope_ubuf)
    t.data_move(u, x, 0, 1, 16, 0, 0)
    t.vec_rsqrt_high_preci(64, u, u, wk, 2, 8, 8)
    t.data_move(y, u, 0, 1, 16, 0, 0)
    t.BuildCCE("hp_inplace", [x], [y])
    a = inputs("rsqrt", "float32", 128, seed=9)
    out, = t.tikdb.start_debug({"x": a})
    assert out.tobytes() == rsqrt_f32(a).tobytes()
    # the refinement is within one ulp of the correctly rounded result
    exact = 1.0 / np.sqrt(a.astype(np.float64))
    assert np.all(np.abs(out - exact) <= np.spacing(exact.astype(F32)))


def _fails(match, fn):
    with pytest.raises(TikError, match=match) as e:
        fn()
    assert "test_tik_high_preci.py:" in str(e.value)


def test_errors_name_the_line_and_rule():
    t = tik.Tik()
    a = t.Tensor("float16", (256,), name="a", scope=tik.scope_ubuf)
    b = t.Tensor("float16", (256,), name="b", scope=tik.scope_ubuf)
    f = t.Tensor("float32", (256,), name="f", scope=tik.scope_ubuf)
    w32 = t.Tensor("float32", (1023,), name="w32", scope=tik.scope_ubuf)
    w16 = t.Tensor("float16", (2560,), name="w16", scope=tik.scope_ubuf)
    # documented size: 4 x 256 = 1024 float32 elements (one short here)
    _fails(r"needs 1024 \(4 x wk_size_unit 256", lambda: t.vec_rec_high_preci(128, b, a, w32, 2, 8, 8))
    _fails("must be float32", lambda: t.vec_rec_high_preci(128, b, a, w16, 2, 8, 8))
    _fails("dtypes differ", lambda: t.vec_rsqrt_high_preci(64, f, a, w32, 1, 8, 8))
    _fails("dtype float32 is not supported", lambda: t.vec_ln_high_preci(64, f, f, w16, 1, 8, 8))
    _fails("repeats overlap", lambda: t.vec_ln_high_preci(128, b, a, w16, 2, 8, 4))
    _fails("needs 2816", lambda: t.vec_expm1_high_preci(128, b, a, w16, 2, 8, 8))
    s = t.Scalar("int32", "s", 1)
    _fails("immediate mask", lambda: t.vec_ln_high_preci(128, b, a, w16, s, 8, 8))


def test_expm1_keeps_small_arguments_accurate():
    n = 256
    a = np.concatenate([np.linspace(-1e-3, 1e-3, 128), np.linspace(-12, 12, 128)]).astype(np.float16)
    a[0], a[1], a[2] = 0.0, -0.0, 6e-5
    t = build("expm1", "float16", n, 128, 2, 11 * n)
    y, = t.tikdb.start_debug({"x": a})
    # the Cast to float16 saturates a finite overflow to 65504 (docs/vector-isa.md, Cast)
    assert y.tobytes() == np.clip(expm1_f32(a), -65504, 65504).astype(np.float16).tobytes()
    exact = np.expm1(a.astype(np.float64))
    finite = np.abs(exact) < 65504
    # within one float16 ulp of the exact value wherever it is representable
    assert np.all(np.abs(y[finite].astype(np.float64) - exact[finite]) <= np.spacing(np.abs(y[finite])).astype(np.float64))
    assert np.all(y[~finite] == np.float16(65504))
