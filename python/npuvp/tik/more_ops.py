"""TIK instructions added for issue 24's second round: the fused multiply-adds (vmla, vmadd,
vmaddrelu in both naming generations), data_move_pad, and the tensor-level compare/select
(h_cmpv, h_sel). Each lowers to the same isa.h instructions as the rest of tik.py.

Signatures follow Huawei's TIK API reference (CANN "TIK API" pages: vec_mla/vec_madd/
vec_maddrelu and vmla/vmadd/vmaddrelu, data_move_pad, h_cmpv, h_sel).
"""
from contextlib import contextmanager

import numpy as np

from .ir import DTYPE_SIZE, Scalar, Tensor, enc, fail, user_loc
from . import tik as _t

# ---- fused multiply-adds: (name, VecOp, what it computes) ----
# vmla:      dst = src0 * src1 + dst
# vmadd:     dst = src0 * dst + src1
# vmaddrelu: dst = relu(src0 * dst + src1)
# The vector unit rounds the product and the sum each in float (f16: once more to half), as
# it does for Axpy (docs/vector-isa.md); the reference states no finer rule.
_FUSED = {"mla": "MulAddDst", "madd": "FusedMulAdd", "maddrelu": "FusedMulAddRelu"}


def _fused(self, api, op, mask, dst, src0, src1, repeat, blk, rep):
    loc = user_loc(3)
    for what, t in (("dst", dst), ("src0", src0), ("src1", src1)):
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor, not %r" % (what, t), api, loc)
    dt = self._types(api, loc, _t._FLOAT, dst, src0, src1)
    self._vec(api, op, dt, mask, dst, (src0, src1), repeat, blk, rep, loc=loc)


for _n, _op in _FUSED.items():
    def _new(self, mask, dst, src0, src1, repeat_times, dst_rep_stride, src0_rep_stride, src1_rep_stride,
             _api="vec_" + _n, _op=_op):
        _fused(self, _api, _op, mask, dst, src0, src1, repeat_times, (1, 1, 1),
               (dst_rep_stride, src0_rep_stride, src1_rep_stride))

    def _old(self, mask, dst, src0, src1, repeat_times, dst_blk_stride, src0_blk_stride, src1_blk_stride,
             dst_rep_stride, src0_rep_stride, src1_rep_stride, stride_unit=0, _api="v" + _n, _op=_op):
        _fused(self, _api, _op, mask, dst, src0, src1, repeat_times,
               (dst_blk_stride, src0_blk_stride, src1_blk_stride),
               (dst_rep_stride, src0_rep_stride, src1_rep_stride))
    _t._define("vec_" + _n, _new)
    _t._define("v" + _n, _old)


# ---- data_move_pad: GM <-> UB at byte granularity (products with DataCopyPad) ----
def _data_move_pad(self, dst, src, nburst, burst, dst_gap, src_gap, right_padding=0, left_padding=0,
                   padding_value=None):
    """burst counts bytes; the gap on the GM side counts bytes, on the UB side 32-byte blocks.
    GM -> UB starts every burst 32-byte aligned in UB, after left_padding elements and before
    right_padding elements of padding_value (then up to the next 32 bytes)."""
    loc = user_loc()
    api = "data_move_pad"
    for what, t in (("dst", dst), ("src", src)):
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor, not %r" % (what, t), api, loc)
    product = self._spec["product"]
    paths = {(_t.scope_gm, _t.scope_ubuf), (_t.scope_ubuf, _t.scope_gm)}
    if product != "Ascend910B":
        fail("%s has no data_move_pad (Ascend910B has; tbe_platform.api_check_support(\"tik.data_move_pad\") "
             "says so)" % product, api, loc)
    if (src.scope, dst.scope) not in paths:
        fail("moves %s -> %s; it moves scope_gm <-> scope_ubuf" % (src.scope, dst.scope), api, loc)
    if DTYPE_SIZE[src.dtype] != DTYPE_SIZE[dst.dtype]:
        fail("dtypes differ in size: %s is %s, %s is %s" % (dst.name, dst.dtype, src.name, src.dtype), api, loc)
    esize = DTYPE_SIZE[dst.dtype]
    for v, what in ((left_padding, "left_padding"), (right_padding, "right_padding")):
        if not isinstance(v, int) or v < 0 or v * esize > 32:
            fail("%s %r must be an immediate number of elements filling at most 32 bytes" % (what, v), api, loc)
    if src.scope == _t.scope_ubuf and (left_padding or right_padding):
        fail("UB -> GM takes no padding", api, loc)
    if isinstance(nburst, int) and not 1 <= nburst <= 4095:
        fail("nburst %d out of range [1, 4095]" % nburst, api, loc)
    if isinstance(burst, int) and (burst < 1 or burst % esize):
        fail("burst %d bytes is not a positive whole number of %d-byte %s elements" % (burst, esize, dst.dtype),
             api, loc)
    bits = 0
    if padding_value is not None:
        if not isinstance(padding_value, (int, float)):
            fail("padding_value must be an immediate number", api, loc)
        arr = np.array([padding_value]).astype(dst.dtype if dst.dtype in ("float16", "float32") else
                                               dst.dtype.replace("bfloat16", "float32"))
        bits = int(arr.view("u%d" % esize)[0])
    self._cur.append({"kind": "move", "api": api, "dst": dst.j_view(), "src": src.j_view(), "dt": dst.dtype,
                      "unit": 1, "pad": [left_padding * esize, right_padding * esize, bits],
                      "p": [enc(nburst), enc(burst), enc(src_gap), enc(dst_gap)], "k": "i", "loc": loc})
    self._last_if = None
    self._instructions += 1


_t._define("data_move_pad", _data_move_pad)


# ---- h_cmpv / h_sel: whole tensors, the comparison's bits in a bool tensor ----
_CMP_NAMES = {"LT": "lt", "GT": "gt", "EQ": "eq", "LE": "le", "GE": "ge", "NE": "ne"}


def _bits_of(mask_tensor, api, loc):
    if not isinstance(mask_tensor, Tensor) or mask_tensor.scope != _t.scope_ubuf \
            or DTYPE_SIZE[mask_tensor.dtype] != 1:
        fail("mask_tensor must be a bool (or uint8) tensor in scope_ubuf", api, loc)
    return mask_tensor


@contextmanager
def _aligned_bits(self, flat_bits, elem, count, read):
    """The bits of elements [elem, elem + count) of a bool tensor as a 32-byte aligned operand:
    the tensor itself when they start aligned, else a scratch tensor, filled from the bits
    first (read) or copied back into them after (write)."""
    byte = elem // 8
    view = flat_bits[byte]
    if isinstance(view.boff, int) and view.boff % 32 == 0:
        yield view
        return
    nbytes = (count + 7) // 8
    with self._scope(self._cur):
        tmp = self.Tensor("uint8", ((nbytes + 31) // 32 * 32,), _t.scope_ubuf, "h_bits")
        if read:
            for b in range(nbytes):
                tmp[b].set_as(flat_bits[byte + b])
        yield tmp
        if not read:
            for b in range(nbytes):
                if byte + b < flat_bits.size:
                    flat_bits[byte + b].set_as(tmp[b])


def _h_cmpv(self, dst, src0, src1, cmp_mode):
    """dst (bool) bit i = src0[i] cmp_mode src1[i] (src1 a tensor or a scalar); one bit per
    element, packed 8 to a byte, as vcmpv writes them."""
    loc = user_loc()
    api = "h_cmpv"
    mode = _CMP_NAMES.get(str(cmp_mode).upper())
    if mode is None:
        fail("cmp_mode %r is not one of %s" % (cmp_mode, ", ".join(_CMP_NAMES)), api, loc)
    _bits_of(dst, api, loc)
    if not isinstance(src0, Tensor):
        fail("src0 must be a Tensor", api, loc)
    tensors = [src0] + ([src1] if isinstance(src1, Tensor) else [])
    dt = self._types(api, loc, _t._FLOAT, *tensors)
    n = src0.size
    if isinstance(src1, Tensor) and src1.size != n:
        fail("shapes differ: %s has %d elements, %s has %d" % (src0.name, n, src1.name, src1.size), api, loc)
    if dst.size * 8 < n:
        fail("mask_tensor %s holds %d bits, %d are needed" % (dst.name, dst.size * 8, n), api, loc)
    per = 256 // DTYPE_SIZE[dt]
    f0, fd = _t._flat(src0), _t._flat(dst)
    f1 = _t._flat(src1) if isinstance(src1, Tensor) else None
    # A tail repeat compares its first elements; the bits of the others are written 0. Bits
    # that do not start 32-byte aligned are written to an aligned scratch first, then copied
    # byte by byte by the scalar unit.
    for off, mask, rep in _t._h_spans(n, per):
        with _aligned_bits(self, fd, off, rep * per, False) as bits:
            if f1 is not None:
                self._vec(api, "Compare", dt, mask, bits, (f0[off], f1[off]), rep, (1, 1, 1), (0, 8, 8),
                          extra={"cmp": _t._CMP[mode]}, loc=loc)
            else:
                self._vec(api, "CompareScalar", dt, mask, bits, (f0[off],), rep, (1, 1, 0), (0, 8, 0), src1,
                          extra={"cmp": _t._CMP[mode]}, loc=loc)


def _h_sel(self, dst, src0, src1, mask_tensor):
    """dst[i] = bit i of mask_tensor ? src0[i] : src1[i]; src1 may be a scalar."""
    loc = user_loc()
    api = "h_sel"
    _bits_of(mask_tensor, api, loc)
    if not isinstance(src0, Tensor) or not isinstance(dst, Tensor):
        fail("dst and src0 must be Tensors", api, loc)
    tensors = [dst, src0] + ([src1] if isinstance(src1, Tensor) else [])
    dt = self._types(api, loc, _t._FLOAT, *tensors)
    n = dst.size
    for t in tensors[1:]:
        if t.size != n:
            fail("shapes differ: %s has %d elements, %s has %d" % (dst.name, n, t.name, t.size), api, loc)
    per = 256 // DTYPE_SIZE[dt]
    if mask_tensor.size * 8 < n:
        fail("mask_tensor %s holds %d bits, %d are needed" % (mask_tensor.name, mask_tensor.size * 8, n), api, loc)
    fd, f0, fm = _t._flat(dst), _t._flat(src0), _t._flat(mask_tensor)
    f1 = _t._flat(src1) if isinstance(src1, Tensor) else None
    for off, mask, rep in _t._h_spans(n, per):
        with _aligned_bits(self, fm, off, rep * per, True) as bits:
            if f1 is not None:
                self._vec(api, "Select", dt, mask, fd[off], (f0[off], f1[off], bits), rep, (1, 1, 1), (8, 8, 8),
                          extra={"sel": 2}, loc=loc)
            else:
                self._vec(api, "Select", dt, mask, fd[off], (f0[off], None, bits), rep, (1, 1, 1), (8, 8, 8),
                          scalar=src1, extra={"sel": 1}, loc=loc)


_t._define("h_cmpv", _h_cmpv)
_t._define("h_sel", _h_sel)


# ---- h_reduce_sum / h_reduce_max / h_reduce_min: a whole tensor, or each row of a 2-D one ----
def _reduce_run(self, api, op, dt, dst_elem, src_flat, off, n, loc):
    """dst_elem = op over src_flat[off:off + n]: whole repeats in one instruction, a tail in a
    second, the two partial results combined by a third."""
    per = 256 // DTYPE_SIZE[dt]
    full, rem = divmod(n, per)
    if full > 4095:
        fail("%d elements are more than one reduction instruction takes (4095 repeats of %d)" % (n, per), api, loc)

    def one(dst, src, mask, rep):
        self._vec(api, op, dt, mask, dst, (src,), rep, (1, 1, 0), (0, 8, 0), extra={"order": 2},
                  dst_align=DTYPE_SIZE[dt], loc=loc, repeat_limit=4095)
    if full == 0 or rem == 0:
        one(dst_elem, src_flat[off], per if full else rem, full or 1)
        return
    with self._scope(self._cur):
        part = self.Tensor(dt, (per,), _t.scope_ubuf, api + "_part")
        one(part[0], src_flat[off], per, full)
        one(part[1], src_flat[off + full * per], rem, 1)
        one(dst_elem, part, 2, 1)


def _h_reduce(api, op):
    def f(self, dst, src, axis=None, keep_dims=False):
        loc = user_loc()
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor) or t.scope != _t.scope_ubuf:
                fail("%s must be a Tensor in scope_ubuf" % what, api, loc)
        dt = self._types(api, loc, _t._FLOAT, dst, src)
        shape = src.shape or (1,)
        axes = None if axis is None else (list(axis) if isinstance(axis, (list, tuple)) else [axis])
        if axes is not None:
            axes = [a + len(shape) if a < 0 else a for a in axes]
        if axes is None or sorted(axes) == list(range(len(shape))):
            _reduce_run(self, api, op, dt, _t._flat(dst)[0], _t._flat(src), 0, src.size, loc)
            return
        if axes != [len(shape) - 1]:
            fail("axis %r: npuvp reduces the whole tensor or its last axis" % (axis,), api, loc)
        n = shape[-1]
        rows = src.size // n
        if dst.size < rows:
            fail("dst %s has %d elements, %d rows are reduced" % (dst.name, dst.size, rows), api, loc)
        if rows > 1 and (n * DTYPE_SIZE[dt]) % 32:
            fail("rows of %d %s elements do not start 32-byte aligned (vector operands must)" % (n, dt), api, loc)
        fs, fd = _t._flat(src), _t._flat(dst)
        for r in range(rows):
            _reduce_run(self, api, op, dt, fd[r], fs, r * n, n, loc)
    return f


for _n, _op in (("sum", "ReduceSum"), ("max", "ReduceMax"), ("min", "ReduceMin")):
    _t._define("h_reduce_" + _n, _h_reduce("h_reduce_" + _n, _op))


# ---- vreduce: the src0 elements a pattern selects, packed from dst on (GatherMask) ----
def _vreduce(self, mask, dst, src0, src1_pattern, repeat_times, src0_blk_stride, src0_rep_stride, src1_rep_stride,
             stride_unit=0, rsvd_scalar=None, mask_mode="normal"):
    """src1_pattern: a built-in pattern 1..6 (1 even elements, 2 odd, 3..6 element 0..3 of every
    four) or a uint16/uint32 tensor of selection bits, src1_rep_stride blocks per repeat.
    rsvd_scalar: a Scalar that receives the number of elements kept (the scalar unit waits for
    the instruction). mask_mode "counter": mask elements in every repeat (which then spans
    ceil(mask / elements per 256 B) blocks of 256 B), as the vector unit's GatherMask counts in
    counter mode (docs/vector-isa.md); the TIK reference's general
    definition has Ascend910 take counter mode as normal mode, and npuvp does the same."""
    loc = user_loc()
    api = "vreduce"
    dt = self._types(api, loc, ("float16", "float32", "int16", "uint16", "int32", "uint32"), dst, src0)
    per = 256 // DTYPE_SIZE[dt]
    if rsvd_scalar is not None and not isinstance(rsvd_scalar, Scalar):
        fail("rsvd_scalar must be a Scalar (it receives the number of elements kept), not %r" % (rsvd_scalar,),
             api, loc)
    if rsvd_scalar is not None and not rsvd_scalar.dtype.startswith(("int", "uint")):
        fail("rsvd_scalar %s must be an integer Scalar, not %s" % (rsvd_scalar.name, rsvd_scalar.dtype), api, loc)
    if mask_mode not in ("normal", "counter"):
        fail("mask_mode %r is not 'normal' or 'counter'" % (mask_mode,), api, loc)
    if mask_mode == "counter" and self._spec["product"] == "Ascend910":
        mask_mode, mask = "normal", per  # the reference: Ascend910 processes counter mode as normal mode
    if mask_mode == "counter":
        if isinstance(mask, int) and not 1 <= mask <= 2 ** 32 - 1:
            fail("counter-mode mask %d out of range [1, 2**32-1] (elements of each repeat)" % mask, api, loc)
    elif mask != per:
        fail("in normal mode npuvp's vreduce takes whole repeats: mask %d (got %r); use mask_mode='counter' "
             "for fewer elements per repeat" % (per, mask), api, loc)
    if isinstance(src1_pattern, Tensor):
        want = "uint16" if DTYPE_SIZE[dt] == 2 else "uint32"
        if src1_pattern.dtype != want:
            fail("src1_pattern %s must be a %s tensor for %s" % (src1_pattern.name, want, dt), api, loc)
        srcs, pattern = (src0, src1_pattern), 0
    elif isinstance(src1_pattern, int) and 1 <= src1_pattern <= 6:
        srcs, pattern = (src0,), src1_pattern
    else:
        fail("src1_pattern %r is not 1..6 or a pattern tensor" % (src1_pattern,), api, loc)
    extra = {"pattern": pattern}
    if rsvd_scalar is not None:
        extra["rsvd"] = rsvd_scalar.sid
    self._vec(api, "GatherMask", dt, mask, dst, srcs, repeat_times, (1, src0_blk_stride, 0),
              (8, src0_rep_stride, src1_rep_stride), extra=extra, mask_mode=mask_mode, loc=loc)


def _vreducev2(self, *args, **kwargs):
    fail("vreducev2 is a CCE intrinsic, not an instruction of the TIK API; TIK's form is vreduce(mask, dst, src0, "
         "src1_pattern, repeat_times, src0_blk_stride, src0_rep_stride, src1_rep_stride, rsvd_scalar=..., "
         "mask_mode=...)", "vreducev2", user_loc())


def _no_sort(name):
    def f(self, *args, **kwargs):
        fail("not an instruction npuvp models for %s: the TIK API reference npuvp follows documents no TIK sort "
             "for Ascend910B (Ascend C's Sort32/MrgSort are there); on Ascend910 and Ascend310P sort region "
             "proposals with vrpsort16 and vmrgsort4" % self._spec["product"], name, user_loc())
    return f


_t._define("vreducev2", _vreducev2)
for _n in ("vbitsort", "vec_sort", "vsort32", "vmrgsort"):
    _t._define(_n, _no_sort(_n))
_t._define("vreduce", _vreduce)
