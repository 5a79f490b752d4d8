"""load3dv2 (issue 24, third round): img2col of an L1 feature map into L0A/L0B fractals,
addressed by the im2col matrix itself -- its first row (m_start_pt, an output position) and
column (k_start_pt, a position in C1 x KH x KW x C0 order) and the extent of each -- rather
than by one window and kernel position as load3dv1 is.

Signature as Huawei's TIK API reference gives it: load3dv2(dst, src, pad_list, l1_h, l1_w,
channel_size, k_extension, m_extension, k_start_pt, m_start_pt, stride_w, stride_h, filter_w,
filter_h, dilation_filter_w, dilation_filter_h, en_transpose=False, en_small_k=False,
pad_value=None). It is the model's LoadData3D with those fields, as conv2d and load3dv1 issue
it; the starts may be Scalars.
"""
from .ir import DTYPE_SIZE, Tensor, fail, user_loc
from . import tik as _t


def _load3dv2(self, dst, src, pad_list, l1_h, l1_w, channel_size, k_extension, m_extension, k_start_pt, m_start_pt,
              stride_w, stride_h, filter_w, filter_h, dilation_filter_w, dilation_filter_h, en_transpose=False,
              en_small_k=False, pad_value=None):
    loc = user_loc()
    api = "load3dv2"
    for what, t in (("dst", dst), ("src", src)):
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor" % what, api, loc)
    if src.scope != _t.scope_cbuf or dst.scope not in (_t.scope_ca, _t.scope_cb):
        fail("loads scope_cbuf into scope_ca/scope_cb (npuvp models no img2col into scope_ubuf), not %s -> %s"
             % (src.scope, dst.scope), api, loc)
    if src.dtype != dst.dtype or src.dtype not in ("float16", "int8", "uint8"):
        fail("dst and src must both be float16, int8 or uint8 (%s, %s)" % (dst.dtype, src.dtype), api, loc)
    if en_transpose or en_small_k:
        fail("en_transpose and en_small_k are not modelled by npuvp", api, loc)
    if len(pad_list) != 4:
        fail("pad_list is [left, right, top, bottom]", api, loc)
    c0 = 32 // DTYPE_SIZE[src.dtype]
    for v, what in ((l1_h, "l1_h"), (l1_w, "l1_w"), (channel_size, "channel_size"), (k_extension, "k_extension"),
                    (m_extension, "m_extension"), (filter_w, "filter_w"), (filter_h, "filter_h"),
                    (stride_w, "stride_w"), (stride_h, "stride_h"), (dilation_filter_w, "dilation_filter_w"),
                    (dilation_filter_h, "dilation_filter_h")):
        if not isinstance(v, int) or v < 1:
            fail("%s %r must be a positive immediate here" % (what, v), api, loc)
    if channel_size % c0 or k_extension % c0 or m_extension % 16:
        fail("channel_size %d and k_extension %d must be multiples of %d, m_extension %d of 16"
             % (channel_size, k_extension, c0, m_extension), api, loc)
    if channel_size * l1_h * l1_w > src.root_bytes // DTYPE_SIZE[src.dtype]:
        fail("the feature map [%d, %d, %d] is larger than src %s" % (channel_size, l1_h, l1_w, src.name), api, loc)
    _t._record_load3d(self, api, loc, dst, src, m_start_pt, k_start_pt, (l1_h, l1_w, channel_size), pad_list,
                      (stride_w, stride_h), (filter_w, filter_h), (dilation_filter_w, dilation_filter_h),
                      (m_extension, k_extension), pad_value)


_t._define("load3dv2", _load3dv2)
