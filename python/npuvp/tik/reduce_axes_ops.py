"""h_reduce_sum / h_reduce_max / h_reduce_min over any run of adjacent axes of a tensor of
three or more dimensions (issue 24, follow-up). The earlier forms stay as they were: the
whole tensor, the last axis, and axis 0 of a 2-D tensor.

With the reduced axes [i, j) of shape S: outer = prod(S[:i]) blocks, R = prod(S[i:j]) reduced
positions, inner = prod(S[j:]) kept elements.
  - j == len(S) (trailing axes): each of the outer rows of R elements is reduced as the
    last-axis form does (whole repeats, a tail, the partials combined by the vector unit's
    ReduceSum/Max/Min).
  - otherwise (leading or middle axes): for each outer block, dst[o, :] = op over r of
    src[o, r, :], the rows combined in order by Add/Max/Min as the 2-D axis-0 form does
    (row 0 op row 1, then dst op row r, so a sum is rounded after every row).
dst holds outer * inner elements (keep_dims changes only its shape, which npuvp does not
check beyond its size). Axes that are not adjacent (e.g. (0, 2) of a 3-D tensor) are refused.
"""
from .ir import DTYPE_SIZE, Tensor, fail, user_loc
from . import more_ops as _m
from . import tik as _t


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def _axes_form(api, op_rows, op_cols, earlier):
    def f(self, dst, src, axis=None, keep_dims=False):
        shape = src.shape if isinstance(src, Tensor) else ()
        if axis is None or len(shape) < 3:
            return earlier(self, dst, src, axis, keep_dims)
        nd = len(shape)
        axes = sorted(set(a + nd if a < 0 else a for a in (axis if isinstance(axis, (list, tuple)) else [axis])))
        if axes == list(range(nd)) or axes == [nd - 1]:
            return earlier(self, dst, src, axis, keep_dims)
        loc = user_loc()
        if any(not isinstance(a, int) or a < 0 or a >= nd for a in axes):
            fail("axis %r out of range for a %d-D tensor" % (axis, nd), api, loc)
        if axes != list(range(axes[0], axes[-1] + 1)):
            fail("axis %r: npuvp reduces adjacent axes only (reduce in two steps)" % (axis,), api, loc)
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor) or t.scope != _t.scope_ubuf:
                fail("%s must be a Tensor in scope_ubuf" % what, api, loc)
        for d in shape:
            if not isinstance(d, int):
                fail("a reduction over axes %r needs an immediate shape, not %s" % (axis, shape), api, loc)
        dt = self._types(api, loc, _t._FLOAT, dst, src)
        i, j = axes[0], axes[-1] + 1
        outer, r, inner = _prod(shape[:i]), _prod(shape[i:j]), _prod(shape[j:])
        if dst.size < outer * inner:
            fail("dst %s has %d elements, the reduction gives %d" % (dst.name, dst.size, outer * inner), api, loc)
        size = DTYPE_SIZE[dt]
        fs, fd = _t._flat(src), _t._flat(dst)
        if j == nd:  # trailing axes: outer rows of r elements each
            if outer > 1 and (r * size) % 32:
                fail("rows of %d %s elements do not start 32-byte aligned (vector operands must)" % (r, dt),
                     api, loc)
            for o in range(outer):
                _m._reduce_run(self, api, op_rows, dt, fd[o], fs, o * r, r, loc)
            return
        if (inner * size) % 32:
            fail("the kept %d %s elements of each reduced position do not start 32-byte aligned (vector "
                 "operands must)" % (inner, dt), api, loc)
        per = 256 // size
        for o in range(outer):
            base, out = o * r * inner, o * inner
            for off, mask, rep in _t._h_spans(inner, per):
                d = fd[out + off]
                if r == 1:  # one position: a copy (x * 1 keeps every bit of a number, and -0)
                    self._vec(api, "Muls", dt, mask, d, (fs[base + off],), rep, (1, 1, 0), (8, 8, 0), 1.0, loc=loc)
                    continue
                self._vec(api, op_cols, dt, mask, d, (fs[base + off], fs[base + inner + off]), rep, (1, 1, 1),
                          (8, 8, 8), loc=loc)
                for k in range(2, r):
                    self._vec(api, op_cols, dt, mask, d, (d, fs[base + k * inner + off]), rep, (1, 1, 1),
                              (8, 8, 8), loc=loc)
    return f


for _n, _rows, _cols in (("sum", "ReduceSum", "Add"), ("max", "ReduceMax", "Max"), ("min", "ReduceMin", "Min")):
    _t._define("h_reduce_" + _n, _axes_form("h_reduce_" + _n, _rows, _cols, getattr(_t.Tik, "h_reduce_" + _n)))
