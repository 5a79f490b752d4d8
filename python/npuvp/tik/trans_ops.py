"""vnchwconv / vec_trans_scatter for every element width (issue 24, third round).

One repeat takes 16 source blocks (32 B each, one address per block) and writes 16
destination blocks, as Ascend C's TransDataTo5HD documents the three widths
(asc-devkit docs/api/context/TransDataTo5HD.md, "单次repeat内转换规则"):

* 16-bit: destination block i, element j = source block j, element i (a 16 x 16 transpose);
* 32-bit: destination blocks 2k and 2k+1 hold element k of source blocks 0..7 and 8..15;
* 8-bit: destination block i gets, in its low or high 16 bytes (dst_high_half), byte i of the
  low or high half (src_high_half) of each of the 16 source blocks; its other half is kept.

Every form lowers to the isa.h instructions the rest of the front end uses: the 16 source
blocks are gathered into one UB matrix by 32-byte UB -> UB moves, rearranged by the vector
unit, and the result blocks scattered by moves. 16-bit: one Transpose (tik.py). 32-bit: one
Gather whose byte offsets are written once per call by the scalar unit. 8-bit: the bytes are
widened to float16 (exact), transposed, and narrowed back into the gathered destination
blocks under a mask, so the untouched halves keep their bytes.
"""
from .ir import DTYPE_SIZE, Tensor, fail, user_loc
from . import tik as _t

_B16 = ("float16", "int16", "uint16")
_B32 = ("float32", "int32", "uint32")
_B8 = ("int8", "uint8")


def _check(self, api, dst_list, src_list, repeat_times, dst_rep_stride, src_rep_stride, loc):
    if len(dst_list) != 16 or len(src_list) != 16:
        fail("dst_list and src_list hold 16 tensors each", api, loc)
    for t in list(dst_list) + list(src_list):
        if not isinstance(t, Tensor):
            fail("dst_list and src_list hold Tensors, not %r" % (t,), api, loc)
    dt = self._types(api, loc, _B16 + _B32 + _B8, *(list(dst_list) + list(src_list)))
    if not isinstance(repeat_times, int) or not 1 <= repeat_times <= 255:
        fail("repeat_times %r must be an immediate in [1, 255] here" % (repeat_times,), api, loc)
    for v, what in ((dst_rep_stride, "dst_rep_stride"), (src_rep_stride, "src_rep_stride")):
        if not isinstance(v, int) or not 0 <= v <= 65535:
            fail("%s %r must be an immediate in [0, 65535] here" % (what, v), api, loc)
    for t in list(dst_list) + list(src_list):
        self._operand(t, "operand", api, 32, loc)
    return dt


def _gather_blocks(self, api, mat, blocks, r, rep_stride, loc):
    """mat's block j = blocks[j] moved on by r repeats of rep_stride blocks."""
    per = 32 // DTYPE_SIZE[mat.dtype]
    for j, s in enumerate(blocks):
        self._move(api, mat[j * per], s.shifted(r * rep_stride * 32 // DTYPE_SIZE[s.dtype]), 1, 1, 0, 0, loc)


def _scatter_blocks(self, api, blocks, mat, r, rep_stride, loc):
    per = 32 // DTYPE_SIZE[mat.dtype]
    for i, d in enumerate(blocks):
        self._move(api, d.shifted(r * rep_stride * 32 // DTYPE_SIZE[d.dtype]), mat[i * per], 1, 1, 0, 0, loc)


def _trans_b32(self, api, dt, dst_list, src_list, repeat_times, dst_rep_stride, src_rep_stride, loc):
    with self._scope(self._cur):
        a = self.Tensor(dt, (128,), _t.scope_ubuf, api + "_in")
        b = self.Tensor(dt, (128,), _t.scope_ubuf, api + "_out")
        offsets = self.Tensor("uint32", (128,), _t.scope_ubuf, api + "_offsets")
        # Result element p = 8 d + l, d = 2 k + h: element k of source block 8 h + l.
        for p in range(128):
            d, l = divmod(p, 8)
            k, h = divmod(d, 2)
            offsets[p].set_as((8 * h + l) * 32 + k * 4)
        for r in range(repeat_times):
            _gather_blocks(self, api, a, src_list, r, src_rep_stride, loc)
            self._vec(api, "Gather", dt, 64, b, (a, offsets), 2, (1, 1, 1), (8, 8, 8), loc=loc)
            _scatter_blocks(self, api, dst_list, b, r, dst_rep_stride, loc)


def _trans_b8(self, api, dt, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride,
              src_rep_stride, loc):
    sh, dh = (1 if src_high_half else 0), (1 if dst_high_half else 0)
    with self._scope(self._cur):
        a8 = self.Tensor(dt, (512,), _t.scope_ubuf, api + "_in")             # 16 source blocks
        a16 = self.Tensor("float16", (512,), _t.scope_ubuf, api + "_wide")   # the same, widened
        m16 = self.Tensor("float16", (256,), _t.scope_ubuf, api + "_half")   # the chosen halves
        t16 = self.Tensor("float16", (256,), _t.scope_ubuf, api + "_trans")
        w16 = self.Tensor("float16", (512,), _t.scope_ubuf, api + "_rows")   # rows of 32, 16 used
        d8 = self.Tensor(dt, (512,), _t.scope_ubuf, api + "_dst")            # 16 destination blocks
        half_mask = [0, 0xFFFF << (16 * dh)]
        for r in range(repeat_times):
            _gather_blocks(self, api, a8, src_list, r, src_rep_stride, loc)
            self._vec(api, "Cast", dt, 128, a16, (a8,), 4, (1, 1, 0), (8, 4, 0),
                      extra={"ddt": "float16", "round": 0}, loc=loc)
            self._move(api, m16, a16[16 * sh], 16, 1, 1, 0, loc)     # row j: byte 16 sh.. of block j
            self._vec(api, "Transpose", "float16", None, t16, (m16,), 1, (1, 1, 0), (8, 8, 0), loc=loc)
            self._move(api, w16[16 * dh], t16, 16, 1, 0, 1, loc)     # row i at half dh of a 32-row
            _gather_blocks(self, api, d8, dst_list, r, dst_rep_stride, loc)
            self._vec(api, "Cast", "float16", half_mask, d8, (w16,), 16, (1, 1, 0), (1, 2, 0),
                      extra={"ddt": dt, "round": 0}, loc=loc)
            _scatter_blocks(self, api, dst_list, d8, r, dst_rep_stride, loc)


def _trans_scatter(self, api, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride,
                   src_rep_stride):
    loc = user_loc(3)
    dt = _check(self, api, dst_list, src_list, repeat_times, dst_rep_stride, src_rep_stride, loc)
    if dt in _B16:
        _t._trans_scatter(self, api, dst_high_half, src_high_half, dst_list, src_list, repeat_times,
                          dst_rep_stride, src_rep_stride)
    elif dt in _B32:
        _trans_b32(self, api, dt, dst_list, src_list, repeat_times, dst_rep_stride, src_rep_stride, loc)
    else:
        _trans_b8(self, api, dt, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride,
                  src_rep_stride, loc)


def _vnchwconv(self, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride, src_rep_stride,
               name=None):
    _trans_scatter(self, "vnchwconv", dst_high_half, src_high_half, dst_list, src_list, repeat_times,
                   dst_rep_stride, src_rep_stride)


def _vec_trans_scatter(self, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride,
                       src_rep_stride):
    _trans_scatter(self, "vec_trans_scatter", dst_high_half, src_high_half, dst_list, src_list, repeat_times,
                   dst_rep_stride, src_rep_stride)


_t._define("vnchwconv", _vnchwconv)
_t._define("vec_trans_scatter", _vec_trans_scatter)
