#!/usr/bin/python3
"""One case of scripts/param-fuzz.sh's TIK fuzzing: fuzz-tik-case.py INDEX (or --count).

Builds a small TIK operator (data_move in, vec_muls, data_move out, over a for_range of blocks)
with one argument replaced by a value no operator should pass, runs it with start_debug, and
exits 0 if it ran or raised a Python exception (the wanted ending for bad input), 125 if the
simulation process died without a result (a crash behind the exception), and whatever else
happens otherwise (a signal: the Python process crashed). Needs PYTHONPATH=<build>/python.
"""
import sys

# (name, default) of every argument the operator is built from; case INDEX replaces argument
# INDEX // len(BAD) with BAD[INDEX % len(BAD)].
ARGS = [("rows", 4), ("cols", 64), ("block_num", 4), ("sid", 0), ("nburst", 1), ("burst", 8),
        ("src_stride", 0), ("dst_stride", 0), ("mask", 64), ("scalar", 2.0), ("repeat", 1),
        ("dst_rep_stride", 8), ("src_rep_stride", 8), ("dtype", "float32"), ("offset", 0)]
BAD = [0, -1, 255, 256, 65535, 65536, 2**31, 2**63, -2**63, 1.5, float("nan"), "abc", None, True, [1, 2]]


def run(values):
    import numpy as np
    from tbe import tik
    from tbe.common.platform import set_current_compile_soc_info

    v = dict(values)
    set_current_compile_soc_info("Ascend910")
    t = tik.Tik()
    x = t.Tensor(v["dtype"], (v["rows"], v["cols"]), name="x", scope=tik.scope_gm)
    y = t.Tensor(v["dtype"], (v["rows"], v["cols"]), name="y", scope=tik.scope_gm)
    with t.for_range(0, v["rows"], block_num=v["block_num"]) as b:
        xu = t.Tensor(v["dtype"], (v["cols"],), name="xu", scope=tik.scope_ubuf)
        t.data_move(xu, x[b, v["offset"]], v["sid"], v["nburst"], v["burst"], v["src_stride"], v["dst_stride"])
        t.vec_muls(v["mask"], xu, xu, v["scalar"], v["repeat"], v["dst_rep_stride"], v["src_rep_stride"])
        t.data_move(y[b, 0], xu, 0, 1, v["burst"], 0, 0)
    t.BuildCCE("fuzz", [x], [y])
    data = np.ones((4, 64), dtype=np.float32)
    try:
        data = np.ones((v["rows"], v["cols"]), dtype=np.dtype(v["dtype"]))
    except Exception:
        pass  # the feed stays 4x64 f32: start_debug must refuse the mismatch
    return t.tikdb.start_debug({"x": data})


def main():
    if sys.argv[1] == "--count":
        print(len(ARGS) * len(BAD))
        return 0
    index = int(sys.argv[1])
    values = [list(a) for a in ARGS]
    name, bad = ARGS[index // len(BAD)][0], BAD[index % len(BAD)]
    values[index // len(BAD)][1] = bad
    try:
        run(values)
        print("tik fuzz %d: %s=%r ran" % (index, name, bad))
    except Exception as e:  # a Python exception is the clean ending for bad arguments
        text = str(e).splitlines()[0][:160] if str(e) else ""
        print("tik fuzz %d: %s=%r raised %s: %s" % (index, name, bad, type(e).__name__, text))
        if "ended without a result" in str(e):
            return 125
    return 0


if __name__ == "__main__":
    sys.exit(main())
