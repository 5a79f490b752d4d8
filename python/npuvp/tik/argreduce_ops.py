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
        if len(shape) == 2 and axes == [0]:
            _arg_axis0(self, api, op, dt, dst, src, loc)
            return
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


def _arg_axis0(self, api, op, dt, dst, src, loc):
    """The row index of each column's extreme, as pooling operators take it over [positions, C0]:
    the extreme by Max/Min over the rows, then from the last row to the first, where a row
    equals it, its number (a float) is selected, so the lowest row wins; then the numbers are
    converted to dst's integer type. A column with a NaN gets 0."""
    rows, cols = src.shape
    esize = DTYPE_SIZE[dt]
    if rows > 1 and (cols * esize) % 32:
        fail("rows of %d %s elements do not start 32-byte aligned (vector operands must)" % (cols, dt), api, loc)
    if dst.size < cols:
        fail("dst %s has %d elements, %d columns are reduced" % (dst.name, dst.size, cols), api, loc)
    if rows > 2048 and dt == "float16":
        fail("%d rows: a float16 row number is exact up to 2048" % rows, api, loc)
    per = 256 // esize
    spans = _t._h_spans(cols, per)
    field = 16 if esize == 2 else 8            # Compare's bits per repeat, in bytes
    slot = (255 * field + 31) // 32 * 32        # one 32-byte aligned bit field per span
    fs, fd = _t._flat(src), _t._flat(dst)
    extreme = "Max" if op == "ReduceMax" else "Min"
    with self._scope(self._cur):
        ext = self.Tensor(dt, (cols,), _t.scope_ubuf, api + "_extreme")
        idx = self.Tensor(dt, (cols,), _t.scope_ubuf, api + "_index")
        bits = self.Tensor("uint8", (slot * len(spans),), _t.scope_ubuf, api + "_bits")
        for off, mask, rep in spans:
            self._vec(api, "Duplicate", dt, mask, idx[off], (), rep, (1, 1, 0), (8, 0, 0), 0, loc=loc)
            if rows == 1:
                continue
            self._vec(api, extreme, dt, mask, ext[off], (fs[off], fs[cols + off]), rep, (1, 1, 1), (8, 8, 8), loc=loc)
            for r in range(2, rows):
                self._vec(api, extreme, dt, mask, ext[off], (ext[off], fs[r * cols + off]), rep, (1, 1, 1),
                          (8, 8, 8), loc=loc)
        for r in (range(rows - 1, -1, -1) if rows > 1 else ()):
            for k, (off, mask, rep) in enumerate(spans):
                b = bits[k * slot]
                self._vec(api, "Compare", dt, mask, b, (fs[r * cols + off], ext[off]), rep, (1, 1, 1), (0, 8, 8),
                          extra={"cmp": _t._CMP["ne"]}, loc=loc)
                self._vec(api, "Select", dt, mask, idx[off], (idx[off], None, b), rep, (1, 1, 1), (8, 8, 8), r,
                          extra={"sel": 1}, loc=loc)
        wide = max(esize, DTYPE_SIZE[dst.dtype])
        cper = 256 // wide
        for off, mask, rep in _t._h_spans(cols, cper):
            _t._conv(self, api, mask, "round", fd[off], idx[off], rep, (1, 1),
                     (cper * DTYPE_SIZE[dst.dtype] // 32, cper * esize // 32), None, loc)


_t._define("h_reduce_argmax", _h_arg("h_reduce_argmax", "ReduceMax"))
_t._define("h_reduce_argmin", _h_arg("h_reduce_argmin", "ReduceMin"))


# ---- h_reduce_sum / max / min over the first axis of a 2-D tensor (rows combined column-wise) ----
# Pooling operators reduce [positions, C0] over the positions: dst[c] = op over rows of src[:, c].
# Rows are combined in order by the vector unit's Add/Max/Min (dst = row 0 op row 1, then
# dst = dst op row r), so a sum is rounded after every row; other axes go to more_ops' forms.
def _axis0(api, op, whole):
    def f(self, dst, src, axis=None, keep_dims=False):
        shape = src.shape if isinstance(src, Tensor) else ()
        axes = axis if isinstance(axis, (list, tuple)) else [axis]
        if len(shape) != 2 or [a + 2 if a is not None and a < 0 else a for a in axes] != [0]:
            return whole(self, dst, src, axis, keep_dims)
        loc = user_loc()
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor) or t.scope != _t.scope_ubuf:
                fail("%s must be a Tensor in scope_ubuf" % what, api, loc)
        dt = self._types(api, loc, _t._FLOAT, dst, src)
        rows, cols = shape
        if dst.size < cols:
            fail("dst %s has %d elements, %d columns are reduced" % (dst.name, dst.size, cols), api, loc)
        if rows > 1 and (cols * DTYPE_SIZE[dt]) % 32:
            fail("rows of %d %s elements do not start 32-byte aligned (vector operands must)" % (cols, dt), api, loc)
        per = 256 // DTYPE_SIZE[dt]
        fs, fd = _t._flat(src), _t._flat(dst)
        for off, mask, rep in _t._h_spans(cols, per):
            if rows == 1:  # one row: dst = row 0 (x * 1 keeps every bit of a number, and -0)
                self._vec(api, "Muls", dt, mask, fd[off], (fs[off],), rep, (1, 1, 0), (8, 8, 0), 1.0, loc=loc)
                continue
            self._vec(api, op, dt, mask, fd[off], (fs[off], fs[cols + off]), rep, (1, 1, 1), (8, 8, 8), loc=loc)
            for r in range(2, rows):
                self._vec(api, op, dt, mask, fd[off], (fd[off], fs[r * cols + off]), rep, (1, 1, 1), (8, 8, 8),
                          loc=loc)
    return f


for _n, _op in (("sum", "Add"), ("max", "Max"), ("min", "Min")):
    _t._define("h_reduce_" + _n, _axis0("h_reduce_" + _n, _op, getattr(_t.Tik, "h_reduce_" + _n)))
