"""vnchwconv / vec_trans_scatter for 8- and 32-bit types and h_reduce_argmax/argmin, bit-exact
against numpy references of the documented rules (python/npuvp/tik/trans_ops.py,
argreduce_ops.py)."""
import numpy as np
import pytest
from tbe import tik


def _ref_b32(src_blocks):
    """16 blocks of 8 -> 16 blocks: block 2k+h = element k of blocks 8h..8h+7."""
    out = np.empty_like(src_blocks)
    for k in range(8):
        for h in range(2):
            out[2 * k + h] = src_blocks[8 * h:8 * h + 8, k]
    return out


def _ref_b8(src_blocks, dst_blocks, src_high, dst_high):
    """block i, half dst_high = byte i + 16 src_high of each of the 16 source blocks."""
    out = dst_blocks.copy()
    for i in range(16):
        out[i, 16 * dst_high:16 * dst_high + 16] = src_blocks[:, i + 16 * src_high]
    return out


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_vnchwconv_32bit_two_repeats(dtype):
    t = tik.Tik()
    x = t.Tensor(dtype, (2 * 128,), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (2 * 128,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (2 * 128,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (2 * 128,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 32, 0, 0)
    # src rows are 16 blocks apart (repeat r: block 16 r + j is src j); dst likewise.
    t.vnchwconv(False, False, [yu[8 * i] for i in range(16)], [xu[8 * j] for j in range(16)], 2, 16, 16)
    t.data_move(y, yu, 0, 1, 32, 0, 0)
    t.BuildCCE("nchw32", [x], [y])
    a = np.arange(256).astype(dtype) * (1.5 if dtype == "float32" else 3) - 7
    got, = t.tikdb.start_debug({"x": a})
    want = np.concatenate([_ref_b32(a[128 * r:128 * r + 128].reshape(16, 8)).reshape(-1) for r in range(2)])
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("src_high,dst_high", [(False, False), (True, True), (False, True)])
def test_vec_trans_scatter_8bit_halves(src_high, dst_high):
    t = tik.Tik()
    x = t.Tensor("int8", (512,), name="x", scope=tik.scope_gm)
    d = t.Tensor("int8", (512,), name="d", scope=tik.scope_gm)
    y = t.Tensor("int8", (512,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("int8", (512,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("int8", (512,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.data_move(yu, d, 0, 1, 16, 0, 0)   # the halves vec_trans_scatter keeps
    t.vec_trans_scatter(dst_high, src_high, [yu[32 * i] for i in range(16)], [xu[32 * j] for j in range(16)],
                        1, 0, 0)
    t.data_move(y, yu, 0, 1, 16, 0, 0)
    t.BuildCCE("scatter8", [x, d], [y])
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, 512).astype(np.int8)
    b = rng.integers(-128, 128, 512).astype(np.int8)
    got, = t.tikdb.start_debug({"x": a, "d": b})
    want = _ref_b8(a.reshape(16, 32), b.reshape(16, 32), int(src_high), int(dst_high))
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_h_reduce_argmax_argmin_rows_and_whole(dtype):
    rows, n = 3, 208  # not a whole number of repeats
    t = tik.Tik()
    x = t.Tensor(dtype, (rows, n), name="x", scope=tik.scope_gm)
    y = t.Tensor("int32", (16,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (rows, n), name="xu", scope=tik.scope_ubuf)
    iu = t.Tensor("int32", (16,), name="iu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.vec_dup(16, iu, -1, 1, 8)
    t.h_reduce_argmax(iu, xu, axis=1)
    t.h_reduce_argmin(iu[8], xu, axis=-1)
    t.h_reduce_argmax(iu[4], xu)          # the whole tensor
    t.h_data_move(y, iu)
    t.BuildCCE("argmax", [x], [y])
    rng = np.random.default_rng(3)
    a = rng.integers(-50, 50, (rows, n)).astype(dtype)  # ties: the lowest index wins
    got, = t.tikdb.start_debug({"x": a})
    want = np.full(16, -1, np.int32)
    want[0:3] = a.argmax(axis=1)
    want[8:11] = a.argmin(axis=1)
    want[4] = a.argmax()
    assert got.tolist() == want.tolist()


def test_h_reduce_argmax_rejects_float_dst():
    t = tik.Tik()
    xu = t.Tensor("float16", (128,), name="xu", scope=tik.scope_ubuf)
    with pytest.raises(tik.TikError) as e:
        t.h_reduce_argmax(xu, xu)
    assert "test_tik_trans_argmax.py:" in str(e.value) and "integer type" in str(e.value)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_h_reduce_over_rows_axis_0(dtype):
    """[positions, C] reduced over the positions, as pooling operators do: rows combined in order."""
    rows, cols = 5, 144   # 144 columns: one full float16 repeat + 16 (float32: 2 repeats + 16)
    t = tik.Tik()
    x = t.Tensor(dtype, (rows, cols), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (3, cols), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (rows, cols), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (3, cols), name="yu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_reduce_sum(yu[0:cols], xu, 0)
    t.h_reduce_max(yu[cols:2 * cols], xu, axis=0)
    t.h_reduce_min(yu[2 * cols:], xu, axis=-2)
    t.h_data_move(y, yu)
    t.BuildCCE("rows", [x], [y])
    a = np.random.default_rng(9).uniform(-4, 4, (rows, cols)).astype(dtype)
    got, = t.tikdb.start_debug({"x": a})
    s = a[0]
    for r in range(1, rows):
        s = (s + a[r]).astype(dtype)
    assert got[0].tobytes() == s.tobytes()
    assert got[1].tobytes() == a.max(axis=0).tobytes()
    assert got[2].tobytes() == a.min(axis=0).tobytes()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_h_reduce_argmax_argmin_over_rows(dtype):
    """The ROI-pooling form: the row of each channel's extreme over [positions, C0]."""
    rows, cols = 7, 16
    t = tik.Tik()
    x = t.Tensor(dtype, (rows, cols), name="x", scope=tik.scope_gm)
    y = t.Tensor("int32", (2, cols), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (rows, cols), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("int32", (2, cols), name="yu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_reduce_argmax(yu[0:cols], xu, 0)
    t.h_reduce_argmin(yu[cols:], xu, 0)
    t.h_data_move(y, yu)
    t.BuildCCE("argrows", [x], [y])
    a = np.random.default_rng(10).integers(-5, 5, (rows, cols)).astype(dtype)   # ties: the lowest row
    got, = t.tikdb.start_debug({"x": a})
    assert got[0].tolist() == a.argmax(axis=0).tolist()
    assert got[1].tolist() == a.argmin(axis=0).tolist()
