"""A 2 x 3 sweep on the local pool and on a Dask LocalCluster on loopback: the same table;
then the CLI's export of it, and a resume that has nothing left to run."""
import io
import json
import os
import subprocess

import pandas as pd

import npuvp
from npuvp import sweeps

STUDY = {
    "name": "two_by_three",
    "workloads": ["add"],
    "platforms": ["ascend910b"],
    "mode": "perf",
    "grid": {"interconnect.link_bytes_per_cycle": [64, 512], "l2.line_bytes": [128, 256, 512]},
    "metrics": ["cycles", "dram_bytes", "l2_hit_rate", "aiv0.MTE2.busy_cycles"],
}


def _sorted(df):
    return df.sort_values(["interconnect.link_bytes_per_cycle", "l2.line_bytes"]).reset_index(drop=True)


def test_local_and_dask_give_the_same_table(tmp_path):
    local = npuvp.sweep(STUDY, str(tmp_path / "local.sqlite"), jobs=2, progress=False)
    assert len(local) == 6
    assert local["cycles"].min() > 0 and local["aiv0.MTE2.busy_cycles"].min() > 0
    # The points differ: the ring width changes the cycles of add.
    assert local["cycles"].nunique() > 1

    from distributed import Client, LocalCluster
    # On loopback TCP, so a client in another process (the CLI's --cluster) reaches it too.
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        with Client(cluster) as client:
            remote = npuvp.sweep(STUDY, str(tmp_path / "dask.sqlite"), client=client, progress=False)
        pd.testing.assert_frame_equal(_sorted(local), _sorted(remote))

        # The command line as the issue spells it, on the same cluster by its address.
        study = tmp_path / "study.json"
        study.write_text(json.dumps(STUDY))
        p = subprocess.run([os.environ["NPUVP_CLI"], "sweep", str(study), "--results", str(tmp_path / "cli.sqlite"),
                            "--cluster", cluster.scheduler_address], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        assert p.returncode == 0, p.stderr
    assert "6 done, 0 failed, 0 remaining" in p.stderr

    # The CLI's export of the results file is the same table.
    out = subprocess.run([os.environ["NPUVP_CLI"], "sweep", "--results", str(tmp_path / "cli.sqlite"),
                          "--export", "csv"], stdout=subprocess.PIPE, text=True, check=True).stdout
    exported = pd.read_csv(io.StringIO(out))
    assert list(exported.columns[:3]) == ["workload", "platform", "mode"]
    assert len(exported) == 6
    columns = ["interconnect.link_bytes_per_cycle", "l2.line_bytes", "cycles", "dram_bytes", "l2_hit_rate",
               "aiv0.MTE2.busy_cycles"]
    pd.testing.assert_frame_equal(_sorted(exported)[columns], _sorted(local)[columns], check_dtype=False)


def test_failed_points_are_recorded_and_do_not_stop_the_sweep(tmp_path):
    study = dict(STUDY, grid={"l2.line_bytes": [100, 256]})  # 100: not a power of two
    results = str(tmp_path / "r.sqlite")
    df = npuvp.sweep(study, results, jobs=2, progress=False)
    assert list(df["l2.line_bytes"]) == [256]
    all_rows = sweeps.table(results, failed=True)
    bad = all_rows[all_rows["status"] == "failed"]
    assert len(bad) == 1
    assert "l2.line_bytes must be a power of two" in bad.iloc[0]["error"]


def test_study_file_through_the_npuvp_cli(tmp_path):
    study = tmp_path / "s.json"
    study.write_text(json.dumps(dict(STUDY, grid={}, points=[{"l2.line_bytes": 128}, {"l2.line_bytes": 512}],
                                     random={"samples": 2, "seed": 3,
                                             "space": {"interconnect.link_bytes_per_cycle": [64, 128, 512]}})))
    _, runs = sweeps.expand(str(study))
    assert len(runs) == 4 and len({r["key"] for r in runs}) == 4
    assert [r["key"] for r in sweeps.expand(str(study))[1]] == [r["key"] for r in runs]  # seeded draws
    # The C++ CLI hands `sweep` to the package: the whole command line as the issue spells it.
    results = tmp_path / "r.sqlite"
    p = subprocess.run([os.environ["NPUVP_CLI"], "sweep", str(study), "--results", str(results), "--jobs", "2"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stderr
    assert "4 done, 0 failed, 0 remaining" in p.stderr
    again = subprocess.run([os.environ["NPUVP_CLI"], "sweep", str(study), "--results", str(results)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
    assert "0 done, 0 failed, 0 remaining (4 already in the results)" in again.stderr


def test_a_misspelt_parameter_stops_the_sweep_before_it_starts(tmp_path):
    import pytest
    study = dict(STUDY, grid={"l2.line_byte": [128, 256]})
    with pytest.raises(sweeps.StudyError, match=r"l2.line_byte: no such parameter on ascend910b"):
        npuvp.sweep(study, str(tmp_path / "r.sqlite"), progress=False)
    assert len(sweeps.table(str(tmp_path / "r.sqlite"), failed=True)) == 0
