"""matmul and conv2d whose M or N does not fit one L0A/L0B tile: the lowering splits M (one N
fractal column at a time) or N, and K, each result tile landing in its place of the [N1, M, 16]
output. L0A/L0B are made small in the recorder so that small shapes need several tiles; the
reference is the Mmad contract (products summed in increasing k order in float32)."""
import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info

from test_tik_cube import from_nz, mmad_ref


@pytest.mark.parametrize("m,k,n", [(100, 64, 80), (30, 64, 160)])
def test_matmul_split_over_m_and_n(m, k, n):
    set_current_compile_soc_info("Ascend910B2")
    k1, m1, n1 = k // 16, (m + 15) // 16, n // 16
    t = tik.Tik()
    t._spec = dict(t._spec, L0A_SIZE=2048, L0B_SIZE=2048)  # 4 fractals each
    a_gm = t.Tensor("float16", (k1, m1 * 16, 16), name="a", scope=tik.scope_gm)
    b_gm = t.Tensor("float16", (k1, n, 16), name="b", scope=tik.scope_gm)
    c_gm = t.Tensor("float32", (n1, m, 16), name="c", scope=tik.scope_gm)
    a_l1 = t.Tensor("float16", (k1, m1 * 16, 16), name="a_l1", scope=tik.scope_cbuf)
    b_l1 = t.Tensor("float16", (k1, n, 16), name="b_l1", scope=tik.scope_cbuf)
    out = t.Tensor("float32", (n1, m1 * 16, 16), name="out", scope=tik.scope_cbuf_out)
    t.data_move(a_l1, a_gm, 0, 1, k1 * m1 * 16, 0, 0)
    t.data_move(b_l1, b_gm, 0, 1, k1 * n, 0, 0)
    t.matmul(out, a_l1, b_l1, m, k, n)
    t.fixpipe(c_gm, out, n1, m * 16 * 4 // 32, (m1 * 16 - m) // 16, 0)
    t.BuildCCE("matmul_tiles", [a_gm, b_gm], [c_gm])
    rng = np.random.default_rng(31)
    a = rng.uniform(-1, 1, (m1 * 16, k)).astype(np.float16)
    a[m:] = 0
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c, = t.tikdb.start_debug({"a": a.reshape(m1 * 16, k1, 16).transpose(1, 0, 2),
                              "b": b.T.reshape(n, k1, 16).transpose(1, 0, 2)})
    assert from_nz(c, m, n).tobytes() == mmad_ref(a[:m], b).tobytes()


def test_conv2d_split_over_m_and_n():
    """Ho*Wo = 36 rows (3 fractals) with L0A holding 2: M in two parts, each Cout column alone."""
    set_current_compile_soc_info("Ascend910B2")
    c1, h, w, c0, kh, kw, cout = 1, 6, 6, 16, 3, 3, 32
    ho, wo = 6, 6
    t = tik.Tik()
    t._spec = dict(t._spec, L0A_SIZE=1024, L0B_SIZE=2048)
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
    t.BuildCCE("conv_tiles", [fm_gm, wt_gm], [out_gm])
    rng = np.random.default_rng(25)
    x = rng.uniform(-1, 1, (c1, h, w, c0)).astype(np.float16)
    k = rng.uniform(-1, 1, (c1, kh, kw, cout, c0)).astype(np.float16)
    got, = t.tikdb.start_debug({"fm": x, "wt": k})
    xp = np.zeros((c1, h + 2, w + 2, c0), np.float16)
    xp[:, 1:h + 1, 1:w + 1] = x
    cols = np.array([[xp[c, i + a, j + b, z] for c in range(c1) for a in range(kh) for b in range(kw)
                      for z in range(c0)] for i in range(ho) for j in range(wo)], np.float16)
    bmat = k.transpose(0, 1, 2, 4, 3).reshape(c1 * kh * kw * c0, cout)
    want = mmad_ref(cols, bmat)
    assert got.tobytes() == want.reshape(ho * wo, cout // 16, 16).transpose(1, 0, 2).tobytes()
