"""npuvp.run/params/platforms (python/npuvp/api.py) against the CLI's own numbers."""
import json
import os
import re
import subprocess

import pytest

import npuvp
from npuvp import api

CLI = os.environ["NPUVP_CLI"]


def test_platforms_and_samples_are_the_clis():
    assert {"ascend910b", "ascend910", "ascend310p", "minimal"} <= set(npuvp.platforms())
    assert {"add", "matmul"} <= set(npuvp.samples())


def test_params_lists_every_parameter_with_value_and_source():
    p = npuvp.params("ascend910b")
    lines = [l for l in subprocess.run([CLI, "info", "ascend910b"], stdout=subprocess.PIPE, text=True,
                                       check=True).stdout.splitlines() if l.startswith("  ")]
    assert len(p) == len(lines) > 50
    assert p["l2.line_bytes"]["value"] == 512
    assert p["l2.line_bytes"]["source"].endswith("ascend910b.json")
    assert p["interconnect.topology"]["value"] == "ring"
    assert p["core.cube.impl"]["source"] == "default"
    changed = npuvp.params("ascend910b", set={"l2.line_bytes": 128})
    assert changed["l2.line_bytes"]["value"] == 128
    assert changed["l2.line_bytes"]["source"] != p["l2.line_bytes"]["source"]


def test_run_matches_the_cli(tmp_path):
    sets = {"l2.line_bytes": 256, "interconnect.link_bytes_per_cycle": 128}
    r = npuvp.run("matmul", platform="ascend910b", set=sets, mode="perf")
    cli_stats = tmp_path / "cli.json"
    out = subprocess.run([CLI, "run", "matmul", "--platform", "ascend910b", "--set", "l2.line_bytes=256",
                          "--set", "interconnect.link_bytes_per_cycle=128", "--mode", "perf",
                          "--stats", str(cli_stats)], stdout=subprocess.PIPE, text=True, check=True).stdout
    cycles = int(re.search(r"^simulated: (\d+) cycles", out, re.M).group(1))
    assert r.cycles == cycles > 0
    assert r.clock_mhz == 1800.0
    assert r.seconds == pytest.approx(cycles / 1.8e9)
    assert r.passed is None  # perf mode checks no data
    stats = json.loads(cli_stats.read_text())
    assert r.stats["aic0"] == stats["aic0"]
    # The per-pipe table is the stats' pipes: M busy cycles of every core.
    m = r.pipes[r.pipes["pipe"] == "M"].set_index("core")["busy_cycles"]
    assert len(m) == 24
    assert all(m[c] == stats[c]["M"]["busy_cycles"] for c in m.index)
    assert r.pipes["busy"].max() <= 1.0
    metrics = r.metrics()
    cube = re.search(r"^cube: ([\d.]+) TFLOPS achieved of ([\d.]+) peak", out, re.M)
    assert metrics["cube_tflops"] == float(cube.group(1)) > 0
    assert metrics["cube_peak_tflops"] == float(cube.group(2))
    assert metrics["flops"] == 2 * sum(stats[c]["M"]["macs"] for c in stats if re.fullmatch(r"aic\d+", c))
    dram = re.search(r"^DRAM: ([\d.]+) GB/s achieved", out, re.M)
    assert metrics["dram_bytes"] > 0
    assert metrics["dram_bytes"] == pytest.approx(float(dram.group(1)) * 1e9 * r.seconds)
    assert metrics["dram_bytes_total"] > metrics["dram_bytes"]  # with the host copies
    assert r.layers is None  # a sample kernel has no layers


def test_run_checks_data_and_keeps_a_trace(tmp_path):
    r = npuvp.run("add", platform="ascend910", mode="timed", trace=str(tmp_path / "t.json"))
    assert r.passed is True
    assert "bit for bit" in r.detail
    assert json.loads((tmp_path / "t.json").read_text())


def test_failed_run_raises_with_npuvps_message():
    with pytest.raises(npuvp.RunError, match=r"l2.line_bytes must be a power of two.*got 100") as e:
        npuvp.run("add", platform="ascend910b", set={"l2.line_bytes": 100}, mode="perf")
    assert e.value.returncode == 1
    with pytest.raises(npuvp.RunError, match="unknown kernel 'nosuch'"):
        npuvp.run("nosuch")


def test_per_layer_table_when_the_stats_have_layers():
    # The shape a model run's --stats gives: a list of rows, or rows keyed by layer name.
    rows = [{"layer": "conv1", "op": "Conv", "cycles": 900, "flops": 1e6, "bytes": 4096,
             "time": {"cube_cycles": 600, "vector_cycles": 100}},
            {"layer": "relu1", "op": "Relu", "cycles": 100, "flops": 0, "bytes": 2048}]
    df = api.layers_frame({"layers": rows})
    assert list(df["layer"]) == ["conv1", "relu1"]
    assert df.loc[0, "time.cube_cycles"] == 600
    keyed = api.layers_frame({"layers": {"conv1": {"op": "Conv", "cycles": 900}}})
    assert keyed.loc[0, "layer"] == "conv1" and keyed.loc[0, "cycles"] == 900
    assert api.layers_frame({"aic0": {}}) is None


def test_per_layer_table_of_an_onnx_run():
    # The ONNX runtime's counters (stats["onnx"]["layerNNNN"][name]) and its printed table.
    stats = {"onnx": {"layer0000": {"conv1": {"cycles": 900, "flops": 1000000, "bytes": 4096,
                                              "roofline_permille": 412}},
                      "layer0001": {"relu1": {"cycles": 100, "flops": 0, "bytes": 2048, "roofline_permille": 88}}}}
    head = "{:<24} {:<18} {:<20} {:>12} {:>9} {:>9} {:<8} {:>9}".format(
        "layer", "op", "shape", "cycles", "TFLOPS", "GB/s", "bound", "roofline")
    row = "{:<24} {:<18} {:<20} {:>12} {:>9.3f} {:>9.1f} {:<8} {:>8.1f}%"
    stdout = "\n".join([head, row.format("conv1", "Conv", "1x64x56x56", 900, 2.0, 8.2, "cube", 41.2),
                         row.format("relu1", "Relu", "1x64x56x56", 100, 0.0, 36.9, "memory", 8.8),
                         "{:<24} {:<18} {:<20} {:>12}".format("total", "", "", 1000), "simulated: ..."])
    df = api.layers_frame(stats, stdout)
    assert list(df["layer"]) == ["conv1", "relu1"]
    assert list(df["op"]) == ["Conv", "Relu"] and list(df["bound"]) == ["cube", "memory"]
    assert list(df["cycles"]) == [900, 100] and df.loc[0, "roofline_permille"] == 412
    assert df.loc[0, "shape"] == "1x64x56x56" and df.loc[1, "roofline_percent"] == 8.8


def test_cli_override_names_the_binary(monkeypatch):
    monkeypatch.setenv("NPUVP_CLI", "/nonexistent/npuvp")
    with pytest.raises(npuvp.RunError, match="cannot run /nonexistent/npuvp"):
        npuvp.platforms()


def _env_without_overrides():
    env = dict(os.environ)
    env.pop("NPUVP_CLI", None)
    env.pop("PYTHONPATH", None)
    return env


def test_binary_and_package_find_each_other_in_build_and_install_layouts(tmp_path):
    import shutil
    import sys
    package = os.path.dirname(npuvp.__file__)
    env = _env_without_overrides()
    # Build tree: <build>/python/npuvp beside <build>/npuvp.
    found = subprocess.run([sys.executable, "-c", "import npuvp; print(npuvp.cli_path())"],
                           env=dict(env, PYTHONPATH=os.path.dirname(package)), stdout=subprocess.PIPE,
                           text=True, check=True).stdout.strip()
    assert os.path.samefile(found, os.path.join(os.path.dirname(package), "..", "npuvp"))
    # Install: <prefix>/bin/npuvp and <prefix>/lib/python3/dist-packages/npuvp.
    prefix = tmp_path / "prefix"
    site = prefix / "lib" / "python3" / "dist-packages"
    shutil.copytree(package, site / "npuvp", ignore=shutil.ignore_patterns("*.so", "__pycache__", "tik"))
    (prefix / "bin").mkdir()
    shutil.copy(CLI, prefix / "bin" / "npuvp")
    found = subprocess.run([sys.executable, "-c", "import npuvp; print(npuvp.cli_path())"],
                           env=dict(env, PYTHONPATH=str(site)), stdout=subprocess.PIPE, text=True,
                           check=True).stdout.strip()
    assert found == str(prefix / "bin" / "npuvp")
    # ... and the installed binary hands `sweep` to the installed package.
    p = subprocess.run([str(prefix / "bin" / "npuvp"), "sweep", "--results", str(tmp_path / "none.sqlite"),
                        "--export", "csv"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 2 and "no results file" in p.stderr
