"""Tensors whose shape holds a Scalar (as the ROI-pooling sample declares them): max_mem_size
reserves the space, the Scalar sizes the tensor at run time, and an access past the
reservation is an error naming the line."""
import numpy as np
import pytest
from tbe import tik
from npuvp.tik import TikError


def build():
    t = tik.Tik()
    x = t.Tensor("float16", (16, 16), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (16, 16), name="y", scope=tik.scope_gm)
    rows = t.InputScalar("int32", name="rows")
    bins = t.Scalar("int32", "bins")
    bins.set_as(rows)
    ub = t.Tensor("float16", (bins, 16), name="ub", scope=tik.scope_ubuf, max_mem_size=16 * 16 * 2)
    out = t.Tensor("float16", (16, 16), name="out", scope=tik.scope_ubuf)
    t.vec_dup(128, out, 0.0, 2, 8)
    t.data_move(ub, x, 0, 1, bins, 0, 0)            # one 32-byte block per row
    t.vec_muls(16, ub, ub, 2.0, bins, 1, 1)         # a Scalar repeat over the rows
    with t.for_range(0, bins) as i:
        ub[i, 15].set_as(ub[i, 0])                  # [row, column] with a Scalar row
    t.data_move(out, ub, 0, 1, bins, 0, 0)
    t.data_move(y, out, 0, 1, 16, 0, 0)
    t.BuildCCE("scalar_shape", [x, rows], [y])
    return t


@pytest.mark.parametrize("rows", [3, 16])
def test_scalar_dimension_sized_at_run_time(rows):
    t = build()
    a = np.random.default_rng(rows).uniform(-2, 2, (16, 16)).astype(np.float16)
    got, = t.tikdb.start_debug({"x": a, "rows": np.int32(rows)})
    want = np.zeros((16, 16), np.float16)
    want[:rows] = a[:rows] * np.float16(2)
    want[:rows, 15] = want[:rows, 0]
    assert got.tobytes() == want.tobytes()


def test_past_the_reservation_is_an_error():
    t = build()
    with pytest.raises(TikError) as e:
        t.tikdb.start_debug({"x": np.zeros((16, 16), np.float16), "rows": np.int32(17)})
    assert "test_tik_scalar_shape.py:" in str(e.value)


def test_needs_max_mem_size():
    t = tik.Tik()
    n = t.Scalar("int32", "n", init_value=4)
    with pytest.raises(TikError) as e:
        t.Tensor("float16", (n, 16), name="u", scope=tik.scope_ubuf)
    assert "test_tik_scalar_shape.py:" in str(e.value) and "give max_mem_size" in str(e.value)
    with pytest.raises(TikError) as e:
        t.Tensor("float16", (n, 16), name="v", scope=tik.scope_ubuf, max_mem_size=64, init_value=0)
    assert "init_value needs a fixed shape" in str(e.value)
    with pytest.raises(TikError) as e:
        t.Tensor("float16", (4, 16), name="w", scope=tik.scope_ubuf, max_mem_size=64)
    assert "max_mem_size 64 of tensor w is less than its 128 bytes" in str(e.value)


def test_tensor_level_instructions_need_a_fixed_shape():
    t = tik.Tik()
    n = t.Scalar("int32", "n", init_value=4)
    u = t.Tensor("float16", (n, 16), name="u", scope=tik.scope_ubuf, max_mem_size=256)
    with pytest.raises(TikError) as e:
        t.h_duplicate(u, 0.0)
    assert "test_tik_scalar_shape.py:" in str(e.value) and "tensor u's shape holds a Scalar" in str(e.value)
