"""The Python subcommands of the npuvp CLI, which hands them here (platforms/cli/python_cli.cpp):

  npuvp sweep STUDY.json --results FILE.sqlite [--cluster tcp://HOST:PORT] [--jobs N]
  npuvp sweep --results FILE.sqlite --export csv
  npuvp plot RESULTS --x PARAM --y METRIC [--hue PARAM] [--facet PARAM] --out FILE.png|svg
  npuvp plot RESULTS --kind roofline|layers|pipes|utilisation --out FILE
  npuvp run WORKLOAD [run options] --plot DIR

Also `python3 -m npuvp.cli ...` with the package on PYTHONPATH.
"""
import argparse
import os
import sys

from . import api


def _error(message, status=1):
    print(f"npuvp: error: {message}", file=sys.stderr)
    return status


def sweep_command(args):
    from . import sweeps as sweep
    if args.study is None and args.export is None:
        return _error("sweep: give a STUDY.json to run or resume, or --export csv to print the results", 2)
    if args.study is not None:
        client = args.cluster
        df = sweep.sweep(args.study, args.results, jobs=args.jobs, client=client,
                         progress=not args.quiet, retry_failed=args.retry_failed)
        failed = sweep.table(args.results, failed=True)
        failed = failed[failed["status"] != "ok"] if len(failed) else failed
        print(f"sweep: {len(df)} points finished in {args.results}"
              + (f", {len(failed)} failed (npuvp sweep --results {args.results} --export csv --failed)"
                 if len(failed) else ""), file=sys.stderr if args.export else sys.stdout)
    if args.export:
        if not os.path.exists(args.results):
            return _error(f"sweep: no results file '{args.results}'", 2)
        df = sweep.table(args.results, failed=args.failed)
        df.to_csv(sys.stdout, index=False)
    return 0


def _load_results(path):
    from . import sweeps as sweep
    import pandas as pd
    if path.endswith(".csv"):
        return pd.read_csv(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no results file '{path}'")
    return sweep.table(path)


def plot_command(args):
    from . import plot
    import json
    kind = args.kind
    if kind is None:
        if args.results.endswith(".json"):
            with open(args.results) as f:
                data = json.load(f)
            is_trace = isinstance(data, list) or "traceEvents" in data
            kind = "utilisation" if is_trace else ("layers" if data.get("layers") else "pipes")
        else:
            kind = "sweep"
    if kind == "sweep":
        if not args.x or not args.y:
            return _error("plot: a sweep plot needs --x PARAM and --y METRIC", 2)
        plot.sweep(_load_results(args.results), args.x, args.y, hue=args.hue, facet=args.facet, out=args.out)
    elif kind == "roofline":
        plot.roofline(_load_results(args.results), out=args.out)
    elif kind == "utilisation":
        plot.utilisation(args.results, out=args.out)
    else:
        with open(args.results) as f:
            stats = json.load(f)
        if kind == "layers":
            table = api.layers_frame(stats)
            if table is None:
                return _error(f"plot: {args.results} has no per-layer table", 2)
            plot.layers(table, out=args.out)
        else:
            # the stats hold no kernel cycles (the run's summary line does): given here
            if not args.cycles:
                return _error("plot: pipes from a stats file need --cycles (the run's simulated cycles)", 2)
            cycles = args.cycles
            plot.pipes(api.pipes_frame(stats, cycles), out=args.out)
    print(f"plot: {args.out}")
    return 0


def run_command(argv):
    """`npuvp run ... --plot DIR`: the run through the API, its summary as npuvp printed it,
    then its plots (a trace is written into DIR unless --trace names one)."""
    p = argparse.ArgumentParser(prog="npuvp run", add_help=False)
    p.add_argument("workload")
    p.add_argument("-p", "--platform")
    p.add_argument("-s", "--set", action="append", default=[])
    p.add_argument("-m", "--mode")
    p.add_argument("--trace")
    p.add_argument("--stats")
    p.add_argument("--blocks", type=int)
    p.add_argument("--scale", type=int)
    p.add_argument("--plot", required=True)
    p.add_argument("--format", default="png", choices=["png", "svg", "pdf"])
    args, rest = p.parse_known_args(argv)
    sets = {}
    for s in args.set:
        if "=" not in s:
            return _error(f"run: --set takes key=value, got '{s}'", 2)
        k, v = s.split("=", 1)
        sets[k] = v
    os.makedirs(args.plot, exist_ok=True)
    trace = args.trace or os.path.join(args.plot, "trace.json")
    stats = args.stats or os.path.join(args.plot, "stats.json")
    result = api.run(args.workload, platform=args.platform, set=sets, mode=args.mode, trace=trace,
                     stats=stats, blocks=args.blocks, scale=args.scale, args=rest)
    sys.stdout.write(result.stdout)
    from . import plot
    for path in plot.run_plots(result, args.plot, fmt=args.format):
        print(f"plot: {path}")
    return 0 if result.passed is not False else 1


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "run":
            return run_command(argv[1:])
        parser = argparse.ArgumentParser(prog="npuvp", description="npuvp's Python subcommands")
        sub = parser.add_subparsers(dest="command", required=True)
        s = sub.add_parser("sweep", help="run or resume a study; export its results")
        s.add_argument("study", nargs="?", help="study JSON (docs/exploring.md)")
        s.add_argument("--results", required=True, help="SQLite results file (created or resumed)")
        s.add_argument("--cluster", help="Dask scheduler address, e.g. tcp://host:8786 (default: local pool)")
        s.add_argument("--jobs", type=int, help="local runs at once (default: all cores)")
        s.add_argument("--export", choices=["csv"], help="print the results table on stdout")
        s.add_argument("--failed", action="store_true", help="--export: also the failed points, with their error")
        s.add_argument("--retry-failed", action="store_true", help="run the points that failed before again")
        s.add_argument("--quiet", action="store_true", help="no progress line")
        pl = sub.add_parser("plot", help="plot sweep results, a trace or a run's stats")
        pl.add_argument("results", help="results .sqlite/.csv, a trace .json or a stats .json")
        pl.add_argument("--x")
        pl.add_argument("--y")
        pl.add_argument("--hue")
        pl.add_argument("--facet")
        pl.add_argument("--kind", choices=["sweep", "roofline", "layers", "pipes", "utilisation"])
        pl.add_argument("--cycles", type=int, help="pipes from a stats file: the kernel cycles")
        pl.add_argument("--out", required=True, help="output file: .png, .svg or .pdf")
        args = parser.parse_args(argv)
        if args.command == "sweep":
            return sweep_command(args)
        return plot_command(args)
    except api.RunError as e:
        return _error(str(e), 1)
    except BrokenPipeError:
        # The reader of stdout went away (`--export csv | head`): as a Unix filter, stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, KeyError, OSError) as e:
        text = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return _error(text, 2)
    except KeyboardInterrupt:
        return _error("interrupted (finished points are in the results file; run again to resume)", 130)


if __name__ == "__main__":
    sys.exit(main())
