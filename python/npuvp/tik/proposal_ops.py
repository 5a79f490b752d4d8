"""TIK's region-proposal instructions (issue 24, follow-up): vconcat, vextract, vrpsort16 and
vmrgsort4, as sort, top-k and NMS operators use them on Ascend910 and Ascend310P. Each is one
isa.h instruction (ProposalConcat, ProposalExtract, RpSort16, MrgSort4; docs/vector-isa.md §3.6).

A region proposal is 8 elements of the operands' dtype (16 B of float16, 32 B of float32):
[x1, y1, x2, y2, score, label, reserved, reserved]. Signatures follow the TIK API reference
("Vector Computation", region proposal instructions), facts cross-checked against Ascend C's
ProposalConcat.md, RpSort16.md and MrgSort4.md:
  vconcat(dst, src, repeat_times, mode_number)   16 src elements into field mode_number (0 x1,
                                                 1 y1, 2 x2, 3 y2, 4 score, 5 label) of 16
                                                 proposals per repeat; other fields kept
  vextract(dst, src, repeat_times, mode_number)  the inverse: 16 packed elements per repeat
  vrpsort16(dst, src, repeat_times)              16 proposals per repeat, by score, descending
  vmrgsort4(dst, src_list, element_lengths, if_exhausted_suspension, valid_bit, repeat_times)
                                                 up to 4 sorted queues merged, descending
Both sorts are stable: of equal scores the earlier proposal (earlier queue) comes first.
"""
from .ir import DTYPE_SIZE, Tensor, enc, fail, user_loc
from . import tik as _t

_PRODUCTS = ("Ascend910", "Ascend310P")  # the products with the proposal instructions


def _check(self, api, loc, *tensors):
    for what, t in tensors:
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor, not %r" % (what, t), api, loc)
    product = self._spec["product"]
    if product not in _PRODUCTS:
        fail("region-proposal instructions exist on %s only; this is %s" % (" and ".join(_PRODUCTS), product),
             api, loc)
    dt = self._types(api, loc, _t._FLOAT, *(t for _, t in tensors))
    if dt == "float32" and product != "Ascend310P":
        fail("float32 proposals need Ascend310P (%s sorts float16 only)" % product, api, loc)
    return dt


def _mode(mode_number, api, loc):
    if not isinstance(mode_number, int) or isinstance(mode_number, bool):
        fail("mode_number must be an immediate int in [0, 5], not %r" % (mode_number,), api, loc)
    if not 0 <= mode_number <= 5:
        fail("mode_number %d out of range [0, 5] (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label)" % mode_number,
             api, loc)
    return mode_number


def _vconcat(self, dst, src, repeat_times, mode_number):
    api, loc = "vconcat", user_loc()
    dt = _check(self, api, loc, ("dst", dst), ("src", src))
    self._vec(api, "ProposalConcat", dt, None, dst, (src,), repeat_times, (1, 1, 0), (8, 8, 0),
              extra={"field": _mode(mode_number, api, loc)}, loc=loc)


def _vextract(self, dst, src, repeat_times, mode_number):
    api, loc = "vextract", user_loc()
    dt = _check(self, api, loc, ("dst", dst), ("src", src))
    self._vec(api, "ProposalExtract", dt, None, dst, (src,), repeat_times, (1, 1, 0), (8, 8, 0),
              extra={"field": _mode(mode_number, api, loc)}, loc=loc)


def _vrpsort16(self, dst, src, repeat_times):
    api, loc = "vrpsort16", user_loc()
    dt = _check(self, api, loc, ("dst", dst), ("src", src))
    self._vec(api, "RpSort16", dt, None, dst, (src,), repeat_times, (1, 1, 0), (8, 8, 0), loc=loc)


def _vmrgsort4(self, dst, src_list, element_lengths, if_exhausted_suspension, valid_bit, repeat_times):
    api, loc = "vmrgsort4", user_loc()
    if not isinstance(src_list, (list, tuple)) or not 2 <= len(src_list) <= 4:
        fail("src_list must be a list of 2 to 4 proposal tensors", api, loc)
    queues = list(src_list)
    dt = _check(self, api, loc, ("dst", dst), *(("src_list[%d]" % i, q) for i, q in enumerate(queues)))
    if isinstance(valid_bit, str):  # "0011", "0b0111" and the like
        try:
            valid_bit = int(valid_bit[2:] if valid_bit.lower().startswith("0b") else valid_bit, 2)
        except ValueError:
            fail("valid_bit %r is not a binary string" % (valid_bit,), api, loc)
    if valid_bit not in (3, 7, 15):
        fail("valid_bit %r must be 3, 7 or 15 (the first 2, 3 or 4 queues valid); npuvp takes it as an "
             "immediate" % (valid_bit,), api, loc)
    nvalid = {3: 2, 7: 3, 15: 4}[valid_bit]
    if len(queues) < nvalid:
        fail("valid_bit %d needs %d queues in src_list, it has %d" % (valid_bit, nvalid, len(queues)), api, loc)
    lengths = list(element_lengths) if isinstance(element_lengths, (list, tuple)) else [element_lengths] * 4
    for i, n in enumerate(lengths[:nvalid]):
        if not isinstance(n, int) or isinstance(n, bool):
            fail("element_lengths[%d] must be an immediate int (npuvp does not take a Scalar here), not %r"
                 % (i, n), api, loc)
        if not 0 <= n <= 4095:
            fail("element_lengths[%d] %d out of range [0, 4095]" % (i, n), api, loc)
    if len(lengths) < nvalid:
        fail("element_lengths has %d entries, valid_bit %d needs %d" % (len(lengths), valid_bit, nvalid), api, loc)
    lengths = (lengths[:nvalid] + [0] * 4)[:4]
    if not isinstance(repeat_times, int) or not 1 <= repeat_times <= 255:
        fail("repeat_times %r must be an immediate int in [1, 255]" % (repeat_times,), api, loc)
    stop = bool(if_exhausted_suspension)
    # Queues and dst are aligned to one proposal (MrgSort4.md: 16 B for half, 32 B for float).
    rp = 8 * DTYPE_SIZE[dt]
    views = [self._operand(q, "src_list[%d]" % i, api, rp, loc) for i, q in enumerate(queues[:nvalid])]
    views += [[None, None]] * (4 - len(views))
    td, od = self._operand(dst, "dst", api, rp, loc)
    packed = lengths[0] | lengths[1] << 16 | lengths[2] << 32 | lengths[3] << 48
    packed = packed - 2 ** 64 if packed >= 2 ** 63 else packed  # JSON's signed integers
    extra = {"sort": [packed, valid_bit | int(stop) << 8]}
    if views[3][0] is not None:
        extra["q3"] = views[3]
    (t0, o0), (t1, o1), (t2, o2) = views[0], views[1], views[2]
    mask_hi = 0 if DTYPE_SIZE[dt] == 4 else -1
    self._cur.append(("v", api, loc, "MrgSort4", dt, "b", mask_hi, -1, td, od, t0, o0, t1, o1, t2, o2,
                      repeat_times, 1, 1, 0, 8, 8, 0, 0, extra))
    self._last_if = None
    self._instructions += 1


_t._define("vconcat", _vconcat)
_t._define("vextract", _vextract)
_t._define("vrpsort16", _vrpsort16)
_t._define("vmrgsort4", _vmrgsort4)
