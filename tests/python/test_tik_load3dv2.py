"""load3dv2: img2col by im2col-matrix coordinates (m_start_pt, k_start_pt, extents) into L0A,
then mmad, bit-exact against numpy; the starts as immediates and as Scalars of a loop."""
import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info


def mmad_ref(a, b):
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = (acc + a[:, k:k + 1].astype(np.float32) * b[k:k + 1, :].astype(np.float32)).astype(np.float32)
    return acc


@pytest.mark.parametrize("split_m", [False, True])
def test_load3dv2_conv3x3(split_m):
    set_current_compile_soc_info("Ascend910B2")
    h = w = 6
    t = tik.Tik()
    fm_gm = t.Tensor("float16", (1, h, w, 16), name="fm", scope=tik.scope_gm)
    wt_gm = t.Tensor("float16", (1, 3, 3, 16, 16), name="wt", scope=tik.scope_gm)
    out_gm = t.Tensor("float32", (1, 36, 16), name="out", scope=tik.scope_gm)
    fm = t.Tensor("float16", (1, h, w, 16), name="fm_l1", scope=tik.scope_cbuf)
    wt = t.Tensor("float16", (1, 3, 3, 16, 16), name="wt_l1", scope=tik.scope_cbuf)
    la = t.Tensor("float16", (48, 144), name="la", scope=tik.scope_ca)
    lb = t.Tensor("float16", (144, 16), name="lb", scope=tik.scope_cb)
    lc = t.Tensor("float32", (1, 48, 16), name="lc", scope=tik.scope_cbuf_out)
    t.data_move(fm, fm_gm, 0, 1, h * w, 0, 0)
    t.data_move(wt, wt_gm, 0, 1, 9 * 16, 0, 0)
    if split_m:   # three loads of 16 output positions, the start a loop Scalar
        with t.for_range(0, 3) as mb:
            t.load3dv2(la[mb * 16, 0], fm, [1, 1, 1, 1], h, w, 16, 144, 16, 0, mb * 16, 1, 1, 3, 3, 1, 1)
    else:
        t.load3dv2(la, fm, [1, 1, 1, 1], h, w, 16, 144, 48, 0, 0, 1, 1, 3, 3, 1, 1)
    t.load2dv1(lb, wt, 0, 9, 1, 0)
    t.mmad(lc, la, lb, 36, 144, 16, 0)
    t.fixpipe(out_gm, lc, 1, 36 * 16 * 4 // 32, 0, 0)
    t.BuildCCE("load3dv2_conv", [fm_gm, wt_gm], [out_gm])
    rng = np.random.default_rng(47)
    x = rng.uniform(-1, 1, (1, h, w, 16)).astype(np.float16)
    k = rng.uniform(-1, 1, (1, 3, 3, 16, 16)).astype(np.float16)
    out, = t.tikdb.start_debug({"fm": x, "wt": k})
    xp = np.zeros((h + 2, w + 2, 16), np.float16)
    xp[1:h + 1, 1:w + 1] = x[0]
    cols = np.array([[xp[i + a, j + b, z] for a in range(3) for b in range(3) for z in range(16)]
                     for i in range(h) for j in range(w)], np.float16)
    want = mmad_ref(cols, k[0].transpose(0, 1, 3, 2).reshape(144, 16))
    assert out.reshape(36, 16).tobytes() == want.tobytes()


def test_load3dv2_rejects_a_ub_destination():
    t = tik.Tik()
    fm = t.Tensor("float16", (1, 4, 4, 16), name="fm", scope=tik.scope_cbuf)
    ub = t.Tensor("float16", (256,), name="ub", scope=tik.scope_ubuf)
    with pytest.raises(tik.TikError) as e:
        t.load3dv2(ub, fm, [0, 0, 0, 0], 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1)
    assert "test_tik_load3dv2.py:" in str(e.value) and "scope_ca/scope_cb" in str(e.value)
