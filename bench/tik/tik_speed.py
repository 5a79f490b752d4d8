"""TIK front-end speed (docs/performance.md, "TIK front end").

1. Recording and lowering: a program of 10^5 vector instructions is recorded in Python and
   handed to the C++ statement tree as start_debug does; then, for comparison, the kernel_meta
   path (JSON text written by BuildCCE, parsed by `npuvp run`).
2. Running: an elementwise operator (x * 2 + 1 over N float16 elements, double-buffered on
   every core) on the simulated chip against numpy doing the same arithmetic on the host;
   simulated time and wall time of the run.

Usage: PYTHONPATH=<build>/python /usr/bin/python3 bench/tik/tik_speed.py
"""
import json
import os
import sys
import tempfile
import time

import numpy as np

from npuvp import _core
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info


def record(n_instr):
    t = tik.Tik()
    x = t.Tensor("float16", (128 * 64,), name="x", scope=tik.scope_gm)
    u = t.Tensor("float16", (128 * 64,), name="u", scope=tik.scope_ubuf)
    t.data_move(u, x, 0, 1, 512, 0, 0)
    for i in range(n_instr - 2):
        t.vec_adds(128, u[(i % 64) * 128], u[(i % 64) * 128], 1.0, 1, 8, 8)
    t.data_move(x, u, 0, 1, 512, 0, 0)
    return t, x


def main():
    set_current_compile_soc_info("Ascend910")
    os.chdir(tempfile.mkdtemp())
    n = 100_000
    # CPU time of this process (the machine may be shared), and wall time.
    clocks = (time.process_time, time.perf_counter)
    t0 = [c() for c in clocks]
    t, x = record(n)
    t1 = [c() for c in clocks]
    # start_debug's path: the recorded structure straight into the C++ statement tree.
    count = _core.parse_tik(t._program("speed", [x], [x]))
    t2 = [c() for c in clocks]
    # BuildCCE's kernel_meta .o and `npuvp run`'s path: JSON text, parsed by the CLI.
    text = json.dumps(t._program("speed", [x], [x]), separators=(",", ":"))
    t3 = [c() for c in clocks]
    _core.parse_tik(text)
    t4 = [c() for c in clocks]
    def span(a, b):
        return "%.3f s CPU (%.3f s wall)" % (b[0] - a[0], b[1] - a[1])
    print("record %d instructions: %s, %.2f us CPU each" % (n, span(t0, t1), (t1[0] - t0[0]) / n * 1e6))
    print("lower into the C++ tree (%d instructions): %s" % (count, span(t1, t2)))
    print("total record + lower: %s" % span(t0, t2))
    # numpy doing the same arithmetic as the recorded program, one call per instruction
    # (128 float16 elements each), for scale: what one host-side vector call costs.
    u = np.zeros(128 * 64, np.float16)
    one = np.float16(1.0)
    n0 = [c() for c in clocks]
    for i in range(n - 2):
        v = u[(i % 64) * 128:(i % 64) * 128 + 128]
        np.add(v, one, out=v)
    n1 = [c() for c in clocks]
    print("numpy, the same %d additions of 128 float16 one call each: %s (%.2f us CPU each)"
          % (n - 2, span(n0, n1), (n1[0] - n0[0]) / n * 1e6))
    print("kernel_meta path: serialise JSON (%.1f MB) %s; parse the text %s" % (len(text) / 1e6, span(t2, t3),
                                                                                 span(t3, t4)))

    # The same 10^5 instructions run on one core: wall time per instruction.
    t.BuildCCE("speed", [x], [x])
    a = np.zeros(128 * 64, np.float16)
    w0 = time.perf_counter()
    t.tikdb.start_debug({"x": a})
    w1 = time.perf_counter()
    run = t.tikdb.last_run
    print("run on the platform: %.3f s wall (platform build included), %d cycles simulated, %.2f us wall "
          "per instruction" % (w1 - w0, run["cycles"], (w1 - w0) / n * 1e6))

    # An elementwise operator on every core against numpy.
    cores, tile = 32, 16384
    for tiles in (4,):
        size = cores * tiles * tile
        op = tik.Tik()
        xg = op.Tensor("float16", (size,), name="x", scope=tik.scope_gm)
        yg = op.Tensor("float16", (size,), name="y", scope=tik.scope_gm)
        with op.for_range(0, cores, block_num=cores) as c:
            with op.for_range(0, tiles, thread_num=2) as i:
                ub = op.Tensor("float16", (tile,), name="ub", scope=tik.scope_ubuf)
                base = (c * tiles + i) * tile
                op.data_move(ub, xg[base], 0, 1, tile // 16, 0, 0)
                op.vec_muls(128, ub, ub, 2.0, tile // 128, 8, 8)
                op.vec_adds(128, ub, ub, 1.0, tile // 128, 8, 8)
                op.data_move(yg[base], ub, 0, 1, tile // 16, 0, 0)
        op.BuildCCE("scale", [xg], [yg])
        data = np.random.default_rng(0).uniform(-1, 1, size).astype(np.float16)
        w0 = time.perf_counter()
        y, = op.tikdb.start_debug({"x": data})
        w1 = time.perf_counter()
        ref = (data * np.float16(2)) + np.float16(1)
        n0 = time.perf_counter()
        for _ in range(10):
            ref = (data * np.float16(2)) + np.float16(1)
        n1 = time.perf_counter()
        assert y.tobytes() == ref.tobytes()
        r = op.tikdb.last_run
        print("elementwise %d float16 on %d cores: simulated %.1f us; npuvp wall %.3f s; numpy %.4f s "
              "(npuvp/numpy %.0fx)" % (size, cores, r["sim_time_us"], w1 - w0, (n1 - n0) / 10,
                                       (w1 - w0) / ((n1 - n0) / 10)))


if __name__ == "__main__":
    sys.exit(main())
