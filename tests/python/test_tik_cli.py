"""BuildCCE writes kernel_meta/<name>.json (+ .o, our serialised program) that
`npuvp run kernel_meta/<name>.json --data DIR` runs with .npy inputs."""
import json
import os
import subprocess

import numpy as np
import pytest
from tbe import tik

CLI = os.environ.get("NPUVP_CLI")


def build():
    t = tik.Tik()
    x = t.Tensor("float32", (4, 64), name="x", scope=tik.scope_gm)
    k = t.InputScalar("float32", name="k")
    y = t.Tensor("float32", (4, 64), name="y", scope=tik.scope_gm)
    with t.for_range(0, 4, block_num=4) as b:
        xu = t.Tensor("float32", (64,), name="xu", scope=tik.scope_ubuf)
        t.data_move(xu, x[b, 0], 0, 1, 8, 0, 0)
        t.vec_muls(64, xu, xu, k, 1, 8, 8)
        t.data_move(y[b, 0], xu, 0, 1, 8, 0, 0)
    t.BuildCCE("cli_scale", [x, k], [y])
    return t


def test_kernel_meta_files():
    build()
    meta = json.load(open("kernel_meta/cli_scale.json"))
    assert meta["kernelName"] == "cli_scale" and meta["blockDim"] == 4
    assert meta["npuvp"]["inputs"][1] == {"name": "k", "kind": "scalar", "dtype": "float32"}
    program = json.load(open("kernel_meta/cli_scale.o"))
    assert program["format"] == "npuvp-tik/1"


@pytest.mark.skipif(not CLI, reason="NPUVP_CLI (the npuvp program) not given")
def test_npuvp_run_with_npy_inputs(tmp_path):
    t = build()
    a = np.random.default_rng(13).uniform(-1, 1, (4, 64)).astype(np.float32)
    os.makedirs("data")
    np.save("data/x.npy", a)
    np.save("data/k.npy", np.float32(2.5))
    r = subprocess.run([CLI, "run", "kernel_meta/cli_scale.json", "--data", "data"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "TIK kernel cli_scale: 4 blocks" in r.stdout
    got = np.load("data/y.npy")
    want = a * np.float32(2.5)
    assert got.dtype == np.float32 and got.shape == (4, 64)
    assert got.tobytes() == want.tobytes()
    # The same as start_debug, bit for bit.
    assert t.tikdb.start_debug({"x": a, "k": 2.5})[0].tobytes() == got.tobytes()


@pytest.mark.skipif(not CLI, reason="NPUVP_CLI (the npuvp program) not given")
def test_npuvp_run_reports_a_missing_input():
    build()
    os.makedirs("data")
    r = subprocess.run([CLI, "run", "kernel_meta/cli_scale.json", "--data", "data"], capture_output=True, text=True)
    assert r.returncode != 0
    assert "data/x.npy" in r.stderr
