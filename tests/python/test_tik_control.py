"""Scalar control flow run by the core's scalar unit: loops with InputScalar bounds, branches on
values read from UB, elif/else, tik_break, tik.all/any, tensor element stores."""
import numpy as np
from tbe import tik


def test_branches_on_values_read_from_ub():
    # y[i] = 2*x[i] if x[i] > 0, -1 if x[i] == 0 (elif), x[i] + 10 else; element by element.
    n = 64
    t = tik.Tik()
    x = t.Tensor("int32", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("int32", (n,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("int32", (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("int32", (n,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, n * 4 // 32, 0, 0)
    v = t.Scalar("int32", "v")
    with t.for_range(0, n) as i:
        v.set_as(xu[i])
        with t.if_scope(v > 0):
            yu[i].set_as(v * 2)
        with t.elif_scope(v == 0):
            yu[i].set_as(-1)
        with t.else_scope():
            yu[i].set_as(xu[i] + 10)
    t.data_move(y, yu, 0, 1, n * 4 // 32, 0, 0)
    t.BuildCCE("branches", [x], [y])
    a = np.random.default_rng(9).integers(-5, 5, n).astype(np.int32)
    got, = t.tikdb.start_debug({"x": a})
    want = np.where(a > 0, 2 * a, np.where(a == 0, -1, a + 10)).astype(np.int32)
    assert got.tobytes() == want.tobytes()


def test_input_scalar_loop_bounds_and_break():
    # Sum of the first `count` elements, stopping early at the first negative one.
    t = tik.Tik()
    x = t.Tensor("int32", (64,), name="x", scope=tik.scope_gm)
    count = t.InputScalar("int32", name="count")
    y = t.Tensor("int32", (8,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("int32", (64,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("int32", (8,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 8, 0, 0)
    acc = t.Scalar("int32", "acc", init_value=0)
    steps = t.Scalar("int32", "steps", init_value=0)
    with t.for_range(0, count) as i:
        with t.if_scope(tik.any(xu[i] < 0, xu[i] > 1000)):
            t.tik_break()
        acc.set_as(acc + xu[i])
        steps.set_as(steps + 1)
    yu[0].set_as(acc)
    yu[1].set_as(steps)
    with t.if_scope(tik.all(acc > 10, steps >= 3)):
        yu[2].set_as(1)
    with t.else_scope():
        yu[2].set_as(0)
    t.data_move(y, yu, 0, 1, 1, 0, 0)
    t.BuildCCE("bounded", [x, count], [y])
    a = np.arange(64, dtype=np.int32)
    a[20] = -1
    for c, want in ((5, (10, 5, 0)), (30, (190, 20, 1))):
        got, = t.tikdb.start_debug({"x": a, "count": c})
        assert tuple(got[:3]) == want


def test_dynamic_repeat_and_offsets_from_scalars():
    # The repeat count and the tensor offsets are Scalars the scalar unit computes.
    t = tik.Tik()
    x = t.Tensor("float16", (1024,), name="x", scope=tik.scope_gm)
    rows = t.InputScalar("int32", name="rows")
    y = t.Tensor("float16", (1024,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("float16", (1024,), name="xu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 64, 0, 0)
    with t.for_range(0, 2) as half:
        t.vec_muls(128, xu[half * 512], xu[half * 512], 3.0, rows, 8, 8)
    t.data_move(y, xu, 0, 1, 64, 0, 0)
    t.BuildCCE("dyn", [x, rows], [y])
    a = np.random.default_rng(10).uniform(-1, 1, 1024).astype(np.float16)
    got, = t.tikdb.start_debug({"x": a, "rows": 2})
    want = a.copy()
    for h in range(2):
        want[h * 512:h * 512 + 256] = a[h * 512:h * 512 + 256] * np.float16(3)
    assert got.tobytes() == want.tobytes()


def test_views_reshape_and_reinterpret():
    t = tik.Tik()
    x = t.Tensor("float16", (4, 64), name="x", scope=tik.scope_gm)
    y = t.Tensor("uint16", (256,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("float16", (4, 64), name="xu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    flat = xu.reshape((256,))
    t.vec_adds(64, flat[64:], flat[64:], 1.0, 1, 8, 8)     # row 1 only
    bits = xu.reinterpret_cast_to("uint16")
    t.data_move(y, bits, 0, 1, 16, 0, 0)
    t.BuildCCE("views", [x], [y])
    a = np.random.default_rng(11).uniform(-1, 1, (4, 64)).astype(np.float16)
    got, = t.tikdb.start_debug({"x": a})
    want = a.copy()
    want[1] = a[1] + np.float16(1)
    assert got.tobytes() == want.view(np.uint16).ravel().tobytes()


def test_uninitialised_memory_is_deterministic():
    t = tik.Tik()
    x = t.Tensor("float16", (16,), name="x", scope=tik.scope_gm)
    y = t.Tensor("uint16", (32,), name="y", scope=tik.scope_gm)
    yu = t.Tensor("uint16", (32,), name="yu", scope=tik.scope_ubuf)
    t.data_move(y, yu, 0, 1, 2, 0, 0)   # never written: the documented pattern
    t.BuildCCE("uninit", [x], [y])
    got, = t.tikdb.start_debug({"x": np.zeros(16, np.float16)})
    assert (got == 0xA5A5).all()


def test_tensor_mov_and_new_stmt_scope():
    t = tik.Tik()
    x = t.Tensor("int32", (4, 16), name="x", scope=tik.scope_gm)
    y = t.Tensor("int32", (2, 16), name="y", scope=tik.scope_gm)
    with t.new_stmt_scope():
        big = t.Tensor("int32", (60 * 1024,), name="big", scope=tik.scope_ubuf)  # freed at the scope's end
        t.vec_dup(64, big, 0, 1, 8)
    u = t.Tensor("int32", (60 * 1024,), name="u", scope=tik.scope_ubuf)          # fits again
    # rows 0 and 2: 2 bursts of 2 blocks, skipping 2 blocks between them in GM
    t.tensor_mov(u, x, "", 2, 2, 0, 2)
    t.tensor_mov(y, u, "", 1, 4, 0, 0)
    t.BuildCCE("tensor_mov", [x], [y])
    a = np.arange(64, dtype=np.int32).reshape(4, 16)
    got, = t.tikdb.start_debug({"x": a})
    assert got.tobytes() == a[::2].tobytes()
