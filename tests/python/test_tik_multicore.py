"""Multi-core and double-buffered loops: block_num runs real blocks on real cores in parallel,
thread_num=2 overlaps a tile's move-in with the previous tile's compute (the syncs TIK's
compiler inserts); results bit-exact, timing asserted as relations."""
import numpy as np
from tbe import tik

TILE = 2048  # float16 elements per tile


def build(cores, tiles_per_core, thread_num, name):
    t = tik.Tik()
    n = cores * tiles_per_core * TILE
    x = t.Tensor("float16", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (n,), name="y", scope=tik.scope_gm)
    with t.for_range(0, cores, block_num=cores) as core:
        with t.for_range(0, tiles_per_core, thread_num=thread_num) as i:
            xu = t.Tensor("float16", (TILE,), name="xu", scope=tik.scope_ubuf)
            base = (core * tiles_per_core + i) * TILE
            t.data_move(xu, x[base], 0, 1, TILE // 16, 0, 0)
            t.vec_muls(128, xu, xu, 2.0, TILE // 128, 8, 8)
            t.vec_adds(128, xu, xu, 1.0, TILE // 128, 8, 8)
            t.data_move(y[base], xu, 0, 1, TILE // 16, 0, 0)
    t.BuildCCE(name, [x], [y])
    return t, n


def run(cores, tiles, thread_num):
    t, n = build(cores, tiles, thread_num, "scale_%d_%d" % (cores, thread_num))
    a = np.random.default_rng(5).uniform(-8, 8, n).astype(np.float16)
    y, = t.tikdb.start_debug({"x": a})
    want = (a * np.float16(2)) + np.float16(1)
    assert y.tobytes() == want.tobytes()
    return t.tikdb.last_run


def test_block_num_runs_blocks_in_parallel():
    one = run(1, 8, 1)
    four = run(4, 2, 1)
    assert four["blocks"] == 4
    # The same work on four cores takes well under half the time (each core does a quarter).
    assert four["cycles"] < 0.5 * one["cycles"]


def test_thread_num_2_double_buffers():
    single = run(1, 8, 1)
    double = run(1, 8, 2)
    # Move-in, compute and move-out of successive tiles overlap: faster, same result.
    assert double["cycles"] < 0.9 * single["cycles"]


def test_trace_stats_and_overrides_from_the_environment(monkeypatch):
    import json
    import os
    monkeypatch.setenv("NPUVP_TRACE", os.path.abspath("trace.json"))
    monkeypatch.setenv("NPUVP_STATS", os.path.abspath("stats.json"))
    fast = run(1, 2, 1)
    monkeypatch.setenv("NPUVP_SET", "core.vector.head_cycles=400")
    slow = run(1, 2, 1)
    assert slow["cycles"] > fast["cycles"]          # the override reached the platform
    assert json.load(open("trace.json"))            # a trace was written
    assert "core0" in json.load(open("stats.json"))  # and the statistics
