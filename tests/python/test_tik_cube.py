"""The cube path: GM -> L1 in fractal layouts, load2dv1 to L0A/L0B, mmad into L0C, out through UB
(Ascend910); matmul with init_l1out and fixpipe to GM (Ascend910B). References: the Mmad
contract, products summed in increasing k order in float32."""
import numpy as np
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info


def mmad_ref(a, b, acc=None):
    m, k = a.shape
    c = np.zeros((m, b.shape[1]), np.float32) if acc is None else acc.copy()
    for kk in range(k):
        c = (c + np.outer(a[:, kk].astype(np.float32), b[kk].astype(np.float32))).astype(np.float32)
    return c


def to_l0a_zz(a):  # [M, K] -> fractals (m1, k1) of 16x16, row-major inside
    m, k = a.shape
    return a.reshape(m // 16, 16, k // 16, 16).transpose(0, 2, 1, 3).ravel()


def to_l0b_zn(b):  # [K, N] -> fractals (k1, n1), column-major inside
    k, n = b.shape
    return b.reshape(k // 16, 16, n // 16, 16).transpose(0, 2, 3, 1).ravel()


def from_nz(c, m, n):  # [N1, M, 16] -> [M, N]
    return c.reshape(n // 16, m, 16).transpose(1, 0, 2).reshape(m, n)


def test_load2d_mmad_through_ub_on_910():
    m, k, n = 32, 48, 32
    t = tik.Tik()
    a_gm = t.Tensor("float16", (m * k,), name="a", scope=tik.scope_gm)
    b_gm = t.Tensor("float16", (k * n,), name="b", scope=tik.scope_gm)
    c_gm = t.Tensor("float32", (m * n,), name="c", scope=tik.scope_gm)
    h_gm = t.Tensor("float16", (m * n,), name="h", scope=tik.scope_gm)
    a_l1 = t.Tensor("float16", (m * k,), name="a_l1", scope=tik.scope_cbuf)
    b_l1 = t.Tensor("float16", (k * n,), name="b_l1", scope=tik.scope_cbuf)
    a_l0 = t.Tensor("float16", (m * k,), name="a_l0", scope=tik.scope_ca)
    b_l0 = t.Tensor("float16", (k * n,), name="b_l0", scope=tik.scope_cb)
    c_l0 = t.Tensor("float32", (m * n,), name="c_l0", scope=tik.scope_cc)
    c_ub = t.Tensor("float32", (m * n,), name="c_ub", scope=tik.scope_ubuf)
    h_ub = t.Tensor("float16", (m * n,), name="h_ub", scope=tik.scope_ubuf)
    t.data_move(a_l1, a_gm, 0, 1, m * k // 16, 0, 0)
    t.data_move(b_l1, b_gm, 0, 1, k * n // 16, 0, 0)
    t.load2dv1(a_l0, a_l1, 0, m * k // 256, 1, 0)
    t.load2dv1(b_l0, b_l1, 0, k * n // 256, 1, 0)
    t.mmad(c_l0, a_l0, b_l0, m, k, n, 0)
    t.data_move(c_ub, c_l0, 0, 1, m * n // 256, 0, 0)   # matrix mode: units of one fractal
    t.data_move(h_ub, c_l0, 0, 1, m * n // 256, 0, 0)   # converting f32 -> f16 on the way
    t.data_move(c_gm, c_ub, 0, 1, m * n // 8, 0, 0)
    t.data_move(h_gm, h_ub, 0, 1, m * n // 16, 0, 0)
    t.BuildCCE("mmad910", [a_gm, b_gm], [c_gm, h_gm])
    rng = np.random.default_rng(14)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c, h = t.tikdb.start_debug({"a": to_l0a_zz(a), "b": to_l0b_zn(b)})
    # L0C NZ: fractal (m1, n1) at (n1 * M1 + m1) * 256 -> [N1, M, 16]
    want = mmad_ref(a, b)
    assert from_nz(c, m, n).tobytes() == want.tobytes()
    assert from_nz(h, m, n).tobytes() == want.astype(np.float16).tobytes()


import pytest


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend310P3"])
def test_matmul_init_l1out_and_fixpipe(soc):
    set_current_compile_soc_info(soc)
    m, k, n = 30, 64, 48   # m not a multiple of 16, as the reference allows
    k1, m1, n1 = k // 16, 2, n // 16
    t = tik.Tik()
    a_gm = t.Tensor("float16", (k1, m1 * 16, 16), name="a", scope=tik.scope_gm)
    b_gm = t.Tensor("float16", (k1, n, 16), name="b", scope=tik.scope_gm)
    c_gm = t.Tensor("float32", (n1, m, 16), name="c", scope=tik.scope_gm)
    h_gm = t.Tensor("float16", (n1, m, 16), name="h", scope=tik.scope_gm)
    a_l1 = t.Tensor("float16", (k1, m1 * 16, 16), name="a_l1", scope=tik.scope_cbuf)
    b_l1 = t.Tensor("float16", (k1, n, 16), name="b_l1", scope=tik.scope_cbuf)
    out = t.Tensor("float32", (n1, m1 * 16, 16), name="out", scope=tik.scope_cbuf_out)
    t.data_move(a_l1, a_gm, 0, 1, k1 * m1 * 16, 0, 0)
    t.data_move(b_l1, b_gm, 0, 1, k1 * n, 0, 0)
    t.matmul(out, a_l1, b_l1, m, k, n)                   # init_l1out=True
    t.matmul(out, a_l1, b_l1, m, k, n, init_l1out=False)  # accumulates: 2 * A @ B
    t.fixpipe(c_gm, out, n1, m * 16 * 4 // 32, 0, 0)
    t.fixpipe(h_gm, out, n1, m * 16 * 4 // 32, 0, 0, extend_params={"quantize_params": {"mode": "fp322fp16"}})
    t.BuildCCE("matmul910b", [a_gm, b_gm], [c_gm, h_gm])
    rng = np.random.default_rng(15)
    a = rng.uniform(-1, 1, (m1 * 16, k)).astype(np.float16)
    a[m:] = 0
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    a_l1_layout = a.reshape(m1 * 16, k1, 16).transpose(1, 0, 2)   # [K1, M, K0]
    b_l1_layout = b.T.reshape(n, k1, 16).transpose(1, 0, 2)       # [K1, N, K0]
    c, h = t.tikdb.start_debug({"a": a_l1_layout, "b": b_l1_layout})
    once = mmad_ref(a[:m], b)
    want = mmad_ref(a[:m], b, once)
    assert from_nz(c, m, n).tobytes() == want.tobytes()
    assert from_nz(h, m, n).tobytes() == want.astype(np.float16).tobytes()


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend310P3"])
def test_int8_matmul_as_the_reference_example(soc):
    """The TIK reference's matmul example: int8 a [2, 32, 32], b [2, 160, 32], m=30, k=64, n=160."""
    set_current_compile_soc_info(soc)
    t = tik.Tik()
    a_gm = t.Tensor("int8", [2, 32, 32], name="a_gm", scope=tik.scope_gm)
    b_gm = t.Tensor("int8", [2, 160, 32], name="b_gm", scope=tik.scope_gm)
    dst_gm = t.Tensor("int32", [10, 30, 16], name="dst_gm", scope=tik.scope_gm)
    a_l1 = t.Tensor("int8", [2, 32, 32], name="a_l1", scope=tik.scope_cbuf)
    b_l1 = t.Tensor("int8", [2, 160, 32], name="b_l1", scope=tik.scope_cbuf)
    dst_l1out = t.Tensor("int32", [10, 32, 16], name="dst_l1out", scope=tik.scope_cbuf_out)
    t.data_move(a_l1, a_gm, 0, 1, 64, 0, 0)
    t.data_move(b_l1, b_gm, 0, 1, 320, 0, 0)
    t.matmul(dst_l1out, a_l1, b_l1, 30, 64, 160)
    t.fixpipe(dst_gm, dst_l1out, 10, 60, 0, 0)
    t.BuildCCE("matmul_int8", [a_gm, b_gm], [dst_gm])
    rng = np.random.default_rng(22)
    a = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    a[30:] = 0
    b = rng.integers(-128, 128, (64, 160)).astype(np.int8)
    got, = t.tikdb.start_debug({"a_gm": a.reshape(32, 2, 32).transpose(1, 0, 2),
                                "b_gm": b.T.reshape(160, 2, 32).transpose(1, 0, 2)})
    want = a[:30].astype(np.int32) @ b.astype(np.int32)
    assert got.tobytes() == want.reshape(30, 10, 16).transpose(1, 0, 2).tobytes()


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend310P3"])
def test_conv2d_then_fixpipe(soc):
    """conv2d of a [1, 6, 6, 16] float16 map with 16 3x3 filters, pad 1, stride 1, then fixpipe."""
    set_current_compile_soc_info(soc)
    c1, h, w, c0, kh, kw, cout = 1, 6, 6, 16, 3, 3, 16
    ho, wo = 6, 6
    t = tik.Tik()
    fm_gm = t.Tensor("float16", (c1, h, w, c0), name="fm", scope=tik.scope_gm)
    wt_gm = t.Tensor("float16", (c1, kh, kw, cout, c0), name="wt", scope=tik.scope_gm)
    out_gm = t.Tensor("float32", (cout // 16, ho * wo, 16), name="out", scope=tik.scope_gm)
    fm = t.Tensor("float16", (c1, h, w, c0), name="fm_l1", scope=tik.scope_cbuf)
    wt = t.Tensor("float16", (c1, kh, kw, cout, c0), name="wt_l1", scope=tik.scope_cbuf)
    acc = t.Tensor("float32", (cout // 16, 48, 16), name="acc", scope=tik.scope_cbuf_out)
    t.data_move(fm, fm_gm, 0, 1, c1 * h * w, 0, 0)
    t.data_move(wt, wt_gm, 0, 1, c1 * kh * kw * cout, 0, 0)
    t.conv2d(acc, fm, wt, [c1, h, w, c0], [c1, kh, kw, cout, c0], [1, 1], [1, 1, 1, 1], [1, 1])
    t.fixpipe(out_gm, acc, cout // 16, ho * wo * 16 * 4 // 32, 0, 0)
    t.BuildCCE("conv", [fm_gm, wt_gm], [out_gm])
    rng = np.random.default_rng(24)
    x = rng.uniform(-1, 1, (c1, h, w, c0)).astype(np.float16)
    k = rng.uniform(-1, 1, (c1, kh, kw, cout, c0)).astype(np.float16)
    got, = t.tikdb.start_debug({"fm": x, "wt": k})
    # img2col with the column order (c1, kh, kw, c0), zero padding
    xp = np.zeros((c1, h + 2, w + 2, c0), np.float16)
    xp[:, 1:h + 1, 1:w + 1] = x
    cols = np.array([[xp[c, i + a, j + b, z] for c in range(c1) for a in range(kh) for b in range(kw)
                      for z in range(c0)] for i in range(ho) for j in range(wo)], np.float16)
    bmat = k.transpose(0, 1, 2, 4, 3).reshape(c1 * kh * kw * c0, cout)
    want = mmad_ref(cols, bmat)
    assert got.tobytes() == want.reshape(ho * wo, cout // 16, 16).transpose(1, 0, 2).tobytes()


def test_broadcast_ub_to_l0c_on_310p():
    set_current_compile_soc_info("Ascend310P3")
    t = tik.Tik()
    bias = t.Tensor("float32", (32,), name="bias", scope=tik.scope_gm)
    out = t.Tensor("float32", (2, 16, 16), name="out", scope=tik.scope_gm)
    bu = t.Tensor("float32", (32,), name="bu", scope=tik.scope_ubuf)
    lc = t.Tensor("float32", (2, 16, 16), name="lc", scope=tik.scope_cc)
    ou = t.Tensor("float32", (2, 16, 16), name="ou", scope=tik.scope_ubuf)
    t.data_move(bu, bias, 0, 1, 4, 0, 0)
    t.broadcast_ub_to_l0c(lc, bu, 2, 1, 0, 0)   # two fractals, each from 16 bias values
    t.data_move(ou, lc, 0, 1, 2, 0, 0)
    t.data_move(out, ou, 0, 1, 64, 0, 0)
    t.BuildCCE("bcast", [bias], [out])
    b = np.arange(32, dtype=np.float32)
    got, = t.tikdb.start_debug({"bias": b})
    want = np.stack([np.tile(b[:16], (16, 1)), np.tile(b[16:], (16, 1))])
    assert got.tobytes() == want.tobytes()
    set_current_compile_soc_info("Ascend910")
    with pytest.raises(tik.TikError, match="only the Ascend310P"):
        tik.Tik().broadcast_ub_to_l0c(lc, bu, 1, 1, 0, 0)


def test_load3dv1_per_kernel_position_then_mmad_on_910():
    """A 3x3 convolution as TIK operators write it on the 910: for each kernel position one
    load3dv1 (repeat_mode 1) into L0A, that position's weights by load2dv1 into L0B, and an
    accumulating mmad; out through UB."""
    set_current_compile_soc_info("Ascend910")
    h = w = 6
    c0, cout, m_pad = 16, 16, 48
    t = tik.Tik()
    fm_gm = t.Tensor("float16", (1, h, w, c0), name="fm", scope=tik.scope_gm)
    wt_gm = t.Tensor("float16", (1, 3, 3, cout, c0), name="wt", scope=tik.scope_gm)
    out_gm = t.Tensor("float32", (m_pad, 16), name="out", scope=tik.scope_gm)
    fm = t.Tensor("float16", (1, h, w, c0), name="fm_l1", scope=tik.scope_cbuf)
    wt = t.Tensor("float16", (1, 3, 3, cout, c0), name="wt_l1", scope=tik.scope_cbuf)
    la = t.Tensor("float16", (m_pad, c0), name="la", scope=tik.scope_ca)
    lb = t.Tensor("float16", (c0, cout), name="lb", scope=tik.scope_cb)
    lc = t.Tensor("float32", (m_pad, 16), name="lc", scope=tik.scope_cc)
    ub = t.Tensor("float32", (m_pad, 16), name="ub", scope=tik.scope_ubuf)
    t.data_move(fm, fm_gm, 0, 1, h * w, 0, 0)
    t.data_move(wt, wt_gm, 0, 1, 9 * cout, 0, 0)
    with t.for_range(0, 9) as pos:
        kh = pos // 3
        kw = pos % 3
        t.load3dv1(la, fm, [1, 1, 1, 1], h, w, 0, kw, kh, -1, -1, 1, 1, 3, 3, 1, 1, 1, 1, m_pad // 16)
        t.load2dv1(lb, wt, pos, 1, 1, 0)
        with t.if_scope(pos == 0):
            t.mmad(lc, la, lb, 36, 16, 16, 0)
        with t.else_scope():
            t.mmad(lc, la, lb, 36, 16, 16, 1)
    t.data_move(ub, lc, 0, 1, m_pad // 16, 0, 0)
    t.data_move(out_gm, ub, 0, 1, m_pad * 2, 0, 0)
    t.BuildCCE("load3d", [fm_gm, wt_gm], [out_gm])
    rng = np.random.default_rng(25)
    x = rng.uniform(-1, 1, (1, h, w, c0)).astype(np.float16)
    k = rng.uniform(-1, 1, (1, 3, 3, cout, c0)).astype(np.float16)
    got, = t.tikdb.start_debug({"fm": x, "wt": k})
    xp = np.zeros((h + 2, w + 2, c0), np.float16)
    xp[1:h + 1, 1:w + 1] = x[0]
    cols = np.array([[xp[i + a, j + b, z] for a in range(3) for b in range(3) for z in range(c0)]
                     for i in range(6) for j in range(6)], np.float16)
    bmat = k[0].transpose(0, 1, 3, 2).reshape(9 * c0, cout)
    want = mmad_ref(cols, bmat)
    assert got[:36].tobytes() == want.tobytes()
