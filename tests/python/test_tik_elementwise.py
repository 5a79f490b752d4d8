"""Elementwise operators written as the TIK guide shows: GM -> UB, vector instructions over full
repeats then a masked tail, UB -> GM; bit-exact against numpy."""
import numpy as np
import pytest
from tbe import tik

PER_REPEAT = {"float16": 128, "float32": 64}


def build_binary(api, n, dtype):
    t = tik.Tik()
    size = 2 if dtype == "float16" else 4
    x = t.Tensor(dtype, (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (n,), name="y", scope=tik.scope_gm)
    z = t.Tensor(dtype, (n,), name="z", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (n,), name="yu", scope=tik.scope_ubuf)
    zu = t.Tensor(dtype, (n,), name="zu", scope=tik.scope_ubuf)
    burst = (n * size + 31) // 32
    t.data_move(xu, x, 0, 1, burst, 0, 0)
    t.data_move(yu, y, 0, 1, burst, 0, 0)
    per = PER_REPEAT[dtype]
    repeats, tail = divmod(n, per)
    op = getattr(t, api)
    if api.startswith("vec_"):
        op(per, zu, xu, yu, repeats, 8, 8, 8)
        if tail:
            op(tail, zu[repeats * per], xu[repeats * per], yu[repeats * per], 1, 8, 8, 8)
    else:
        op(per, zu, xu, yu, repeats, 1, 1, 1, 8, 8, 8)
        if tail:
            op(tail, zu[repeats * per:], xu[repeats * per:], yu[repeats * per:], 1, 1, 1, 1, 8, 8, 8)
    t.data_move(z, zu, 0, 1, burst, 0, 0)
    t.BuildCCE("binary", [x, y], [z])
    return t


@pytest.mark.parametrize("api,fn", [("vec_add", np.add), ("vadd", np.add), ("vec_sub", np.subtract),
                                    ("vsub", np.subtract), ("vec_mul", np.multiply), ("vmul", np.multiply),
                                    ("vec_max", np.maximum), ("vec_min", np.minimum), ("vec_div", np.divide)])
@pytest.mark.parametrize("dtype,n", [("float16", 1008), ("float32", 1000)])
def test_binary_with_tail(api, fn, dtype, n):
    rng = np.random.default_rng(1)
    a = rng.uniform(-4, 4, n).astype(dtype)
    b = rng.uniform(0.5, 4, n).astype(dtype)
    t = build_binary(api, n, dtype)
    z, = t.tikdb.start_debug({"x": a, "y": b})
    want = fn(a, b)  # numpy's f16/f32 arithmetic is correctly rounded, as the contract's
    assert z.tobytes() == want.astype(dtype).tobytes()


def test_bit_mask_and_scalar_forms():
    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_gm)
    s = t.InputScalar("float16", name="s")
    z = t.Tensor("float16", (256,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float16", (256,), name="xu", scope=tik.scope_ubuf)
    zu = t.Tensor("float16", (256,), name="zu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.vec_dup(128, zu, 7.0, 2, 8)
    hi, lo = 0xF0F0F0F0F0F0F0F0, 0x8000000000000001
    t.vec_muls([hi, lo], zu, xu, s, 2, 8, 8)             # bit-wise mask, a runtime scalar
    t.vadds([0, 0xFF], zu[128], xu[128], 1.5, 1, 1, 1, 8, 8)  # old generation, second repeat only
    t.data_move(z, zu, 0, 1, 16, 0, 0)
    t.BuildCCE("masks", [x, s], [z])
    a = np.random.default_rng(2).uniform(-2, 2, 256).astype(np.float16)
    z, = t.tikdb.start_debug({"x": a, "s": 3.0})
    want = np.full(256, 7.0, np.float16)
    bits = [(lo >> i) & 1 for i in range(64)] + [(hi >> i) & 1 for i in range(64)]
    for r in range(2):
        for i in range(128):
            if bits[i]:
                want[r * 128 + i] = a[r * 128 + i] * np.float16(3.0)
    for i in range(8):
        want[128 + i] = a[128 + i] + np.float16(1.5)
    assert z.tobytes() == want.tobytes()


def test_block_strides_of_the_older_generation():
    # vadd with src0 block stride 2 reads blocks 0, 2, 4, ... 14 of src0.
    t = tik.Tik()
    x = t.Tensor("float32", (128,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float32", (64,), name="y", scope=tik.scope_gm)
    z = t.Tensor("float32", (64,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float32", (128,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float32", (64,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.data_move(yu, y, 0, 1, 8, 0, 0)
    t.vadd(64, yu, xu, yu, 1, 1, 2, 1, 8, 16, 8)
    t.data_move(z, yu, 0, 1, 8, 0, 0)
    t.BuildCCE("strided", [x, y], [z])
    a = np.arange(128, dtype=np.float32)
    b = np.ones(64, np.float32)
    z, = t.tikdb.start_debug({"x": a, "y": b})
    want = a.reshape(16, 8)[::2].ravel() + b
    assert z.tobytes() == want.tobytes()


def test_unary_exp_ln_rec_and_high_preci():
    from conftest import expf, logf
    n = 256
    t = tik.Tik()
    x = t.Tensor("float16", (n,), name="x", scope=tik.scope_gm)
    outs = [t.Tensor("float16", (n,), name="o%d" % i, scope=tik.scope_gm) for i in range(4)]
    xu = t.Tensor("float16", (n,), name="xu", scope=tik.scope_ubuf)
    ou = t.Tensor("float16", (n,), name="ou", scope=tik.scope_ubuf)
    work = t.Tensor("float32", (4 * n,), name="work", scope=tik.scope_ubuf)  # the reference's 4 x wk_size_unit
    t.data_move(xu, x, 0, 1, n // 16, 0, 0)
    steps = [lambda: t.vec_exp(128, ou, xu, 2, 8, 8), lambda: t.vln(128, ou, xu, 2, 1, 1, 8, 8),
             lambda: t.vec_rec(128, ou, xu, 2, 8, 8), lambda: t.vec_rec_high_preci(128, ou, xu, work, 2, 8, 8)]
    for o, step in zip(outs, steps):
        step()
        t.data_move(o, ou, 0, 1, n // 16, 0, 0)
    t.BuildCCE("unary", [x], outs)
    a = np.random.default_rng(3).uniform(0.1, 3, n).astype(np.float16)
    got = t.tikdb.start_debug({"x": a})
    a32 = a.astype(np.float32)
    rec = (np.float32(1) / a32).astype(np.float16)
    r = np.float32(1) / a32  # high_preci: in float32, one Newton step (test_tik_high_preci.py)
    r = r + ((a32 * r) * np.float32(-1) + np.float32(1)) * r
    for g, w in zip(got, [expf(a), logf(a), rec, r.astype(np.float16)]):
        assert g.tobytes() == w.tobytes()


def test_casts():
    t = tik.Tik()
    x = t.Tensor("float32", (64,), name="x", scope=tik.scope_gm)
    h = t.Tensor("float16", (64,), name="h", scope=tik.scope_gm)
    i = t.Tensor("int32", (64,), name="i", scope=tik.scope_gm)
    xu = t.Tensor("float32", (64,), name="xu", scope=tik.scope_ubuf)
    hu = t.Tensor("float16", (64,), name="hu", scope=tik.scope_ubuf)
    iu = t.Tensor("int32", (64,), name="iu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 8, 0, 0)
    t.vec_conv(64, "", hu, xu, 1, 4, 8)               # f32 -> f16, round to nearest even
    t.vconv(64, "floor", iu, xu, 1, 1, 1, 8, 8)       # f32 -> s32 toward -inf
    t.data_move(h, hu, 0, 1, 4, 0, 0)
    t.data_move(i, iu, 0, 1, 8, 0, 0)
    t.BuildCCE("casts", [x], [h, i])
    a = np.random.default_rng(4).uniform(-100, 100, 64).astype(np.float32)
    got_h, got_i = t.tikdb.start_debug({"x": a})
    assert got_h.tobytes() == a.astype(np.float16).tobytes()
    assert got_i.tobytes() == np.floor(a).astype(np.int32).tobytes()


def test_vnchwconv_transposes_16_blocks():
    t = tik.Tik()
    x = t.Tensor("float16", (2, 16, 16), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (2, 16, 16), name="y", scope=tik.scope_gm)
    xu = t.Tensor("float16", (2, 16, 16), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (2, 16, 16), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 32, 0, 0)
    # two repeats: the second 16x16 matrix is 16 blocks further on each side
    t.vec_trans_scatter(False, False, [yu[0, i, 0] for i in range(16)], [xu[0, i, 0] for i in range(16)], 2, 16, 16)
    t.data_move(y, yu, 0, 1, 32, 0, 0)
    t.BuildCCE("trans", [x], [y])
    a = np.random.default_rng(23).uniform(-1, 1, (2, 16, 16)).astype(np.float16)
    got, = t.tikdb.start_debug({"x": a})
    assert got.tobytes() == a.transpose(0, 2, 1).copy().tobytes()
