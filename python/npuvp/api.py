"""The scripting API: list platforms and parameters, run a workload, read its figures.

Every run is its own `npuvp` process (SystemC elaborates once per process), so runs can go
in parallel and a crash in one cannot take the caller down. The figures come from the same
places a user reads them: the run's summary lines on stdout and its --stats JSON.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from . import __version__


class RunError(RuntimeError):
    """npuvp refused or failed a run; str(e) is npuvp's own error text."""

    def __init__(self, message, command=None, returncode=None, stdout="", stderr=""):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


def cli_path():
    """The npuvp binary: $NPUVP_CLI, else beside the package (build tree: <build>/python/npuvp
    -> <build>/npuvp; install: <prefix>/lib/python3/dist-packages/npuvp -> <prefix>/bin/npuvp),
    else the one on PATH."""
    override = os.environ.get("NPUVP_CLI")
    if override:
        return override
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "npuvp"),
                      os.path.join(here, "..", "..", "..", "..", "bin", "npuvp")):
        candidate = os.path.normpath(candidate)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("npuvp")
    if found:
        return found
    raise RunError("npuvp: the npuvp binary was not found beside the package or on PATH; "
                   "set NPUVP_CLI to its path")


def _call(args, check=True):
    command = [cli_path()] + [str(a) for a in args]
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise RunError(f"cannot run {command[0]}: {e.strerror} (NPUVP_CLI names the npuvp binary)", command)
    if check and proc.returncode != 0:
        raise RunError(_error_text(proc), command, proc.returncode, proc.stdout, proc.stderr)
    return proc


def _error_text(proc):
    """npuvp's error lines, else all of stderr, else the exit status."""
    errors = [l[len("npuvp: error: "):] if l.startswith("npuvp: error: ") else l
              for l in proc.stderr.splitlines() if "error" in l]
    if errors:
        return "\n".join(errors)
    if proc.stderr.strip():
        return proc.stderr.strip()
    if proc.returncode < 0:
        return f"npuvp ended by signal {-proc.returncode}"
    return f"npuvp exited with status {proc.returncode}"


def version():
    """The version the sweep keys name: the package's, which is built from the same tree as
    the binary."""
    return __version__


def platforms():
    """Names of the built-in platforms (as `npuvp list` prints them)."""
    out = _call(["list"]).stdout.splitlines()
    names = []
    in_platforms = False
    for line in out:
        if line.startswith("platforms:"):
            in_platforms = True
        elif not line.startswith("  "):
            in_platforms = False
        elif in_platforms:
            names.append(line.strip())
    return names


def samples():
    """Names of the built-in sample kernels."""
    out = _call(["list"]).stdout.splitlines()
    names, section = [], None
    for line in out:
        if not line.startswith(" "):
            section = line
        elif section and section.startswith("sample kernels"):
            names.append(line.split()[0])
    return names


def params(platform, set=None):
    """Every parameter of a platform as {key: {"value", "source", "description"}}, from
    `npuvp info` (with the given --set overrides applied)."""
    args = ["info", platform]
    for k, v in (set or {}).items():
        args += ["--set", f"{k}={_set_value(v)}"]
    out = _call(args).stdout.splitlines()
    decoder = json.JSONDecoder()
    result = {}
    for line in out[1:]:
        if not line.startswith("  "):
            continue
        key, rest = line.strip().split(None, 1)
        value, end = decoder.raw_decode(rest)
        tail = rest[end:].strip().split(None, 1)
        result[key] = {"value": value, "source": tail[0] if tail else "",
                       "description": tail[1] if len(tail) > 1 else ""}
    return result


def _set_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# The summary lines of `npuvp run` (platforms/run_summary.cpp).
_SIMULATED = re.compile(r"^simulated: (\d+) cycles \(([\d.]+) (\w+) at ([\d.]+) MHz(?:, (\w+) mode)?\)"
                        r"\s+wall: ([\d.]+) s")
_RESULT = re.compile(r"^result: (PASS|FAIL|NOT CHECKED)(?: \((.*)\))?")
_CUBE = re.compile(r"^cube: ([\d.]+) TFLOPS achieved of ([\d.]+) peak")
_DRAM = re.compile(r"^DRAM: ([\d.]+) GB/s achieved of ([\d.]+) GB/s peak(?:.*; ([\d.]+) MB in ([\d.]+) us)?")
_L2 = re.compile(r"^L2: ([\d.]+)% hit rate")
_UNITS = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


class Result:
    """One finished run.

    cycles, seconds (simulated kernel time), clock_mhz, wall_seconds (npuvp's own wall time of
    the simulation), process_seconds (the whole process), passed (True/False, None in perf mode),
    stats (the --stats JSON as a dict), pipes (DataFrame: core, pipe, busy_cycles, busy,
    instructions, bytes, stall cycles), layers (DataFrame or None: the per-layer table of a
    model run), trace (path or None), summary (the figures of the summary lines), stdout."""

    def __init__(self, workload, platform, set, mode, stdout, stats, trace, process_seconds):
        self.workload = workload
        self.platform = platform
        self.set = dict(set or {})
        self.mode = mode
        self.stdout = stdout
        self.stats = stats
        self.trace = trace
        self.process_seconds = process_seconds
        self.summary = _parse_summary(stdout)
        self.cycles = self.summary.get("cycles")
        self.seconds = self.summary.get("seconds")
        self.clock_mhz = self.summary.get("clock_mhz")
        self.wall_seconds = self.summary.get("wall_seconds")
        self.passed = self.summary.get("passed")
        self.detail = self.summary.get("detail", "")
        if self.platform is None:
            m = re.search(r"^npuvp: platform (\S+)", stdout, re.M)
            self.platform = m.group(1) if m else None
        self._pipes = None
        self._layers = None

    @property
    def pipes(self):
        if self._pipes is None:
            self._pipes = pipes_frame(self.stats, self.cycles)
        return self._pipes

    @property
    def layers(self):
        if self._layers is None:
            self._layers = layers_frame(self.stats, self.stdout)
        return self._layers

    def metrics(self):
        """The flat figures a sweep keeps: numbers and flags, no tables."""
        s = self.summary
        # The kernel's own DRAM traffic, as the summary line counts it (the stats' DRAM counters
        # also hold the host copies around the launch).
        dram_bytes = s["dram_gbps"] * 1e9 * self.seconds if "dram_gbps" in s and self.seconds else 0.0
        if "dram_mb" in s:  # the rate is over a longer time than the kernel's
            dram_bytes = s["dram_mb"] * 1e6
        flops = 2.0 * total_macs(self.stats)
        m = {
            "cycles": self.cycles,
            "sim_us": self.seconds * 1e6 if self.seconds is not None else None,
            "wall_s": self.wall_seconds,
            "passed": self.passed,
            "cube_tflops": s.get("cube_tflops"),
            "cube_peak_tflops": s.get("cube_peak_tflops"),
            "cube_util": _ratio(s.get("cube_tflops"), s.get("cube_peak_tflops")),
            "dram_gbps": s.get("dram_gbps"),
            "dram_peak_gbps": s.get("dram_peak_gbps"),
            "dram_util": _ratio(s.get("dram_gbps"), s.get("dram_peak_gbps")),
            "l2_hit_rate": s.get("l2_hit_rate"),
            "dram_bytes": dram_bytes,
            "dram_bytes_total": dram_traffic(self.stats),
            "flops": flops,
            "intensity": flops / dram_bytes if dram_bytes else None,
        }
        busy = self.pipes
        if len(busy):
            for pipe, mean in busy[busy.blocks > 0].groupby("pipe")["busy"].mean().items():
                m[f"busy_{pipe}"] = float(mean)
        return m

    def metric(self, name):
        """A metric of metrics(), or any number in the stats by its dotted path
        ("aic0.M.busy_cycles")."""
        m = self.metrics()
        if name in m:
            return m[name]
        node = self.stats
        for part in name.split("."):
            if not isinstance(node, dict) or part not in node:
                raise KeyError(f"no metric or statistic '{name}'")
            node = node[part]
        return node

    def __repr__(self):
        return (f"Result({self.workload} on {self.platform}, {self.cycles} cycles, "
                f"passed={self.passed})")


def _ratio(a, b):
    return a / b if a is not None and b else None


def _parse_summary(stdout):
    s = {}
    for line in stdout.splitlines():
        m = _SIMULATED.match(line)
        if m:
            s["cycles"] = int(m.group(1))
            s["clock_mhz"] = float(m.group(4))
            # From the cycles, not the rounded time the line prints.
            s["seconds"] = s["cycles"] / (s["clock_mhz"] * 1e6) if s["clock_mhz"] else \
                float(m.group(2)) * _UNITS.get(m.group(3), 0.0)
            s["wall_seconds"] = float(m.group(6))
            continue
        m = _RESULT.match(line)
        if m:
            s["passed"] = None if m.group(1) == "NOT CHECKED" else m.group(1) == "PASS"
            s["detail"] = m.group(2) or ""
            continue
        m = _CUBE.match(line)
        if m:
            s["cube_tflops"], s["cube_peak_tflops"] = float(m.group(1)), float(m.group(2))
            continue
        m = _DRAM.match(line)
        if m:
            s["dram_gbps"], s["dram_peak_gbps"] = float(m.group(1)), float(m.group(2))
            if m.group(3):  # the kernel's posted DRAM traffic ended after it (rate over that time)
                s["dram_mb"], s["dram_us"] = float(m.group(3)), float(m.group(4))
            continue
        m = _L2.match(line)
        if m:
            s["l2_hit_rate"] = float(m.group(1)) / 100.0
    return s


def _cores(stats):
    """(name, per-core stats) of every core in a stats dict: entries with pipe sub-dicts."""
    for name, node in (stats or {}).items():
        if isinstance(node, dict) and "blocks" in node and isinstance(node.get("S"), dict):
            yield name, node


def total_macs(stats):
    return sum(core.get("M", {}).get("macs", 0) for _, core in _cores(stats))


def dram_traffic(stats):
    soc = (stats or {}).get("soc", {})
    return sum(v.get("bytes_read", 0) + v.get("bytes_written", 0)
               for k, v in soc.items() if k.startswith("dram") and isinstance(v, dict))


def pipes_frame(stats, cycles):
    """One row per (core, pipe): busy cycles, busy fraction of the kernel cycles,
    instructions, bytes, stall cycles."""
    import pandas as pd
    rows = []
    for core, node in _cores(stats):
        for pipe, p in node.items():
            if not isinstance(p, dict) or "busy_cycles" not in p:
                continue
            stall = p.get("stall", {})
            rows.append({
                "core": core, "pipe": pipe, "blocks": node.get("blocks", 0),
                "busy_cycles": p["busy_cycles"],
                "busy": p["busy_cycles"] / cycles if cycles else None,
                "instructions": p.get("instructions", 0), "bytes": p.get("bytes", 0),
                "flag_stall_cycles": stall.get("flag_cycles", 0),
                "memory_stall_cycles": stall.get("memory_cycles", 0),
            })
    return pd.DataFrame(rows, columns=["core", "pipe", "blocks", "busy_cycles", "busy", "instructions",
                                       "bytes", "flag_stall_cycles", "memory_stall_cycles"])


def layers_frame(stats, stdout=""):
    """The per-layer table of a model run, else None: one row per layer, in order.

    Read from the stats, either stats["layers"] (a list of rows, or rows keyed by layer name;
    nested dicts become dotted columns) or the ONNX runtime's counters
    stats["onnx"]["layerNNNN"][name] = {cycles, flops, bytes, ...}; the op, shape, bound and
    achieved figures of the run's printed layer table (stdout) are joined on by position."""
    import pandas as pd
    stats = stats or {}
    rows = None
    layers = stats.get("layers")
    if layers:
        if isinstance(layers, dict):
            rows = [dict({"layer": name}, **row) for name, row in layers.items()]
        else:
            rows = list(layers)
    onnx = stats.get("onnx")
    if rows is None and isinstance(onnx, dict):
        rows = []
        for index in sorted(k for k in onnx if k.startswith("layer")):
            for name, counters in onnx[index].items():
                rows.append(dict({"layer": name}, **counters))
    printed = _printed_layers(stdout)
    if rows is None:
        rows = printed or None
    elif printed and len(printed) == len(rows):
        for row, extra in zip(rows, printed):
            for k, v in extra.items():
                row.setdefault(k, v)
    if not rows:
        return None
    return pd.json_normalize(rows)


def _printed_layers(stdout):
    """Rows of the layer table `npuvp run MODEL.onnx` prints: the header starts 'layer  op
    shape  cycles', the rows end at 'total'. Columns are fixed-width (24, 18, 20) then
    whitespace-separated."""
    rows, inside = [], False
    for line in (stdout or "").splitlines():
        if not inside:
            inside = line.split()[:4] == ["layer", "op", "shape", "cycles"]
            continue
        if line.startswith("total") or not line.strip():
            break
        rest = line[65:].split()
        if len(rest) < 5:
            break
        try:
            rows.append({"layer": line[:24].strip(), "op": line[25:43].strip(), "shape": line[44:64].strip(),
                         "cycles": int(rest[0]), "tflops": float(rest[1]), "gbps": float(rest[2]),
                         "bound": rest[3], "roofline_percent": float(rest[4].rstrip("%"))})
        except ValueError:
            break
    return rows


def run(workload, platform=None, set=None, mode=None, trace=None, blocks=None, scale=None,
        args=(), stats=None):
    """Run one workload (a sample name, an .onnx model, a TIK kernel_meta JSON) in its own
    npuvp process and return its Result; a refused or failed run raises RunError with
    npuvp's error text. A run whose data check fails returns passed=False.

    set: {parameter: value} (--set); mode: functional, timed or perf; trace: a path for the
    Perfetto trace (True: one beside a temporary stats file, kept); stats: a path to keep the
    stats JSON at (default: a temporary file, read and removed)."""
    tmp = tempfile.mkdtemp(prefix="npuvp-run-")
    stats_path = stats or os.path.join(tmp, "stats.json")
    if trace is True:
        trace = os.path.join(tmp, "trace.json")
    command = ["run", str(workload), "--stats", stats_path]
    if platform:
        command += ["--platform", platform]
    for k, v in (set or {}).items():
        command += ["--set", f"{k}={_set_value(v)}"]
    if mode:
        command += ["--mode", mode]
    if trace:
        command += ["--trace", str(trace)]
    if blocks:
        command += ["--blocks", str(blocks)]
    if scale:
        command += ["--scale", str(scale)]
    command += [str(a) for a in args]
    try:
        started = time.monotonic()
        proc = _call(command, check=False)
        elapsed = time.monotonic() - started
        data_failed = proc.returncode == 1 and re.search(r"^result: FAIL", proc.stdout, re.M) \
            and "error:" not in proc.stderr
        if proc.returncode != 0 and not data_failed:
            raise RunError(_error_text(proc), [cli_path()] + command, proc.returncode, proc.stdout,
                           proc.stderr)
        try:
            with open(stats_path) as f:
                stats_dict = json.load(f)
        except (OSError, ValueError) as e:
            raise RunError(f"npuvp run {workload}: its statistics could not be read: {e}",
                           [cli_path()] + command, proc.returncode, proc.stdout, proc.stderr)
        return Result(workload, platform, set, mode, proc.stdout, stats_dict, trace, elapsed)
    finally:
        if not stats and os.path.exists(os.path.join(tmp, "stats.json")):
            os.remove(os.path.join(tmp, "stats.json"))
        if not os.listdir(tmp):
            os.rmdir(tmp)
