"""The same operator on every modelled product, and GM atomics from several blocks."""
import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info, get_soc_spec


@pytest.mark.parametrize("soc", ["Ascend910", "Ascend310P3", "Ascend910B2"])
def test_multicore_scale_on_each_product(soc):
    set_current_compile_soc_info(soc)
    cores = get_soc_spec("CORE_NUM")
    t = tik.Tik()
    n = cores * 256
    x = t.Tensor("float32", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float32", (n,), name="y", scope=tik.scope_gm)
    with t.for_range(0, cores, block_num=cores) as b:
        u = t.Tensor("float32", (256,), name="u", scope=tik.scope_ubuf)
        t.data_move(u, x[b * 256], 0, 1, 32, 0, 0)
        t.vec_muls(64, u, u, -0.5, 4, 8, 8)
        t.data_move(y[b * 256], u, 0, 1, 32, 0, 0)
    t.BuildCCE("scale_" + soc, [x], [y])
    a = np.random.default_rng(19).uniform(-1, 1, n).astype(np.float32)
    got, = t.tikdb.start_debug({"x": a})
    assert got.tobytes() == (a * np.float32(-0.5)).tobytes()
    assert t.tikdb.last_run["blocks"] == cores


def test_atomic_add_from_every_block():
    t = tik.Tik()
    blocks = 4
    x = t.Tensor("float32", (blocks, 64), name="x", scope=tik.scope_gm)
    acc = t.Tensor("float32", (64,), name="acc", scope=tik.scope_gm)
    with t.for_range(0, blocks, block_num=blocks) as b:
        u = t.Tensor("float32", (64,), name="u", scope=tik.scope_ubuf)
        t.data_move(u, x[b, 0], 0, 1, 8, 0, 0)
        t.set_atomic_add(1)
        t.data_move(acc, u, 0, 1, 8, 0, 0)
        t.set_atomic_add(0)
    t.BuildCCE("atomic", [x, acc], [acc])
    a = np.random.default_rng(20).integers(-8, 8, (blocks, 64)).astype(np.float32)
    start = np.full(64, 100, np.float32)
    got, = t.tikdb.start_debug({"x": a, "acc": start})
    assert got.tobytes() == (start + a.sum(axis=0)).tobytes()   # small integers: exact in any order
