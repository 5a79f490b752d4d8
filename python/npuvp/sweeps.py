"""Sweeps: a study's points run on a local pool or a Dask cluster, each finished point
written at once to an SQLite results file, so a stopped sweep resumes where it was.

A study (JSON or a dict):
  {"name": "quick",
   "workloads": ["matmul", {"workload": "add", "scale": 2}],
   "platforms": ["ascend910b"],
   "mode": "perf",
   "set": {"sim.watchdog_seconds": 60},               fixed overrides on every point
   "grid": {"l2.line_bytes": [128, 256, 512], ...},     every combination
   "random": {"samples": 8, "seed": 1,                  seeded draws
              "space": {"dram.channel_gbps": {"min": 10, "max": 50, "log": true},
                        "l2.line_bytes": [128, 256, 512]}},
   "points": [{"l2.line_bytes": 128}, ...],             explicit points
   "metrics": ["cycles", "dram_gbps", "aic0.M.busy_cycles"]}
The parameter points are the grid's, then the random ones, then the listed ones (a study with
none of them has one point: the platform as it is); every point runs on every workload and
platform.
"""
import hashlib
import itertools
import json
import os
import random
import socket
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import api

# The simulated figures: the same point gives the same values anywhere (wall_s, the host's
# time, is a metric to ask for, not a default).
DEFAULT_METRICS = ["cycles", "sim_us", "passed", "cube_tflops", "cube_peak_tflops", "cube_util", "dram_gbps",
                   "dram_peak_gbps", "dram_util", "l2_hit_rate", "dram_bytes", "flops", "intensity"]


class StudyError(ValueError):
    pass


def load_study(study):
    if isinstance(study, dict):
        return dict(study)
    with open(study) as f:
        try:
            s = json.load(f)
        except ValueError as e:
            raise StudyError(f"{study}: not a JSON study: {e}")
    s.setdefault("name", os.path.splitext(os.path.basename(str(study)))[0])
    return s


def _workload(w):
    if isinstance(w, str):
        return {"workload": w}
    if isinstance(w, dict) and "workload" in w:
        unknown = set(w) - {"workload", "scale", "blocks"}
        if unknown:
            raise StudyError(f"study: workload {w['workload']}: unknown keys {sorted(unknown)} "
                             "(workload, scale, blocks)")
        return dict(w)
    raise StudyError(f"study: a workload is a name or {{\"workload\": NAME, \"scale\": S, \"blocks\": B}}, got {w!r}")


def _draw(rng, name, spec):
    if isinstance(spec, list):
        return rng.choice(spec)
    if isinstance(spec, dict) and "min" in spec and "max" in spec:
        lo, hi = spec["min"], spec["max"]
        if spec.get("log"):
            import math
            v = math.exp(rng.uniform(math.log(lo), math.log(hi)))
        else:
            v = rng.uniform(lo, hi)
        if spec.get("int") or (isinstance(lo, int) and isinstance(hi, int) and not spec.get("log")):
            return int(round(v))
        return round(v, 6)
    raise StudyError(f"study: random space of '{name}' is a list of values or {{min, max[, log, int]}}")


def parameter_points(study):
    points = []
    grid = study.get("grid") or {}
    if grid:
        names = list(grid)
        for values in itertools.product(*(grid[n] for n in names)):
            points.append(dict(zip(names, values)))
    rnd = study.get("random")
    if rnd:
        rng = random.Random(rnd.get("seed", 0))
        space = rnd.get("space") or {}
        for _ in range(int(rnd.get("samples", 0))):
            points.append({n: _draw(rng, n, space[n]) for n in space})
    for p in study.get("points") or []:
        if not isinstance(p, dict):
            raise StudyError(f"study: a point is an object of parameter values, got {p!r}")
        points.append(dict(p))
    return points or [{}]


def point_key(version, workload, platform, params, mode):
    """The identity of a point: the same run gives the same figures."""
    text = json.dumps({"version": version, "workload": workload, "platform": platform,
                       "params": params, "mode": mode}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def expand(study):
    """Every run of a study: dicts of key, workload (dict), platform, params, mode, metrics."""
    study = load_study(study)
    for field in ("workloads", "platforms"):
        if not isinstance(study.get(field), list) or not study[field]:
            raise StudyError(f"study: '{field}' must be a non-empty list")
    unknown = set(study) - {"name", "description", "workloads", "platforms", "mode", "set", "grid",
                            "random", "points", "metrics"}
    if unknown:
        raise StudyError(f"study: unknown keys {sorted(unknown)}")
    mode = study.get("mode", "perf")
    fixed = study.get("set") or {}
    metrics = study.get("metrics") or DEFAULT_METRICS
    version = api.version()
    runs = []
    for w in study["workloads"]:
        w = _workload(w)
        for platform in study["platforms"]:
            for p in parameter_points(study):
                params = dict(fixed, **p)
                runs.append({"key": point_key(version, w, platform, params, mode), "workload": w,
                             "platform": platform, "params": params, "mode": mode, "metrics": metrics})
    return study, runs


# Exit statuses of a process ended by SIGHUP, SIGINT, SIGKILL or SIGTERM (npuvp exits
# 128 + signal after writing what ran; Python reports -signal for an uncaught one).
_INTERRUPTED = {-1, -2, -9, -15, 129, 130, 137, 143}


def check_parameters(runs):
    """Every parameter a study sets exists on its platform (one `npuvp info` per platform), so a
    misspelt name stops the sweep before it starts instead of failing every point."""
    names = {}
    for r in runs:
        names.setdefault(r["platform"], set()).update(r["params"])
    for platform, wanted in names.items():
        try:
            known = api.params(platform)
        except api.RunError as e:
            if e.returncode is None:
                return  # no npuvp on this machine (a Dask client only): the workers' runs tell
            raise StudyError(f"study: platform '{platform}': {e}")
        unknown = sorted(wanted - set(known))
        if unknown:
            raise StudyError(f"study: {', '.join(unknown)}: no such parameter on {platform} "
                             f"(`npuvp info {platform}` lists them)")


def run_point(point):
    """Runs one point (in a pool thread or on a Dask worker); never raises: a failure is a
    result with its error."""
    started = time.time()
    w = point["workload"]
    out = {"key": point["key"], "host": socket.gethostname()}
    try:
        r = api.run(w["workload"], platform=point["platform"], set=point["params"], mode=point["mode"],
                    scale=w.get("scale"), blocks=w.get("blocks"))
        metrics = {}
        for name in point["metrics"]:
            try:
                metrics[name] = r.metric(name)
            except KeyError:
                metrics[name] = None
        out.update(status="ok", metrics=metrics, error=None)
    except api.RunError as e:
        # A run stopped by a signal (Ctrl-C, kill, a machine shutting down) says nothing about
        # the point: left unrecorded, it runs again on resume.
        status = "interrupted" if e.returncode in _INTERRUPTED else "failed"
        out.update(status=status, metrics=None, error=str(e))
    except Exception as e:  # recorded, not raised: one bad point does not stop a sweep
        out.update(status="failed", metrics=None, error=str(e) or type(e).__name__)
    out["seconds"] = time.time() - started
    return out


_SCHEMA = """
CREATE TABLE IF NOT EXISTS points (
  key TEXT PRIMARY KEY,
  study TEXT, version TEXT, workload TEXT, platform TEXT, mode TEXT,
  params TEXT,      -- JSON {parameter: value}, the workload's scale/blocks included
  status TEXT,      -- ok or failed
  metrics TEXT,     -- JSON {metric: value}
  error TEXT,
  seconds REAL, host TEXT, finished REAL
)"""


def open_results(path):
    # Shared by the pool's threads, one at a time (sweep's lock).
    db = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(_SCHEMA)
    return db


def _flat_params(point):
    params = dict(point["params"])
    for extra in ("scale", "blocks"):
        if extra in point["workload"]:
            params[extra] = point["workload"][extra]
    return params


def record(db, study_name, point, outcome):
    """One point, one transaction: committed before the next is looked at."""
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT OR REPLACE INTO points VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
               (point["key"], study_name, api.version(), point["workload"]["workload"], point["platform"],
                point["mode"], json.dumps(_flat_params(point), sort_keys=True), outcome["status"],
                json.dumps(outcome["metrics"]) if outcome["metrics"] is not None else None,
                outcome["error"], outcome["seconds"], outcome["host"], time.time()))
    db.execute("COMMIT")


def finished_keys(db, retry_failed=False):
    q = "SELECT key FROM points" + (" WHERE status = 'ok'" if retry_failed else "")
    return {k for (k,) in db.execute(q)}


class Progress:
    """done/failed/remaining and an ETA, on one line of stderr (a line per report when stderr
    is not a terminal, at most every few seconds)."""

    def __init__(self, total, skipped, enabled=True, stream=None):
        self.total, self.skipped, self.enabled = total, skipped, enabled
        self.stream = stream or sys.stderr
        self.done = self.failed = self.lost = 0
        self.started = time.monotonic()
        self.last = 0.0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, status, final=False):
        if status == "ok":
            self.done += 1
        elif status == "failed":
            self.failed += 1
        elif status is not None:
            self.lost += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and not self.tty and now - self.last < 5.0:
            return
        self.last = now
        finished = self.done + self.failed + self.lost
        remaining = self.total - self.skipped - finished
        elapsed = now - self.started
        eta = elapsed / finished * remaining if finished else float("nan")
        eta_text = "--:--" if eta != eta else f"{int(eta) // 60}:{int(eta) % 60:02d}"
        line = (f"sweep: {self.done} done, {self.failed} failed, {remaining} remaining"
                f"{f' ({self.skipped} already in the results)' if self.skipped else ''}"
                f"{f', {self.lost} not finished (run again to resume them)' if self.lost else ''}, "
                f"elapsed {int(elapsed) // 60}:{int(elapsed) % 60:02d}, ETA {eta_text}")
        if self.tty:
            self.stream.write("\r" + line + "\x1b[K" + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def sweep(study, results, jobs=None, client=None, progress=True, retry_failed=False):
    """Runs the study's points not yet in `results` (an SQLite file) and returns the table of
    all its finished points (pandas). jobs: local processes at once (default: all cores);
    client: a distributed.Client or a scheduler address ("tcp://host:8786") to run on Dask
    instead. Failed points are recorded with their error and retried only with retry_failed."""
    study, runs = expand(study)
    db = open_results(results)
    try:
        have = finished_keys(db, retry_failed)
        todo = [p for p in runs if p["key"] not in have]
        if todo:
            check_parameters(todo)
        bar = Progress(len(runs), len(runs) - len(todo), progress)
        by_key = {p["key"]: p for p in todo}
        name = study.get("name", "")

        lock = threading.Lock()

        def finish(o):
            with lock:
                if o["status"] in ("ok", "failed"):  # one transaction each, at once
                    record(db, name, by_key[o["key"]], o)
                bar.update(o["status"])

        def run_and_record(p):
            # Recorded by the thread that ran it, before it takes the next point: a sweep killed
            # at any moment has lost only the runs in flight (at most `jobs` of them).
            finish(run_point(p))

        if client is not None:
            _run_dask(client, todo, finish)
        elif todo:
            pool = ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1)
            try:
                futures = [pool.submit(run_and_record, p) for p in todo]
                for f in as_completed(futures):
                    f.result()
            finally:
                # On Ctrl-C: the points not started are dropped, the running ones end with
                # the signal npuvp got too (and stay unrecorded).
                pool.shutdown(wait=True, cancel_futures=True)
        bar.update(None, final=True)
    finally:
        db.close()
    return table(results, keys={p["key"] for p in runs})


def _run_dask(client, todo, finish):
    from distributed import Client, as_completed as dask_completed
    if not todo:  # a finished sweep needs no cluster
        return
    own = isinstance(client, str)
    if own:
        client = Client(client)
    try:
        by_key = {p["key"]: p for p in todo}
        # pure=False: a point is run where and when the scheduler says, never served from a
        # cache of an earlier identical call; key= names the task after the point.
        futures = [client.submit(run_point, p, pure=False, key=f"npuvp-{p['key']}") for p in todo]
        for f in dask_completed(futures):
            try:
                o = f.result()
            except Exception as e:  # a lost worker, a task the cluster gave up on: not the point's
                o = {"key": f.key[len("npuvp-"):], "status": "lost", "metrics": None,
                     "error": f"dask: {e}", "seconds": 0.0, "host": ""}
                print(f"sweep: point {o['key']} not run: {o['error']}", file=sys.stderr)
            if o["key"] in by_key:
                finish(o)
    finally:
        if own:
            client.close()


def table(results, keys=None, failed=False):
    """The results file as a DataFrame: one row per finished point (failed ones with failed=True),
    one column per parameter and metric."""
    import pandas as pd
    db = open_results(results)
    try:
        rows = db.execute("SELECT key, study, workload, platform, mode, params, status, metrics, error "
                          "FROM points ORDER BY workload, platform, params").fetchall()
    finally:
        db.close()
    records, param_names, metric_names = [], [], []
    for key, study, workload, platform, mode, params, status, metrics, error in rows:
        if keys is not None and key not in keys:
            continue
        if status != "ok" and not failed:
            continue
        params = json.loads(params)
        metrics = json.loads(metrics) if metrics else {}
        for n in params:
            if n not in param_names:
                param_names.append(n)
        for n in metrics:
            if n not in metric_names:
                metric_names.append(n)
        rec = {"workload": workload, "platform": platform, "mode": mode}
        rec.update(params)
        rec.update(metrics)
        if failed:
            rec.update(status=status, error=error)
        records.append(rec)
    columns = ["workload", "platform", "mode"] + sorted(param_names) + metric_names
    if failed:
        columns += ["status", "error"]
    df = pd.DataFrame(records, columns=columns)
    df = df.sort_values(["workload", "platform"] + sorted(param_names), kind="stable").reset_index(drop=True)
    df.attrs["parameters"] = sorted(param_names)
    df.attrs["metrics"] = metric_names
    return df

