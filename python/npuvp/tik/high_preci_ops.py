"""The *_high_preci vector instructions: vec_rec_high_preci, vec_rsqrt_high_preci,
vec_ln_high_preci and vec_expm1_high_preci (and their v* names), lowered to the ordinary vector
instructions with the intermediate results in the caller's work_tensor.

Signatures, dtypes and work-tensor sizes follow Huawei's TIK API reference
(https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/aicpuopapi/atlastikapi_07_0060.html
vec_rec_high_preci, _0062 vec_rsqrt_high_preci, _0058 vec_ln_high_preci, _0056
vec_expm1_high_preci): src_extent_size = (repeat_times - 1) * src_rep_stride * block_len +
mask_len (expm1: + 128, with 0 < src_rep_stride <= 8 counted as 8), rounded up to a whole
32-byte block (wk_size_unit), times a per-instruction factor.

The steps are npuvp's (the reference does not publish them): the work tensor mirrors src's
layout, one wk_size_unit per intermediate. float16 sources are widened to float32 (two Casts a
repeat, the low and high 64 elements), computed there and rounded once back to float16; float32
sources take one Newton step on the vector unit's estimate:
  rec:   x = 1/a;        e = x * ((-1 * (a * x)) + 1);          result x + e
  rsqrt: y = rsqrt(a);   e = y * ((-0.5 * ((y * y) * a)) + 0.5); result y + e
  ln:    ln of the widened input;
  expm1: x clamped to [-80, 80]; u = exp(x); (u - 1) * x / ln(u), or x where u == 1 (Kahan).
Each step is the vector instruction it names (Reciprocal, Mul, Muls, Adds, Add, Rsqrt, Ln, Exp,
Mins, Maxs, Div, CompareScalar, Select, Cast), so a numpy model of those steps reproduces the result bit for bit (docs/tik.md).
"""
from .ir import DTYPE_SIZE, Expr, Tensor, fail, user_loc
from . import tik as _t

# Work-tensor factors of wk_size_unit per source dtype (the reference pages above; rsqrt's are
# those of the training series and inference series AI Core, which npuvp's products are).
_FACTOR = {"rec": {"float16": 4, "float32": 2}, "rsqrt": {"float16": 5, "float32": 3},
           "ln": {"float16": 10}, "expm1": {"float16": 11}}
_WORK_DTYPE = {"rec": "float32", "rsqrt": "float32", "ln": "float16", "expm1": "float16"}


def _mask_len(mask, per):
    """The mask_len of the reference's work-size formula, or None for a run-time mask."""
    if isinstance(mask, (list, tuple)) and len(mask) == 2:
        hi, lo = mask
        if not (isinstance(hi, int) and isinstance(lo, int)):
            return None
        return 64 + hi.bit_length() if hi else lo.bit_length()
    if isinstance(mask, int):
        return mask
    return None


def _halves(mask, api, loc):
    """A float16 mask as the float32 masks of its low and high 64 elements (None: no element)."""
    if isinstance(mask, (list, tuple)) and len(mask) == 2 and all(isinstance(v, int) for v in mask):
        hi, lo = mask
        return [[0, lo] if lo else None, [0, hi] if hi else None]
    if isinstance(mask, int) and not isinstance(mask, bool):
        if not 1 <= mask <= 128:
            fail("mask %d out of range [1, 128] for float16" % mask, api, loc)
        return [min(mask, 64), mask - 64 if mask > 64 else None]
    fail("a float16 source needs an immediate mask (npuvp widens it to float32 in two halves)", api, loc)


def _at(t, elems, dtype=None):
    """A view of t's buffer `elems` elements of `dtype` (default t's) past t's start."""
    dtype = dtype or t.dtype
    boff = t.boff + elems * DTYPE_SIZE[dtype] if elems else t.boff
    left = (t.root_bytes - boff) // DTYPE_SIZE[dtype] if isinstance(boff, int) else t.size
    return t._view(boff, (max(left, 1),), dtype)


def _check(self, name, api, mask, dst, src, work, repeat, src_rep, loc):
    for what, x in (("dst", dst), ("src", src), ("work_tensor", work)):
        if not isinstance(x, Tensor):
            fail("%s must be a Tensor, not %r" % (what, x), api, loc)
        if x.scope != _t.scope_ubuf:
            fail("%s (tensor %s) must be in scope_ubuf, not %s" % (what, x.name, x.scope), api, loc)
    allowed = tuple(_FACTOR[name])
    dt = self._types(api, loc, allowed, dst, src)
    if work.dtype != _WORK_DTYPE[name]:
        fail("work_tensor %s is %s; it must be %s" % (work.name, work.dtype, _WORK_DTYPE[name]), api, loc)
    block = 32 // DTYPE_SIZE[dt]
    per = 256 // DTYPE_SIZE[dt]
    mlen = 128 if name == "expm1" else _mask_len(mask, per)
    stride = src_rep
    if name == "expm1" and isinstance(stride, int) and 0 < stride <= 8:
        stride = 8
    if not all(isinstance(v, int) and not isinstance(v, Expr) for v in (repeat, stride)) or mlen is None:
        return dt, stride, None  # run-time values: the model checks the operands' bounds when it runs
    extent = (repeat - 1) * stride * block + mlen
    unit = (extent + block - 1) // block * block
    if repeat > 1 and stride * block < mlen:
        fail("src_rep_stride %d: repeats overlap (%d elements apart, mask covers %d); npuvp refines in place "
             "in work_tensor, which mirrors src's layout, so repeats must not overlap" % (src_rep, stride * block, mlen),
             api, loc)
    need = _FACTOR[name][dt] * unit
    have = (work.root_bytes - work.boff) // DTYPE_SIZE[work.dtype] if isinstance(work.boff, int) else None
    if have is not None and have < need:
        fail("work_tensor %s holds %d %s elements from its start; this call needs %d (%d x wk_size_unit %d, "
             "src_extent_size %d)" % (work.name, have, work.dtype, need, _FACTOR[name][dt], unit, extent),
             api, loc)
    return dt, stride, unit


def _f32_pass(self, api, loc, parts, repeat, op, dst, srcs, rep, scalar=0):
    """One float32 vector instruction per part (elem offset, mask) on views moved by the offset."""
    for off, m in parts:
        d = _at(dst, off)
        s = tuple(_at(x, off) for x in srcs)
        self._vec(api, op, "float32", m, d, s, repeat, (1, 1, 1) if len(s) == 2 else (1, 1, 0),
                  rep if len(s) == 2 else (rep[0], rep[1], 0), scalar, loc=loc)


def _high_preci(name):
    def f(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride, src_rep_stride):
        loc = user_loc()
        api = "vec_%s_high_preci" % name
        dt, stride, unit = _check(self, name, api, mask, dst, src, work_tensor, repeat_times, src_rep_stride, loc)
        if unit is None:
            fail("npuvp needs immediate mask, repeat_times and src_rep_stride here (it places the work "
                 "tensor's units while recording)", api, loc)
        if dt == "float32":
            w = [_at(work_tensor, k * unit) for k in range(_FACTOR[name][dt])]
            parts = [(0, mask)]
            s = src_rep_stride
            r = (s, s, s)
            x = w[0]
            e = w[1]
            if name == "rec":
                _f32_pass(self, api, loc, parts, repeat_times, "Reciprocal", x, (src,), r)
                _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (src, x), r)
                _f32_pass(self, api, loc, parts, repeat_times, "Muls", e, (e,), r, -1.0)
                _f32_pass(self, api, loc, parts, repeat_times, "Adds", e, (e,), r, 1.0)
            else:
                _f32_pass(self, api, loc, parts, repeat_times, "Rsqrt", x, (src,), r)
                _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (x, x), r)
                _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, src), r)
                _f32_pass(self, api, loc, parts, repeat_times, "Muls", e, (e,), r, -0.5)
                _f32_pass(self, api, loc, parts, repeat_times, "Adds", e, (e,), r, 0.5)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, x), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Add", dst, (x, e), (dst_rep_stride, s, s))
            return
        # float16: widen into the work tensor (float32 copies at the same element positions).
        # The float32 copy of element i sits at float32 element i of a unit (a float16 work
        # tensor's unit holds half of it: two float16 units make one float32 unit).
        wf = _at(work_tensor, 0, "float32")
        w = [_at(wf, k * unit) for k in range(3)]
        halves = _halves(mask, api, loc)
        parts = [(off, m) for off, m in zip((0, 64), halves) if m is not None]
        ws = stride * 2  # the float32 copy's repeat stride, in 32-byte blocks
        for off, m in parts:  # f16 -> f32, exact
            self._vec(api, "Cast", "float16", m, _at(w[0], off), (_at(src, off),), repeat_times, (1, 1, 0),
                      (ws, stride, 0), extra={"ddt": "float32", "round": 0}, loc=loc)
        r = (ws, ws, ws)
        a, x, e = w
        if name == "rec":
            _f32_pass(self, api, loc, parts, repeat_times, "Reciprocal", x, (a,), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (a, x), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Muls", e, (e,), r, -1.0)
            _f32_pass(self, api, loc, parts, repeat_times, "Adds", e, (e,), r, 1.0)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, x), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Add", x, (x, e), r)
            res = x
        elif name == "rsqrt":
            _f32_pass(self, api, loc, parts, repeat_times, "Rsqrt", x, (a,), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (x, x), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, a), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Muls", e, (e,), r, -0.5)
            _f32_pass(self, api, loc, parts, repeat_times, "Adds", e, (e,), r, 0.5)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, x), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Add", x, (x, e), r)
            res = x
        elif name == "ln":
            _f32_pass(self, api, loc, parts, repeat_times, "Ln", a, (a,), r)
            res = a
        else:
            # expm1 by Kahan's identity, e^x - 1 = (u - 1) * x / ln(u) with u = e^x, which keeps
            # the relative accuracy for small |x| that u - 1 alone loses; u == 1 selects x itself.
            # x is clamped to [-80, 80] first (u stays finite and nonzero; the float16 result
            # saturates or is -1 there anyway).
            u, lg = w[1], _at(wf, 3 * unit)
            _f32_pass(self, api, loc, parts, repeat_times, "Mins", a, (a,), r, 80.0)
            _f32_pass(self, api, loc, parts, repeat_times, "Maxs", a, (a,), r, -80.0)
            _f32_pass(self, api, loc, parts, repeat_times, "Exp", u, (a,), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Adds", e, (u,), r, -1.0)
            _f32_pass(self, api, loc, parts, repeat_times, "Ln", lg, (u,), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Mul", e, (e, a), r)
            _f32_pass(self, api, loc, parts, repeat_times, "Div", e, (e, lg), r)
            # Compare writes 8 bytes of bits per repeat (64 float32 elements); one field per half,
            # after the four float32 units (eight of the eleven float16 units).
            field = (repeat_times * 8 + 31) // 32 * 32
            for k, (off, m) in enumerate(parts):
                bits = _at(work_tensor, 8 * unit + k * field // 2)
                self._vec(api, "CompareScalar", "float32", m, bits, (_at(u, off),), repeat_times, (1, 1, 0),
                          (0, ws, 0), 1.0, extra={"cmp": _t._CMP["eq"]}, loc=loc)
                self._vec(api, "Select", "float32", m, _at(e, off), (_at(a, off), _at(e, off), bits), repeat_times,
                          (1, 1, 1), r, extra={"sel": 2}, loc=loc)
            res = e
        for off, m in parts:  # f32 -> f16, rounded to nearest even
            self._vec(api, "Cast", "float32", m, _at(dst, off), (_at(res, off),), repeat_times, (1, 1, 0),
                      (dst_rep_stride, ws, 0), extra={"ddt": "float16", "round": 0}, loc=loc)
    return f


for _n in ("rec", "rsqrt", "ln", "expm1"):
    _t._define("vec_%s_high_preci" % _n, _high_preci(_n))
    _t._define("v%s_high_preci" % _n, _high_preci(_n))
