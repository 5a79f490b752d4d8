"""Reductions with work tensors, whole-repeat reductions and a softmax, as TIK operators write
them; numpy references of the vector unit's contract (binary trees of adjacent pairs)."""
import numpy as np
from tbe import tik
from conftest import expf, tree_sum


def test_vcadd_and_vcmax_per_repeat():
    t = tik.Tik()
    x = t.Tensor("float16", (512,), name="x", scope=tik.scope_gm)
    s = t.Tensor("float16", (16,), name="s", scope=tik.scope_gm)
    m = t.Tensor("float16", (16,), name="m", scope=tik.scope_gm)
    xu = t.Tensor("float16", (512,), name="xu", scope=tik.scope_ubuf)
    su = t.Tensor("float16", (16,), name="su", scope=tik.scope_ubuf)
    mu = t.Tensor("float16", (16,), name="mu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 32, 0, 0)
    t.vec_dup(16, su, 0.0, 1, 8)
    t.vec_dup(16, mu, 0.0, 1, 8)
    t.vcadd(128, su, xu, 4, 1, 1, 8)
    t.vcmax(128, mu, xu, 4, 1, 1, 8)   # [value, index] per repeat
    t.data_move(s, su, 0, 1, 1, 0, 0)
    t.data_move(m, mu, 0, 1, 1, 0, 0)
    t.BuildCCE("vcadd", [x], [s, m])
    a = np.random.default_rng(6).uniform(-1, 1, 512).astype(np.float16)
    got_s, got_m = t.tikdb.start_debug({"x": a})
    rows = a.reshape(4, 128)
    want_s = np.zeros(16, np.float16)
    want_s[:4] = [tree_sum(r, np.float16) for r in rows]
    assert got_s.tobytes() == want_s.tobytes()
    for r in range(4):
        assert got_m[2 * r] == rows[r].max()
        assert got_m[2 * r + 1:2 * r + 2].view(np.uint16)[0] == int(np.argmax(rows[r]))


def test_vec_reduce_add_with_work_tensor():
    t = tik.Tik()
    x = t.Tensor("float32", (320,), name="x", scope=tik.scope_gm)
    s = t.Tensor("float32", (8,), name="s", scope=tik.scope_gm)
    xu = t.Tensor("float32", (320,), name="xu", scope=tik.scope_ubuf)
    su = t.Tensor("float32", (8,), name="su", scope=tik.scope_ubuf)
    work = t.Tensor("float32", (64,), name="work", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 40, 0, 0)
    t.vec_dup(8, su, 0.0, 1, 8)
    t.vec_reduce_add(64, su, xu, work, 5, 8)
    t.data_move(s, su, 0, 1, 1, 0, 0)
    t.BuildCCE("reduce", [x], [s])
    a = np.random.default_rng(7).uniform(-1, 1, 320).astype(np.float32)
    got, = t.tikdb.start_debug({"x": a})
    per_repeat = [tree_sum(r, np.float32) for r in a.reshape(5, 64)]
    assert got[0] == tree_sum(per_repeat, np.float32)


def test_softmax_rows():
    """Row softmax of 8 rows of 128 float16 values: max, x - max, exp, sum, multiply by 1/sum."""
    rows, cols = 8, 128
    t = tik.Tik()
    x = t.Tensor("float16", (rows, cols), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (rows, cols), name="y", scope=tik.scope_gm)
    xu = t.Tensor("float16", (rows, cols), name="xu", scope=tik.scope_ubuf)
    red = t.Tensor("float16", (16,), name="red", scope=tik.scope_ubuf)
    work = t.Tensor("float16", (128,), name="work", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, rows * cols // 16, 0, 0)
    with t.for_range(0, rows) as r:
        mx = t.Scalar("float16", "mx")
        sm = t.Scalar("float16", "sm")
        t.vec_reduce_max(128, red, xu[r, 0], work, 1, 8)
        mx.set_as(red[0])
        t.vec_adds(128, xu[r, 0], xu[r, 0], -mx, 1, 8, 8)
        t.vec_exp(128, xu[r, 0], xu[r, 0], 1, 8, 8)
        t.vec_reduce_add(128, red, xu[r, 0], work, 1, 8)
        sm.set_as(red[0])
        inv = t.Scalar("float16", "inv")
        inv.set_as(1.0 / sm)
        t.vec_muls(128, xu[r, 0], xu[r, 0], inv, 1, 8, 8)
    t.data_move(y, xu, 0, 1, rows * cols // 16, 0, 0)
    t.BuildCCE("softmax", [x], [y])
    a = np.random.default_rng(8).uniform(-3, 3, (rows, cols)).astype(np.float16)
    got, = t.tikdb.start_debug({"x": a})
    want = np.empty_like(a)
    for r in range(rows):
        mx = a[r].max()
        e = expf(a[r] + (-mx))  # Adds with the scalar -mx, rounded to half
        sm = tree_sum(e, np.float16)
        inv = np.float16(1.0 / float(sm))  # the scalar unit: double, stored as float16
        want[r] = e * inv
    assert got.tobytes() == want.tobytes()


def test_vcpadd_pairs_and_scalar_helpers():
    t = tik.Tik()
    x = t.Tensor("float16", (128,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (64,), name="y", scope=tik.scope_gm)
    s = t.Tensor("int32", (8,), name="s", scope=tik.scope_gm)
    xu = t.Tensor("float16", (128,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (64,), name="yu", scope=tik.scope_ubuf)
    su = t.Tensor("int32", (8,), name="su", scope=tik.scope_ubuf)
    assert t.get_available_buffer_size(tik.scope_ubuf) == 256 * 1024 - 128 * 2 - 64 * 2 - 32
    t.data_move(xu, x, 0, 1, 8, 0, 0)
    t.vcpadd(128, yu, xu, 1, 1, 1, 8)
    a_s = t.Scalar("int32", "a", init_value=-7)
    r = t.Scalar("int32", "r")
    t.scalar_abs(r, a_s)
    su[0].set_as(r)
    t.scalar_max(r, a_s, 3)
    su[1].set_as(r)
    t.scalar_min(r, a_s, 3)
    su[2].set_as(r)
    t.data_move(y, yu, 0, 1, 4, 0, 0)
    t.data_move(s, su, 0, 1, 1, 0, 0)
    t.BuildCCE("vcpadd", [x], [y, s])
    a = np.random.default_rng(18).uniform(-1, 1, 128).astype(np.float16)
    got_y, got_s = t.tikdb.start_debug({"x": a})
    assert got_y.tobytes() == (a[0::2] + a[1::2]).tobytes()
    assert got_s[:3].tolist() == [7, 3, -7]


def test_reduce_max_with_index_and_block_reduce():
    t = tik.Tik()
    x = t.Tensor("float32", (128,), name="x", scope=tik.scope_gm)
    m = t.Tensor("float32", (8,), name="m", scope=tik.scope_gm)
    g = t.Tensor("float32", (16,), name="g", scope=tik.scope_gm)
    xu = t.Tensor("float32", (128,), name="xu", scope=tik.scope_ubuf)
    mu = t.Tensor("float32", (8,), name="mu", scope=tik.scope_ubuf)
    gu = t.Tensor("float32", (16,), name="gu", scope=tik.scope_ubuf)
    work = t.Tensor("float32", (64,), name="work", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.vec_dup(8, mu, 0.0, 1, 8)
    t.vec_reduce_max(64, mu, xu, work, 2, 8, cal_index=True)
    t.vcgadd(64, gu, xu, 2, 1, 1, 8)   # one sum per 32 B block: 8 per repeat
    t.data_move(m, mu, 0, 1, 1, 0, 0)
    t.data_move(g, gu, 0, 1, 2, 0, 0)
    t.BuildCCE("reduce_max", [x], [m, g])
    a = np.random.default_rng(21).uniform(-1, 1, 128).astype(np.float32)
    got_m, got_g = t.tikdb.start_debug({"x": a})
    assert got_m[0] == a.max()
    assert got_m[1:2].view(np.uint32)[0] == int(np.argmax(a))
    want = np.array([tree_sum(b, np.float32) for b in a.reshape(16, 8)], np.float32)
    assert got_g.tobytes() == want.tobytes()
