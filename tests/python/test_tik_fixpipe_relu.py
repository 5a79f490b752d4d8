"""fixpipe with relu (and fp322fp16) on Ascend910B (the FixPipe unit) and on Ascend310P (through UB,
ReLU by the vector unit); bit-exact against numpy: the Mmad contract's float32 sums, then ReLU and
rounding to float16."""
import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info

from test_tik_cube import from_nz, mmad_ref


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend310P3"])
def test_matmul_fixpipe_relu(soc):
    set_current_compile_soc_info(soc)
    m, k, n = 30, 32, 32
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
    t.matmul(out, a_l1, b_l1, m, k, n)
    t.fixpipe(c_gm, out, n1, m * 16 * 4 // 32, 0, 0, extend_params={"relu": True})
    t.fixpipe(h_gm, out, n1, m * 16 * 4 // 32, 0, 0,
              extend_params={"relu": True, "quantize_params": {"mode": "fp322fp16"}})
    t.BuildCCE("matmul_relu", [a_gm, b_gm], [c_gm, h_gm])
    rng = np.random.default_rng(21)
    a = rng.uniform(-1, 1, (m1 * 16, k)).astype(np.float16)
    a[m:] = 0
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c, h = t.tikdb.start_debug({"a": a.reshape(m1 * 16, k1, 16).transpose(1, 0, 2),
                                "b": b.T.reshape(n, k1, 16).transpose(1, 0, 2)})
    acc = mmad_ref(a[:m], b)
    relu = np.where(acc > 0, acc, np.float32(0))
    assert (acc < 0).any() and (acc > 0).any()
    assert from_nz(c, m, n).tobytes() == relu.tobytes()
    assert from_nz(h, m, n).tobytes() == relu.astype(np.float16).tobytes()


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910"])
def test_fixpipe_into_ub(soc):
    """The reference lets fixpipe write UB: the valid rows land there, then data_move to GM."""
    set_current_compile_soc_info(soc)
    m, k, n = 20, 16, 32
    m1, n1 = 2, n // 16
    t = tik.Tik()
    a_gm = t.Tensor("float16", (1, m1 * 16, 16), name="a", scope=tik.scope_gm)
    b_gm = t.Tensor("float16", (1, n, 16), name="b", scope=tik.scope_gm)
    h_gm = t.Tensor("float16", (n1, m, 16), name="h", scope=tik.scope_gm)
    a_l1 = t.Tensor("float16", (1, m1 * 16, 16), name="a_l1", scope=tik.scope_cbuf)
    b_l1 = t.Tensor("float16", (1, n, 16), name="b_l1", scope=tik.scope_cbuf)
    out = t.Tensor("float32", (n1, m1 * 16, 16), name="out", scope=tik.scope_cbuf_out)
    h_ub = t.Tensor("float16", (n1, m, 16), name="h_ub", scope=tik.scope_ubuf)
    t.data_move(a_l1, a_gm, 0, 1, m1 * 16, 0, 0)
    t.data_move(b_l1, b_gm, 0, 1, n, 0, 0)
    t.matmul(out, a_l1, b_l1, m, k, n)
    t.fixpipe(h_ub, out, n1, m * 16 * 4 // 32, 0, 0, extend_params={"quantize_params": {"mode": "fp322fp16"}})
    t.data_move(h_gm, h_ub, 0, 1, n1 * m * 16 * 2 // 32, 0, 0)
    t.BuildCCE("fixpipe_ub", [a_gm, b_gm], [h_gm])
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (m1 * 16, k)).astype(np.float16)
    a[m:] = 0
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    h, = t.tikdb.start_debug({"a": a.reshape(m1 * 16, 1, 16).transpose(1, 0, 2),
                              "b": b.T.reshape(n, 1, 16).transpose(1, 0, 2)})
    assert from_nz(h, m, n).tobytes() == mmad_ref(a[:m], b).astype(np.float16).tobytes()


def test_fixpipe_into_ub_on_910b_is_an_error():
    set_current_compile_soc_info("Ascend910B2")
    t = tik.Tik()
    out = t.Tensor("float32", (2, 32, 16), name="out", scope=tik.scope_cbuf_out)
    h_ub = t.Tensor("float32", (2, 32, 16), name="h_ub", scope=tik.scope_ubuf)
    with pytest.raises(tik.TikError, match="test_tik_fixpipe_relu.py:.*Ascend910B's FixPipe writes GM or L1"):
        t.fixpipe(h_ub, out, 2, 64, 0, 0)
