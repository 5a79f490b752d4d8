"""TIK's values as the recorder sees them: expressions, Scalars and Tensor views.

Everything here only records: a Scalar is a slot the core's scalar unit holds at run time,
an expression is a JSON-able tree (docs/tik.md, "The program format"), a Tensor view is a
tensor id and a byte offset. Python numbers fold as Python numbers.
"""
import sys
import os

from .errors import TikError

_OUR_DIRS = (os.path.dirname(os.path.abspath(__file__)),
             os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tbe"),
             os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "te"),
             os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tikdb"))

DTYPE_SIZE = {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8,
              "uint64": 8, "float16": 2, "float32": 4, "bfloat16": 2, "bool": 1, "uint1": 1}
FLOATS = ("float16", "float32", "bfloat16")


_OURS = object()  # marks this package's code objects (the frames user_loc skips)
_LINES = {}       # code object -> _OURS, or {line: "file.py:line"} for an operator's code


def user_loc(depth=2):
    """file:line of the first caller outside this package (the operator's line). Each
    location string is made once and reused (an operator's loops record the same lines)."""
    f = sys._getframe(depth)
    while f is not None:
        lines = _LINES.get(f.f_code)
        if lines is None:
            code = f.f_code
            lines = _LINES[code] = _OURS if code.co_filename.startswith(_OUR_DIRS) else {
                -1: os.path.basename(code.co_filename)}
        if lines is not _OURS:
            line = f.f_lineno
            loc = lines.get(line)
            if loc is None:
                loc = lines[line] = "%s:%d" % (lines[-1], line)
            return loc
        f = f.f_back
    return "?:0"


def fail(rule, api=None, loc=None):
    loc = loc or user_loc(3)
    raise TikError("%s: %s%s" % (loc, (api + ": ") if api else "", rule))


def check_dtype(dtype, what="dtype"):
    if dtype not in DTYPE_SIZE:
        fail("%s '%s' is not a TIK dtype (%s)" % (what, dtype, ", ".join(sorted(DTYPE_SIZE))))
    return "uint8" if dtype in ("bool", "uint1") else dtype


def enc(v):
    """The JSON form of a value: numbers as they are, expressions and scalars as trees."""
    if isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, Expr):
        return v.j
    if isinstance(v, Tensor):
        return v.load_expr().j
    if hasattr(v, "item"):  # numpy scalars
        return v.item()
    fail("%r is not a number, Scalar or expression" % (v,))


def _dtype_of(v):
    if isinstance(v, Expr):
        return v.dtype
    if isinstance(v, float):
        return "float32"
    return "int32"


def _bin(op, a, b):
    da, db = _dtype_of(a), _dtype_of(b)
    dtype = da if da in FLOATS else db if db in FLOATS else da if isinstance(a, Expr) else db
    if op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
        dtype = "bool"
    return Expr([op, enc(a), enc(b)], dtype)


class Expr:
    """A value computed by the scalar unit at run time."""
    __slots__ = ("j", "dtype")

    def __init__(self, j, dtype="int32"):
        self.j = j
        self.dtype = dtype

    def __add__(self, o): return _bin("+", self, o)
    def __radd__(self, o): return _bin("+", o, self)
    def __sub__(self, o): return _bin("-", self, o)
    def __rsub__(self, o): return _bin("-", o, self)
    def __mul__(self, o): return _bin("*", self, o)
    def __rmul__(self, o): return _bin("*", o, self)
    def __truediv__(self, o): return _bin("/", self, o)
    def __rtruediv__(self, o): return _bin("/", o, self)
    def __floordiv__(self, o): return _bin("//", self, o)
    def __rfloordiv__(self, o): return _bin("//", o, self)
    def __mod__(self, o): return _bin("%", self, o)
    def __rmod__(self, o): return _bin("%", o, self)
    def __lt__(self, o): return _bin("<", self, o)
    def __le__(self, o): return _bin("<=", self, o)
    def __gt__(self, o): return _bin(">", self, o)
    def __ge__(self, o): return _bin(">=", self, o)
    def __eq__(self, o): return _bin("==", self, o)
    def __ne__(self, o): return _bin("!=", self, o)
    def __and__(self, o): return _bin("&", self, o)
    def __rand__(self, o): return _bin("&", o, self)
    def __or__(self, o): return _bin("|", self, o)
    def __ror__(self, o): return _bin("|", o, self)
    def __xor__(self, o): return _bin("^", self, o)
    def __lshift__(self, o): return _bin("<<", self, o)
    def __rshift__(self, o): return _bin(">>", self, o)
    def __neg__(self): return Expr(["neg", self.j], self.dtype)
    def __invert__(self): return Expr(["~", self.j], self.dtype)
    __hash__ = object.__hash__

    def __bool__(self):
        fail("a TIK Scalar or expression has no value while the program is recorded: use "
             "if_scope/for_range, not Python's if/while")

    def __index__(self):
        fail("a TIK Scalar or expression cannot be used where Python needs an integer now")


class Scalar(Expr):
    """tik_instance.Scalar(dtype, name, init_value): a register of the scalar unit."""
    __slots__ = ("tik", "sid", "name")

    def __init__(self, tik, dtype, name, sid):
        Expr.__init__(self, ["s", sid], dtype)
        self.tik = tik
        self.sid = sid
        self.name = name

    def set_as(self, value, dst_offset=None, src_offset=None):
        if isinstance(value, Tensor):
            if src_offset is not None:
                value = value[src_offset]
            value = value.load_expr()
        self.tik._emit({"k": "set", "s": self.sid, "v": enc(value), "loc": user_loc()})

    def __repr__(self):
        return "Scalar(%s, %s)" % (self.name, self.dtype)


def all_(*conds):
    """tik.all(c1, c2, ...): every condition holds."""
    out = conds[0]
    for c in conds[1:]:
        out = Expr(["&&", enc(out), enc(c)], "bool")
    return out


def any_(*conds):
    """tik.any(c1, c2, ...): some condition holds."""
    out = conds[0]
    for c in conds[1:]:
        out = Expr(["||", enc(out), enc(c)], "bool")
    return out


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


class Tensor:
    """A tensor or a view of one: tensor id, dtype, shape and byte offset (int or expression)."""
    __slots__ = ("tik", "tid", "dtype", "shape", "scope", "name", "boff", "root_bytes")

    def __init__(self, tik, tid, dtype, shape, scope, name, boff, root_bytes):
        self.tik = tik
        self.tid = tid
        self.dtype = dtype
        self.shape = tuple(shape)
        self.scope = scope
        self.name = name
        self.boff = boff
        self.root_bytes = root_bytes

    # ---- geometry ----
    @property
    def itemsize(self):
        return DTYPE_SIZE[self.dtype]

    @property
    def size(self):
        return _prod(self.shape)

    def _view(self, boff, shape, dtype=None):
        return Tensor(self.tik, self.tid, dtype or self.dtype, shape, self.scope, self.name, boff, self.root_bytes)

    def _offset_by(self, elems):
        """This view's byte offset moved by `elems` elements (ints fold, expressions record)."""
        if isinstance(elems, int) and isinstance(self.boff, int):
            return self.boff + elems * self.itemsize
        step = elems * self.itemsize if not isinstance(elems, int) else elems * self.itemsize
        if isinstance(self.boff, int) and self.boff == 0:
            return step
        return self.boff + step

    def __getitem__(self, idx):
        # The common case first: one integer into a 1-D tensor at a known offset.
        if (type(idx) is int and idx >= 0 and len(self.shape) == 1 and type(self.boff) is int
                and type(self.shape[0]) is int):
            if idx >= self.shape[0]:
                fail("index %d outside dimension 0 of size %d of tensor %s" % (idx, self.shape[0], self.name))
            return Tensor(self.tik, self.tid, self.dtype, (self.shape[0] - idx,), self.scope, self.name,
                          self.boff + idx * DTYPE_SIZE[self.dtype], self.root_bytes)
        if not isinstance(idx, tuple):
            return self._flat_index(idx)
        shape = self.shape if self.shape else (1,)
        if len(idx) > len(shape):
            fail("tensor %s has %d dimensions, indexed with %d" % (self.name, len(shape), len(idx)))
        inner = [_prod(shape[i + 1:]) for i in range(len(shape))]
        elems = 0
        out_shape = []
        for d, ix in enumerate(idx):
            if isinstance(ix, slice):
                if ix.step not in (None, 1):
                    fail("tensor slices take no step")
                start = 0 if ix.start is None else ix.start
                stop = shape[d] if ix.stop is None else ix.stop
                if isinstance(start, int) and isinstance(stop, int) and type(shape[d]) is int:
                    if start < 0 or stop > shape[d] or start > stop:
                        fail("slice [%d:%d] outside dimension %d of size %d of tensor %s" % (
                            start, stop, d, shape[d], self.name))
                    out_shape.append(stop - start)
                else:
                    out_shape.append(stop - start if isinstance(stop - start, int) else shape[d])
                elems = elems + start * inner[d] if not (isinstance(start, int) and start == 0) else elems
            else:
                if isinstance(ix, int) and type(shape[d]) is int and (ix < 0 or ix >= shape[d]):
                    fail("index %d outside dimension %d of size %d of tensor %s" % (ix, d, shape[d], self.name))
                elems = elems + ix * inner[d] if not (isinstance(ix, int) and ix == 0) else elems
        out_shape.extend(shape[len(idx):])
        return self._view(self._offset_by(elems), out_shape)

    def _flat_index(self, idx):
        """One index or slice addresses the tensor as 1-D, whatever its shape (TIK API reference,
        "Obtaining Partial Tensor Data": a multi-dimensional tensor is reshaped to 1-D; a
        negative immediate counts from the end)."""
        n = self.size
        if isinstance(idx, slice):
            if idx.step not in (None, 1):
                fail("tensor slices take no step")
            start = 0 if idx.start is None else idx.start
            stop = n if idx.stop is None else idx.stop
            if type(start) is int and start < 0:
                start += n
            if type(stop) is int and stop < 0:
                stop += n
            if type(start) is int and type(stop) is int and type(n) is int:
                if start < 0 or stop > n or start > stop:
                    fail("slice [%d:%d] outside the %d elements of tensor %s" % (start, stop, n, self.name))
                return self._view(self._offset_by(start), (stop - start,))
            width = stop - start
            return self._view(self._offset_by(start), (width if type(width) is int else n,))
        if (type(idx) is int or type(idx) is bool) and type(n) is not int:  # a Scalar-valued shape
            if idx < 0:
                fail("a negative index counts from the end: tensor %s's size is known at run time only" % self.name)
            return self._view(self._offset_by(int(idx)), (n - idx,))
        if type(idx) is int or type(idx) is bool:
            if idx < 0:
                idx += n
            if idx < 0 or idx >= n:
                fail("index %d outside the %d elements of tensor %s" % (idx, n, self.name))
            return self._view(self._offset_by(int(idx)), (n - idx,))
        if hasattr(idx, "item") and not isinstance(idx, Expr):  # a numpy integer
            return self._flat_index(int(idx))
        return self._view(self._offset_by(idx), ())

    def shifted(self, elems):
        """This start address moved by `elems` elements, bounded by the tensor, not the view
        (TIK operand lists name start addresses)."""
        boff = self._offset_by(elems)
        left = (self.root_bytes - boff) // self.itemsize if isinstance(boff, int) else self.size
        if isinstance(boff, int) and (boff < 0 or left <= 0):
            fail("element %d of tensor %s is outside it" % (boff // self.itemsize, self.name))
        return self._view(boff, (max(left, 1),))

    def __setitem__(self, idx, value):
        self[idx].set_as(value)

    def reshape(self, new_shape):
        new_shape = tuple(new_shape) if isinstance(new_shape, (list, tuple)) else (new_shape,)
        if _prod(new_shape) != self.size:
            fail("reshape of tensor %s from %s to %s changes its size" % (self.name, self.shape, new_shape))
        return self._view(self.boff, new_shape)

    def reinterpret_cast_to(self, dtype):
        dtype = check_dtype(dtype)
        nbytes = self.size * self.itemsize
        if nbytes % DTYPE_SIZE[dtype]:
            fail("tensor %s of %d bytes cannot be read as %s" % (self.name, nbytes, dtype))
        shape = list(self.shape) or [1]
        last = shape[-1] * self.itemsize
        if last % DTYPE_SIZE[dtype] == 0:
            shape[-1] = last // DTYPE_SIZE[dtype]
        else:
            shape = [nbytes // DTYPE_SIZE[dtype]]
        return self._view(self.boff, shape, dtype)

    # ---- as a value / an operand ----
    def j_view(self):
        return [self.tid, enc(self.boff)]

    def load_expr(self):
        return Expr(["ld", self.tid, enc(self.boff), self.dtype], self.dtype)

    def set_as(self, value, dst_offset=0, src_offset=None):
        """tensor[i].set_as(v): the scalar unit stores one element."""
        if isinstance(value, Tensor):
            if src_offset is not None:
                value = value[src_offset]
            value = value.load_expr()
        view = self if not dst_offset else self[dst_offset]
        self.tik._emit({"k": "st", "t": self.tid, "o": enc(view.boff), "dt": self.dtype, "v": enc(value),
                        "loc": user_loc()})

    # Tensor elements in scalar arithmetic read the element.
    def __add__(self, o): return self.load_expr() + o
    def __radd__(self, o): return o + self.load_expr()
    def __sub__(self, o): return self.load_expr() - o
    def __rsub__(self, o): return o - self.load_expr()
    def __mul__(self, o): return self.load_expr() * o
    def __rmul__(self, o): return o * self.load_expr()
    def __lt__(self, o): return self.load_expr() < o
    def __le__(self, o): return self.load_expr() <= o
    def __gt__(self, o): return self.load_expr() > o
    def __ge__(self, o): return self.load_expr() >= o
    __hash__ = object.__hash__

    def __repr__(self):
        return "Tensor(%s, %s, %s, %s)" % (self.name, self.dtype, self.shape, self.scope)
