"""Plots are produced and are not empty: image size, pixels that are not background, the
axis labels in the SVG's text."""
import os
import subprocess

import matplotlib.image as mpimg
import numpy as np
import pytest

from npuvp import api, plot, sweeps

CLI = os.environ["NPUVP_CLI"]


def _ink(png):
    """(width, height, fraction of pixels that are not the white background)."""
    img = mpimg.imread(png)[..., :3]
    ink = np.any(np.abs(img - 1.0) > 0.1, axis=-1)
    return img.shape[1], img.shape[0], float(ink.mean())


def _results(path):
    """A results file of 2 workloads x 3 line sizes x 2 ring widths, written as a sweep writes
    it (figures made up: this tests the plots, not the simulator)."""
    study = {"workloads": ["add", "matmul"], "platforms": ["ascend910b"], "mode": "perf",
             "grid": {"l2.line_bytes": [128, 256, 512], "interconnect.link_bytes_per_cycle": [64, 512]},
             "metrics": sweeps.DEFAULT_METRICS}
    study, runs = sweeps.expand(study)
    db = sweeps.open_results(path)
    for i, p in enumerate(runs):
        line, width = p["params"]["l2.line_bytes"], p["params"]["interconnect.link_bytes_per_cycle"]
        mm = p["workload"]["workload"] == "matmul"
        cycles = 5000 + 20 * line // width + (3000 if mm else 0)
        metrics = {"cycles": cycles, "sim_us": cycles / 1800.0, "flops": 2.4e8 if mm else 0.0,
                   "dram_bytes": 700000 + 100 * line, "cube_peak_tflops": 353.89, "dram_peak_gbps": 1600.0}
        sweeps.record(db, "t", p, {"status": "ok", "metrics": metrics, "error": None, "seconds": 1.0, "host": "h"})
    db.close()


def test_sweep_plot_png_and_svg_through_the_cli(tmp_path):
    results = str(tmp_path / "r.sqlite")
    _results(results)
    png, svg = str(tmp_path / "s.png"), str(tmp_path / "s.svg")
    for out in (png, svg):
        subprocess.run([CLI, "plot", results, "--x", "l2.line_bytes", "--y", "cycles",
                        "--hue", "interconnect.link_bytes_per_cycle", "--out", out], check=True)
    w, h, ink = _ink(png)
    assert w >= 600 and h >= 250
    assert 0.02 < ink < 0.6
    text = open(svg).read()
    for label in ("l2.line_bytes", "cycles", "interconnect.link_bytes_per_cycle=64", "workload = matmul"):
        assert label in text, label
    # --facet by the ring width instead: one panel per width.
    subprocess.run([CLI, "plot", results, "--x", "l2.line_bytes", "--y", "cycles", "--facet",
                    "interconnect.link_bytes_per_cycle", "--hue", "workload", "--out", svg], check=True)
    assert "interconnect.link_bytes_per_cycle = 512" in open(svg).read()
    bad = subprocess.run([CLI, "plot", results, "--x", "nope", "--y", "cycles", "--out", png],
                         stderr=subprocess.PIPE, text=True)
    assert bad.returncode == 2 and "no column 'nope'" in bad.stderr


def test_roofline_of_a_sweep(tmp_path):
    results = str(tmp_path / "r.sqlite")
    _results(results)
    svg = str(tmp_path / "roof.svg")
    subprocess.run([CLI, "plot", results, "--kind", "roofline", "--out", svg], check=True)
    text = open(svg).read()
    assert "arithmetic intensity" in text and "achieved TFLOPS" in text and "roofline: ascend910b" in text
    assert "353.89 TFLOPS" in text


def test_layers_stacked_bars(tmp_path):
    table = api.layers_frame({"layers": [
        {"layer": "conv1", "op": "Conv", "cycles": 900, "cube_cycles": 600, "vector_cycles": 100,
         "mte_cycles": 150, "stall_cycles": 50},
        {"layer": "softmax", "op": "Softmax", "cycles": 300, "cube_cycles": 0, "vector_cycles": 250,
         "mte_cycles": 40, "stall_cycles": 10}]})
    out = str(tmp_path / "l.svg")
    plot.layers(table, out=out)
    text = open(out).read()
    for label in ("conv1", "softmax", "cube", "vector", "stall", "cycles", "layer"):
        assert label in text, label


def test_run_plot_writes_a_runs_plots(tmp_path):
    out = tmp_path / "plots"
    p = subprocess.run([CLI, "run", "matmul", "--platform", "ascend910b", "--mode", "perf", "--plot", str(out)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    assert "simulated:" in p.stdout
    for name in ("pipes.png", "roofline.png", "utilisation.png", "trace.json", "stats.json"):
        assert (out / name).exists(), name
    for name in ("pipes.png", "roofline.png", "utilisation.png"):
        w, h, ink = _ink(str(out / name))
        assert w >= 400 and h >= 250 and ink > 0.02, name
    # The utilisation of a trace as SVG: a line per pipe the cube cores use.
    svg = str(tmp_path / "u.svg")
    subprocess.run([CLI, "plot", str(out / "trace.json"), "--out", svg], check=True)
    text = open(svg).read()
    for label in ("MTE2 (24 cores)", "M (24 cores)", "FIX (24 cores)", "simulated time (us)", "pipe utilisation (%)"):
        assert label in text, label


def test_plot_refuses_a_roofline_without_flops(tmp_path):
    with pytest.raises(ValueError, match="no point with both flops and DRAM bytes"):
        import pandas as pd
        plot.roofline(pd.DataFrame([{"platform": "p", "workload": "add", "flops": 0.0, "dram_bytes": 10,
                                     "sim_us": 1.0, "cube_peak_tflops": 1.0, "dram_peak_gbps": 1.0}]))


def test_layers_bars_by_bound_when_no_breakdown(tmp_path):
    table = api.layers_frame({"onnx": {"layer0000": {"conv1": {"cycles": 900, "flops": 1, "bytes": 1}},
                                       "layer0001": {"relu1": {"cycles": 100, "flops": 0, "bytes": 1}}}})
    table["bound"] = ["cube", "memory"]
    out = str(tmp_path / "l.svg")
    plot.layers(table, out=out)
    text = open(out).read()
    assert "bound: cube" in text and "bound: memory" in text and "relu1" in text
