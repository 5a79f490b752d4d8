"""h_reduce_sum/max/min over adjacent axes of 3-D and 4-D tensors: middle axes (positions
combined in order, a sum rounded after every one), leading axes, and trailing axes (rows
reduced by the vector unit's ReduceSum/Max/Min; integer values keep those sums exact)."""
import numpy as np
import pytest
from tbe import tik
from npuvp.tik import TikError


def ordered(a, axes, dtype, op):
    """op over `axes` (adjacent), the positions combined one after another in index order."""
    i, j = axes[0], axes[-1] + 1
    s = a.shape
    b = a.reshape(int(np.prod(s[:i])), int(np.prod(s[i:j])), int(np.prod(s[j:])))
    out = b[:, 0, :]
    for k in range(1, b.shape[1]):
        out = op(out, b[:, k, :]).astype(dtype)
    return out.ravel()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_middle_and_leading_axes(dtype):
    shape = (3, 4, 2, 80)           # kept rows of 80 / 160 elements: a full repeat and a tail
    n = int(np.prod(shape))
    t = tik.Tik()
    x = t.Tensor(dtype, shape, name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (4 * 480,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, shape, name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (4 * 480,), name="yu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_duplicate(yu, 0.0)
    t.h_reduce_sum(yu[0:480], xu, axis=1)              # -> (3, 2, 80)
    t.h_reduce_max(yu[480:960], xu, axis=(1, 2))       # -> (3, 80)
    t.h_reduce_min(yu[960:1440], xu, axis=[0, 1])      # -> (2, 80)
    t.h_reduce_sum(yu[1440:1920], xu, axis=-3)         # the same as axis 1
    t.h_data_move(y, yu)
    t.BuildCCE("axes_mid", [x], [y])
    a = np.random.default_rng(21).uniform(-4, 4, n).astype(dtype).reshape(shape)
    got, = t.tikdb.start_debug({"x": a})
    want = np.zeros(4 * 480, dtype)
    s1 = ordered(a, [1], dtype, np.add)
    want[0:480] = s1
    want[480:480 + 240] = ordered(a, [1, 2], dtype, np.maximum)
    want[960:960 + 160] = ordered(a, [0, 1], dtype, np.minimum)
    want[1440:1920] = s1
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_trailing_axes(dtype):
    shape = (2, 3, 64)
    t = tik.Tik()
    x = t.Tensor(dtype, shape, name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (32,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, shape, name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (32,), name="yu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_duplicate(yu, 0.0)
    t.h_reduce_sum(yu, xu, axis=(1, 2))
    t.h_reduce_max(yu[16:], xu, axis=(-2, -1))
    t.h_data_move(y, yu)
    t.BuildCCE("axes_tail", [x], [y])
    a = np.random.default_rng(22).integers(-8, 9, shape).astype(dtype)
    got, = t.tikdb.start_debug({"x": a})
    want = np.zeros(32, dtype)
    want[0:2] = a.sum(axis=(1, 2))
    want[16:18] = a.max(axis=(1, 2))
    assert got.tobytes() == want.tobytes()


def test_refusals_name_the_line():
    t = tik.Tik()
    xu = t.Tensor("float16", (2, 3, 16), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (96,), name="yu", scope=tik.scope_ubuf)
    with pytest.raises(TikError) as e:
        t.h_reduce_sum(yu, xu, axis=(0, 2))
    assert "test_tik_reduce_axes.py:" in str(e.value) and "adjacent axes only" in str(e.value)
    odd = t.Tensor("float16", (2, 3, 5), name="odd", scope=tik.scope_ubuf)
    with pytest.raises(TikError) as e:
        t.h_reduce_max(yu, odd, axis=1)
    assert "32-byte aligned" in str(e.value)
    small = t.Tensor("float16", (16,), name="small", scope=tik.scope_ubuf)
    with pytest.raises(TikError) as e:
        t.h_reduce_min(small, xu, axis=1)
    assert "dst small has 16 elements, the reduction gives 32" in str(e.value)
