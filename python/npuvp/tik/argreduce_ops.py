"""h_reduce_argmax / h_reduce_argmin (issue 24, third round): the index of the largest or
smallest element of a whole tensor, or of each row along the last axis.

Each reduced run is one ReduceMax/ReduceMin with its index (Ascend C's count form with
calIndex: dst[0] the value, dst[1] the index bits in a value-sized slot, docs/vector-isa.md
3.4), then the scalar unit copies the index into dst, converting it to dst's integer type.
Of equal values the lowest index wins; a NaN is the extreme value (the vector unit's rule).
"""
from .ir import DTYPE_SIZE, Tensor, fail, user_loc
from . import tik as _t

_INT_DST = ("int32", "uint32", "int16", "uint16", "int64", "uint64")


def _h_arg(api, op):
    def f(self, dst, src, axis=None, keep_dims=False):
        loc = user_loc()
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor) or t.scope != _t.scope_ubuf:
                fail("%s must be a Tensor in scope_ubuf" % what, api, loc)
        dt = src.dtype
        if dt not in _t._FLOAT:
            fail("src dtype %s is not supported (float16, float32)" % dt, api, loc)
        if dst.dtype not in _INT_DST:
            fail("dst dtype %s is not an integer type for indices (%s)" % (dst.dtype, ", ".join(_INT_DST)),
                 api, loc)
        shape = src.shape or (1,)
        axes = None if axis is None else (list(axis) if isinstance(axis, (list, tuple)) else [axis])
        if axes is not None:
            axes = [a + len(shape) if a < 0 else a for a in axes]
        if axes is None or sorted(axes) == list(range(len(shape))):
            n, rows = src.size, 1
        elif axes == [len(shape) - 1]:
            n = shape[-1]
            rows = src.size // n
        else:
            fail("axis %r: npuvp reduces the whole tensor or its last axis" % (axis,), api, loc)
        if dst.size < rows:
            fail("dst %s has %d elements, %d rows are reduced" % (dst.name, dst.size, rows), api, loc)
        if rows > 1 and (n * DTYPE_SIZE[dt]) % 32:
            fail("rows of %d %s elements do not start 32-byte aligned (vector operands must)" % (n, dt), api, loc)
        per = 256 // DTYPE_SIZE[dt]
        repeats = (n + per - 1) // per
        if repeats > 4095:
            fail("%d elements are more than one reduction instruction takes (4095 repeats of %d)" % (n, per),
                 api, loc)
        fs, fd = _t._flat(src), _t._flat(dst)
        index_type = "uint16" if DTYPE_SIZE[dt] == 2 else "uint32"
        with self._scope(self._cur):
            rec = self.Tensor(dt, (per,), _t.scope_ubuf, api + "_record")
            bits = rec.reinterpret_cast_to(index_type)
            for r in range(rows):
                self._vec(api, op, dt, n, rec, (fs[r * n],), repeats, (1, 1, 0), (0, 8, 0), extra={"order": 0},
                          mask_mode="counter", dst_align=DTYPE_SIZE[dt], loc=loc, repeat_limit=4095)
                fd[r].set_as(bits[1])
    return f


_t._define("h_reduce_argmax", _h_arg("h_reduce_argmax", "ReduceMax"))
_t._define("h_reduce_argmin", _h_arg("h_reduce_argmin", "ReduceMin"))
