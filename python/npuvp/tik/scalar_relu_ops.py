"""TIK instructions added in issue 24's third round: the scalar unit's scalar_sqrt,
scalar_countbit0/1 and scalar_countleading0, and the fused add/sub + ReLU of the older
generation (vaddrelu, vsubrelu).

Signatures follow Huawei's TIK API reference ("Scalar Computation": scalar_sqrt(dst, src),
scalar_countbit0/1(dst, src), scalar_countleading0(dst, src) on a uint64 source; "Vector
Computation": vaddrelu/vsubrelu(mask, dst, src0, src1, repeat_times, dst_blk_stride,
src0_blk_stride, src1_blk_stride, dst_rep_stride, src0_rep_stride, src1_rep_stride)).
"""
from .ir import Expr, Scalar, enc, fail, user_loc
from . import tik as _t


def _scalar_unary(api, op):
    def f(self, dst, src):
        if not isinstance(dst, Scalar):
            fail("dst must be a Scalar", api, user_loc())
        dst.set_as(Expr([op, enc(src)], dst.dtype))
    return f


_t._define("scalar_sqrt", _scalar_unary("scalar_sqrt", "sqrt"))
_t._define("scalar_countbit0", _scalar_unary("scalar_countbit0", "countbit0"))
_t._define("scalar_countbit1", _scalar_unary("scalar_countbit1", "countbit1"))
_t._define("scalar_countleading0", _scalar_unary("scalar_countleading0", "countleading0"))


# relu(src0 op src1): the vector unit rounds the sum to the operand type, then ReLU keeps it or
# gives 0 -- the same bits as one fused instruction, issued as two (Add/Sub, then Relu in place).
for _n, _op in (("addrelu", "Add"), ("subrelu", "Sub")):
    def _old(self, mask, dst, src0, src1, repeat_times, dst_blk_stride, src0_blk_stride, src1_blk_stride,
             dst_rep_stride, src0_rep_stride, src1_rep_stride, stride_unit=0, _api="v" + _n, _op=_op):
        self._binary(_api, _op, _t._FLOAT, mask, dst, src0, src1, repeat_times,
                     (dst_blk_stride, src0_blk_stride, src1_blk_stride),
                     (dst_rep_stride, src0_rep_stride, src1_rep_stride))
        self._unary(_api, "Relu", _t._FLOAT, mask, dst, dst, repeat_times, (dst_blk_stride, dst_blk_stride),
                    (dst_rep_stride, dst_rep_stride))
    _t._define("v" + _n, _old)
