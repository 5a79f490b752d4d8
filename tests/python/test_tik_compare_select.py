"""Compare and select: vec_cmpv_* into a bit tensor then vec_sel (mode 2), vcmp_* into CMPMASK
then vsel (mode 0), and the tensor/scalar mode 1."""
import numpy as np
from tbe import tik


def build(mode):
    t = tik.Tik()
    n = 256
    x = t.Tensor("float16", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (n,), name="y", scope=tik.scope_gm)
    z = t.Tensor("float16", (n,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float16", (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (n,), name="yu", scope=tik.scope_ubuf)
    zu = t.Tensor("float16", (n,), name="zu", scope=tik.scope_ubuf)
    bits = t.Tensor("uint8", (n // 8,), name="bits", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.data_move(yu, y, 0, 1, 16, 0, 0)
    if mode == 2:
        t.vec_cmpv_gt(bits, xu, yu, 2, 8, 8)
        t.vec_sel(128, 2, zu, bits, xu, yu, 2, 8, 8, 8)       # max(x, y) by selection
    elif mode == 1:
        t.vec_cmpv_lt(bits, xu, yu, 2, 8, 8)
        t.vec_sel(128, 1, zu, bits, xu, 0.0, 2, 8, 8, 8)      # x where x < y, else 0
    else:
        for r in range(2):
            cmp = t.vcmp_ge(128, xu[r * 128], yu[r * 128], 1, 1)
            t.vsel(128, 0, zu[r * 128], cmp, xu[r * 128], yu[r * 128], 1, 1, 1, 1)
    t.data_move(z, zu, 0, 1, 16, 0, 0)
    t.BuildCCE("sel%d" % mode, [x, y], [z])
    return t


def data():
    rng = np.random.default_rng(12)
    a = rng.uniform(-1, 1, 256).astype(np.float16)
    b = rng.uniform(-1, 1, 256).astype(np.float16)
    b[::7] = a[::7]
    return a, b


def test_cmpv_then_sel_tensor_tensor():
    a, b = data()
    got, = build(2).tikdb.start_debug({"x": a, "y": b})
    assert got.tobytes() == np.where(a > b, a, b).tobytes()


def test_cmpv_then_sel_tensor_scalar():
    a, b = data()
    got, = build(1).tikdb.start_debug({"x": a, "y": b})
    assert got.tobytes() == np.where(a < b, a, np.float16(0)).tobytes()


def test_vcmp_cmpmask_then_vsel():
    a, b = data()
    got, = build(0).tikdb.start_debug({"x": a, "y": b})
    assert got.tobytes() == np.where(a >= b, a, b).tobytes()


def test_cmpvs_with_a_scalar_then_select():
    t = tik.Tik()
    x = t.Tensor("float32", (128,), name="x", scope=tik.scope_gm)
    z = t.Tensor("float32", (128,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float32", (128,), name="xu", scope=tik.scope_ubuf)
    zu = t.Tensor("float32", (128,), name="zu", scope=tik.scope_ubuf)
    bits = t.Tensor("uint8", (16,), name="bits", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.vec_cmpvs_ge(bits, xu, 0.25, 2, 8)
    t.vec_sel(64, 1, zu, bits, xu, -1.0, 2, 8, 8, 8)
    t.data_move(z, zu, 0, 1, 16, 0, 0)
    t.BuildCCE("cmpvs", [x], [z])
    a = np.random.default_rng(17).uniform(-1, 1, 128).astype(np.float32)
    a[5] = 0.25
    got, = t.tikdb.start_debug({"x": a})
    assert got.tobytes() == np.where(a >= np.float32(0.25), a, np.float32(-1)).tobytes()


def test_cmpmask_through_a_tensor():
    t = tik.Tik()
    x = t.Tensor("float16", (128,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (128,), name="y", scope=tik.scope_gm)
    bits = t.Tensor("uint16", (16,), name="bits", scope=tik.scope_gm)
    z = t.Tensor("float16", (128,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float16", (128,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (128,), name="yu", scope=tik.scope_ubuf)
    zu = t.Tensor("float16", (128,), name="zu", scope=tik.scope_ubuf)
    mu = t.Tensor("uint16", (16,), name="mu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 8, 0, 0)
    t.data_move(yu, y, 0, 1, 8, 0, 0)
    t.vec_dup(16, mu, 0, 1, 8)
    cmp = t.vcmp_lt(128, xu, yu, 1, 1)
    t.mov_cmpmask_to_tensor(mu, cmp)                     # the 128 bits, then back
    again = t.mov_tensor_to_cmpmask(mu)
    t.vsel(128, 0, zu, again, xu, yu, 1, 1, 1, 1)        # min(x, y)
    t.data_move(bits, mu, 0, 1, 1, 0, 0)
    t.data_move(z, zu, 0, 1, 8, 0, 0)
    t.BuildCCE("cmpmask", [x, y], [bits, z])
    a, b = data()
    a, b = a[:128], b[:128]
    got_bits, got_z = t.tikdb.start_debug({"x": a, "y": b})
    want_bits = np.packbits((a < b).astype(np.uint8), bitorder="little").view(np.uint16)
    assert got_bits[:8].tobytes() == want_bits.tobytes()
    assert got_z.tobytes() == np.where(a < b, a, b).tobytes()
