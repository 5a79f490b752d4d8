"""scalar_sqrt / scalar_countbit0/1 / scalar_countleading0 on the scalar unit, and
vaddrelu / vsubrelu, bit-exact against numpy."""
import numpy as np
import pytest
from tbe import tik


def test_scalar_sqrt_and_bit_counts():
    t = tik.Tik()
    x = t.Tensor("float32", (8,), name="x", scope=tik.scope_gm)
    c = t.Tensor("int64", (8,), name="c", scope=tik.scope_gm)
    y = t.Tensor("float32", (8,), name="y", scope=tik.scope_gm)
    n = t.Tensor("int64", (8,), name="n", scope=tik.scope_gm)
    xu = t.Tensor("float32", (8,), name="xu", scope=tik.scope_ubuf)
    cu = t.Tensor("int64", (8,), name="cu", scope=tik.scope_ubuf)
    yu = t.Tensor("float32", (8,), name="yu", scope=tik.scope_ubuf)
    nu = t.Tensor("int64", (8,), name="nu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 1, 0, 0)
    t.data_move(cu, c, 0, 1, 2, 0, 0)
    s = t.Scalar("float32", "s")
    k = t.Scalar("int64", "k")
    v = t.Scalar("uint64", "v")
    with t.for_range(0, 8) as i:
        t.scalar_sqrt(s, xu[i])
        yu[i].set_as(s)
    v.set_as(cu[0])
    t.scalar_countbit0(k, v)
    nu[0].set_as(k)
    t.scalar_countbit1(k, v)
    nu[1].set_as(k)
    t.scalar_countleading0(k, v)
    nu[2].set_as(k)
    v.set_as(cu[1])
    t.scalar_countleading0(k, v)
    nu[3].set_as(k)
    t.data_move(y, yu, 0, 1, 1, 0, 0)
    t.data_move(n, nu, 0, 1, 1, 0, 0)
    t.BuildCCE("scalar_ops", [x, c], [y, n])
    a = np.array([2, 3, 0.5, 1e-3, 7, 16, 1e6, 0.1], np.float32)
    bits = np.array([0x00F0_0000_0000_1234, 1, 0, 0, 0, 0, 0, 0], np.int64)
    y_got, n_got = t.tikdb.start_debug({"x": a, "c": bits})
    assert y_got.tobytes() == np.sqrt(a).astype(np.float32).tobytes()
    w = int(bits[0])
    assert n_got[:4].tolist() == [64 - bin(w).count("1"), bin(w).count("1"), 64 - w.bit_length(), 63]


@pytest.mark.parametrize("api", ["vaddrelu", "vsubrelu"])
def test_vaddrelu_vsubrelu(api):
    t = tik.Tik()
    a = t.Tensor("float16", (256,), name="a", scope=tik.scope_gm)
    b = t.Tensor("float16", (256,), name="b", scope=tik.scope_gm)
    y = t.Tensor("float16", (256,), name="y", scope=tik.scope_gm)
    au = t.Tensor("float16", (256,), name="au", scope=tik.scope_ubuf)
    bu = t.Tensor("float16", (256,), name="bu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (256,), name="yu", scope=tik.scope_ubuf)
    t.data_move(au, a, 0, 1, 16, 0, 0)
    t.data_move(bu, b, 0, 1, 16, 0, 0)
    t.vec_dup(128, yu, 9.0, 2, 8)
    getattr(t, api)(100, yu, au, bu, 2, 1, 1, 1, 8, 8, 8)   # 100 of every 128 elements
    t.data_move(y, yu, 0, 1, 16, 0, 0)
    t.BuildCCE(api, [a, b], [y])
    rng = np.random.default_rng(21)
    x0 = rng.uniform(-4, 4, 256).astype(np.float16)
    x1 = rng.uniform(-4, 4, 256).astype(np.float16)
    got, = t.tikdb.start_debug({"a": x0, "b": x1})
    v = x0 + x1 if api == "vaddrelu" else x0 - x1
    want = np.where(v > 0, v, np.float16(0)).astype(np.float16)
    lanes = np.arange(256) % 128 < 100
    want = np.where(lanes, want, np.float16(9))
    assert got.tobytes() == want.tobytes()


def test_scalar_conv_round_modes_to_int():
    """The ROI-pooling sample's bin edges: scalar_conv('floor'/'ceil', int, float), and the others."""
    t = tik.Tik()
    x = t.Tensor("float32", (8,), name="x", scope=tik.scope_gm)
    n = t.Tensor("int32", (6, 8), name="n", scope=tik.scope_gm)
    xu = t.Tensor("float32", (8,), name="xu", scope=tik.scope_ubuf)
    nu = t.Tensor("int32", (6, 8), name="nu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 1, 0, 0)
    f = t.Scalar("float32", "f")
    k = t.Scalar("int32", "k")
    modes = ["floor", "ceil", "round", "away-zero", "to-zero", ""]
    with t.for_range(0, 8) as i:
        f.set_as(xu[i])
        for m, mode in enumerate(modes):
            t.scalar_conv(mode, k, f)
            nu[m * 8 + i].set_as(k)
    t.data_move(n, nu, 0, 1, 6, 0, 0)
    t.BuildCCE("scalar_conv", [x], [n])
    a = np.array([2.5, -2.5, 3.4, -3.4, 0.5, 1.5, -0.6, 7.0], np.float32)
    got, = t.tikdb.start_debug({"x": a})
    want = [np.floor(a), np.ceil(a), np.rint(a), np.sign(a) * np.floor(np.abs(a) + 0.5), np.trunc(a), np.trunc(a)]
    assert got.tolist() == np.array(want).astype(np.int32).tolist()
