"""A sweep killed with SIGKILL mid-way and resumed: every point finishes, and no point that
had finished before the kill runs again (runs counted by a wrapper npuvp)."""
import collections
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from npuvp import sweeps

STUDY = {
    "workloads": ["add"],
    "platforms": ["ascend910b"],
    "mode": "perf",
    "grid": {"l2.line_bytes": [128, 256, 512], "interconnect.link_bytes_per_cycle": [64, 128, 256, 512]},
    "metrics": ["cycles"],
}
JOBS = 2


def _finished(results):
    if not os.path.exists(results):
        return {}
    try:
        db = sqlite3.connect(results, timeout=5)
        rows = db.execute("SELECT key, params FROM points WHERE status = 'ok'").fetchall()
        db.close()
        return dict(rows)
    except sqlite3.OperationalError:  # the table is not there yet
        return {}


def _point(args):
    """The point an npuvp command line runs: its --set values."""
    sets = sorted(args[i + 1] for i, a in enumerate(args) if a == "--set")
    return tuple(sets)


def _runs(log):
    """The `npuvp run` command lines the wrapper saw (not the `npuvp info` of the parameter check)."""
    return [l.split() for l in log.read_text().splitlines() if l.split()[:1] == ["run"]]


def test_killed_sweep_resumes_without_losing_or_repeating(tmp_path):
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "npuvp"
    wrapper.write_text(f"#!/bin/sh\necho \"$*\" >> {log}\nexec {os.environ['NPUVP_CLI']} \"$@\"\n")
    wrapper.chmod(0o755)
    env = dict(os.environ, NPUVP_CLI=str(wrapper))
    study = tmp_path / "study.json"
    study.write_text(json.dumps(STUDY))
    results = str(tmp_path / "r.sqlite")
    command = [sys.executable, "-m", "npuvp.cli", "sweep", str(study), "--results", results,
               "--jobs", str(JOBS), "--quiet"]
    sweeper = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 120
    while len(_finished(results)) < 3 and time.monotonic() < deadline and sweeper.poll() is None:
        time.sleep(0.02)
    sweeper.send_signal(signal.SIGKILL)
    sweeper.wait()
    before = _finished(results)
    total = len(sweeps.expand(str(study))[1])
    assert 3 <= len(before) < total, "the kill came too late to test a resume"
    time.sleep(1.0)  # the runs in flight at the kill end on their own (orphans)
    runs_before = _runs(log)

    subprocess.run(command, env=env, check=True)
    after = _finished(results)
    assert len(after) == total  # nothing lost
    runs = [_point(args) for args in _runs(log)]
    counts = collections.Counter(runs)
    assert len(counts) == total
    # Nothing repeated: a point finished before the kill ran once, ever; the only second runs
    # are of points that were in flight at the kill (at most JOBS of them).
    finished_points = {tuple(sorted(f"{k}={v}" for k, v in json.loads(p).items())) for p in before.values()}
    for p in finished_points:
        assert counts[p] == 1, p
    assert len(runs) - total <= JOBS
    assert len(runs_before) - len(before) <= JOBS

    # A third call runs nothing.
    subprocess.run(command, env=env, check=True)
    assert len(_runs(log)) == len(runs)


def test_ctrl_c_records_no_point_as_failed(tmp_path):
    study = tmp_path / "study.json"
    study.write_text(json.dumps(STUDY))
    results = str(tmp_path / "r.sqlite")
    command = [sys.executable, "-m", "npuvp.cli", "sweep", str(study), "--results", results, "--jobs", str(JOBS),
               "--quiet"]
    # In its own process group, which a terminal's Ctrl-C signals as a whole (npuvp runs too).
    sweeper = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(_finished(results)) < 2 and time.monotonic() < deadline and sweeper.poll() is None:
        time.sleep(0.02)
    os.killpg(sweeper.pid, signal.SIGINT)
    _, err = sweeper.communicate(timeout=60)
    assert sweeper.returncode == 130, err
    assert "interrupted" in err
    db = sqlite3.connect(results)
    statuses = [s for (s,) in db.execute("SELECT status FROM points")]
    db.close()
    assert statuses and set(statuses) == {"ok"}
    total = len(sweeps.expand(str(study))[1])
    if len(statuses) < total:
        subprocess.run(command, check=True)
        assert len(_finished(results)) == total
