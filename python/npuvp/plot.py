"""Plots of runs and sweeps (matplotlib, Agg: files, no display): sweep curves, rooflines,
per-layer and per-pipe bars, pipe utilisation over time from a trace. Each function draws one
figure, writes it when `out` is given (the format from its extension: .png, .svg, .pdf) and
returns it."""
import json
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# SVG text stays text (searchable, and smaller than glyph outlines).
matplotlib.rcParams["svg.fonttype"] = "none"

from . import api  # noqa: E402


def _save(fig, out):
    if out:
        fig.savefig(out, dpi=110, bbox_inches="tight")
    return fig


def _label(name):
    return name.replace("_", " ")


def _values_as_ticks(ax, values):
    values = sorted(set(values))
    if 1 < len(values) <= 12 and all(isinstance(v, (int, float)) for v in values):
        ax.set_xticks(values)
        ax.set_xticklabels([f"{v:g}" for v in values])


def sweep(df, x, y, hue=None, facet=None, out=None, title=None):
    """y against x, one line per value of hue, one panel per value of facet (default: per
    workload when the table has several). Points that differ in other parameters are averaged:
    the line is their mean, the band their min..max."""
    for col in (x, y, hue, facet):
        if col and col not in df.columns:
            raise KeyError(f"plot: no column '{col}' in the results (columns: {', '.join(df.columns)})")
    if facet is None and "workload" not in (x, hue) and df["workload"].nunique() > 1:
        facet = "workload"
    panels = sorted(df[facet].unique(), key=str) if facet else [None]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 1.2, 3.6), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        part = df[df[facet] == panel] if facet else df
        groups = part.groupby(hue, sort=True) if hue else [(None, part)]
        for value, g in groups:
            stats = g.groupby(x)[y].agg(["mean", "min", "max"]).sort_index()
            label = f"{hue}={value:g}" if hue and isinstance(value, (int, float)) else (
                f"{hue}={value}" if hue else None)
            line, = ax.plot(stats.index, stats["mean"], marker="o", label=label)
            if (stats["max"] > stats["min"]).any():
                ax.fill_between(stats.index, stats["min"], stats["max"], color=line.get_color(), alpha=0.15)
        _values_as_ticks(ax, part[x])
        ax.set_xlabel(x)
        ax.set_ylabel(_label(y))
        ax.grid(True, alpha=0.3)
        if facet:
            ax.set_title(f"{facet} = {panel}")
        if hue:
            ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return _save(fig, out)


def roofline(points, out=None):
    """One panel per platform: the roofs (peak cube TFLOPS; DRAM bandwidth x intensity) and
    each kernel or layer at its arithmetic intensity (flops per DRAM byte) and achieved
    TFLOPS. points: a DataFrame (a sweep table, or roofline_points of runs) with columns
    platform, label (or workload), flops, dram_bytes, sim_us, cube_peak_tflops, dram_peak_gbps;
    rows without flops or DRAM bytes have no place on it and are left out."""
    df = points.copy()
    missing = {"platform", "flops", "dram_bytes", "sim_us", "cube_peak_tflops", "dram_peak_gbps"} - set(df.columns)
    if missing:
        raise ValueError(f"roofline: the results lack {', '.join(sorted(missing))} (keep these metrics in the study)")
    if "label" not in df.columns:
        df["label"] = df["workload"]
    df = df[(df["flops"] > 0) & (df["dram_bytes"] > 0) & (df["sim_us"] > 0)]
    if df.empty:
        raise ValueError("roofline: no point with both flops and DRAM bytes (vector samples report no flop count)")
    df["intensity"] = df["flops"] / df["dram_bytes"]
    df["tflops"] = df["flops"] / (df["sim_us"] * 1e-6) / 1e12
    platforms = sorted(df["platform"].unique())
    fig, axes = plt.subplots(1, len(platforms), figsize=(5.2 * len(platforms), 4.2), squeeze=False)
    markers = "osD^v<>Px*"
    labels = sorted(df["label"].astype(str).unique())
    for ax, platform in zip(axes[0], platforms):
        part = df[df["platform"] == platform]
        # One roof per configuration the points ran on (a sweep over DRAM bandwidth has several),
        # each point in its roof's colour, one marker per kernel or layer.
        roofs = sorted({(float(a), float(b)) for a, b in zip(part["cube_peak_tflops"], part["dram_peak_gbps"])})
        ridge = [peak * 1e3 / bw for peak, bw in roofs]  # flop per byte where the roofs meet
        lo = min(part["intensity"].min(), min(ridge)) / 8
        hi = max(part["intensity"].max(), max(ridge)) * 8
        xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
        for (peak, bw), color in zip(roofs, plt.rcParams["axes.prop_cycle"].by_key()["color"] * 4):
            ax.plot(xs, [min(peak, x * bw / 1e3) for x in xs], color=color, lw=1.4,
                    label=f"roof: {peak:g} TFLOPS, {bw:g} GB/s")
            on_roof = part[(part["cube_peak_tflops"] == peak) & (part["dram_peak_gbps"] == bw)]
            for label, g in on_roof.groupby(on_roof["label"].astype(str), sort=True):
                ax.scatter(g["intensity"], g["tflops"], color=color, s=24, alpha=0.85,
                           marker=markers[labels.index(label) % len(markers)],
                           label=label if len(roofs) == 1 else f"{label} @ {bw:g} GB/s")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (flop per DRAM byte)")
        ax.set_ylabel("achieved TFLOPS")
        ax.set_title(f"roofline: {platform}")
        ax.grid(True, which="both", alpha=0.25)
        ax.legend(fontsize="small")
    fig.tight_layout()
    return _save(fig, out)


def roofline_points(results, layers=True):
    """Roofline rows of Results: the kernel of each, and its layers when it has some (layer
    rows need flops, bytes and cycles columns)."""
    import pandas as pd
    rows = []
    for r in results:
        m = r.metrics()
        base = {"platform": r.platform, "cube_peak_tflops": m["cube_peak_tflops"],
                "dram_peak_gbps": m["dram_peak_gbps"]}
        rows.append(dict(base, label=str(r.workload), flops=m["flops"], dram_bytes=m["dram_bytes"],
                         sim_us=m["sim_us"]))
        lt = r.layers if layers else None
        if lt is not None and {"flops", "bytes", "cycles"} <= set(lt.columns) and r.clock_mhz:
            for _, row in lt.iterrows():
                rows.append(dict(base, label=str(row.get("op", "layer")), flops=row["flops"],
                                 dram_bytes=row["bytes"], sim_us=row["cycles"] / r.clock_mhz))
    return pd.DataFrame(rows)


def layers(table, out=None, title=None):
    """Where each layer's time goes: stacked bars of its *_cycles columns (cube, vector, MTEs,
    stalls ... as the model run reports them), or its cycles coloured by its bound."""
    df = table.reset_index(drop=True)
    name_col = next((c for c in ("layer", "name", "node") if c in df.columns), None)
    names = df[name_col].astype(str) if name_col else df.index.astype(str)
    parts = [c for c in df.columns if c.endswith("_cycles") and c != "cycles"
             and df[c].dtype.kind in "iuf"]
    fig, ax = plt.subplots(figsize=(7.5, 0.28 * len(df) + 1.6))
    y = range(len(df))
    if parts:
        left = [0.0] * len(df)
        for c in parts:
            ax.barh(y, df[c], left=left, label=_label(c[:-len("_cycles")]))
            left = [a + b for a, b in zip(left, df[c])]
        ax.legend(fontsize="small", loc="lower right")
    else:
        key = "bound" if "bound" in df.columns else ("op" if "op" in df.columns else None)
        kinds = sorted(df[key].astype(str).unique()) if key else [None]
        for kind in kinds:
            sel = df[df[key].astype(str) == kind] if key else df
            ax.barh(list(sel.index), sel["cycles"], label=f"{key}: {kind}" if key else None)
        if key:
            ax.legend(fontsize="small", loc="lower right")
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("cycles")
    ax.set_ylabel("layer")
    ax.set_title(title or "time per layer")
    fig.tight_layout()
    return _save(fig, out)


def pipes(table, out=None, title=None):
    """Where the kernel time goes, per pipe, over the cores that ran blocks: busy, waiting on
    flags, waiting on memory (fractions of the kernel cycles, mean over cores)."""
    df = table[table["blocks"] > 0]
    if df.empty:
        raise ValueError("pipes: no core ran a block")
    cycles = (df["busy_cycles"] / df["busy"]).replace([math.inf], math.nan).dropna()
    total = float(cycles.iloc[0]) if len(cycles) else 1.0
    order = [p for p in ("MTE2", "MTE1", "M", "V", "MTE3", "FIX") if p in set(df["pipe"])]
    order += sorted(set(df["pipe"]) - set(order))
    g = df.groupby("pipe")[["busy_cycles", "flag_stall_cycles", "memory_stall_cycles"]].mean().reindex(order)
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    left = [0.0] * len(g)
    for col, label in (("busy_cycles", "busy"), ("flag_stall_cycles", "waiting on flags"),
                       ("memory_stall_cycles", "waiting on memory")):
        share = [100.0 * v / total for v in g[col]]
        ax.barh(range(len(g)), share, left=left, label=label)
        left = [a + b for a, b in zip(left, share)]
    ax.set_yticks(range(len(g)))
    ax.set_yticklabels(order)
    ax.invert_yaxis()
    ax.set_xlim(0, max(100.0, max(left) * 1.02))
    ax.set_xlabel("% of kernel cycles (mean over active cores)")
    ax.set_ylabel("pipe")
    ax.set_title(title or "pipe time")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3)
    fig.tight_layout()
    return _save(fig, out)


def utilisation(trace, out=None, bins=120, title=None):
    """Per-pipe utilisation over time from a Perfetto trace JSON: in each time bin, the busy
    time of that pipe summed over the cores, divided by the bin and the number of cores that
    use the pipe (flag waits and barriers are not busy)."""
    events = trace
    if isinstance(trace, str):
        with open(trace) as f:
            events = json.load(f)
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    process = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
    thread = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e.get("ph") == "M" and e.get("name") == "thread_name"}
    spans = {}
    cores = {}
    for e in events:
        if e.get("ph") != "X":
            continue
        core = process.get(e["pid"], "")
        if not core.startswith(("aic", "aiv", "core")):
            continue
        if "Wait" in e.get("name", "") or "Barrier" in e.get("name", ""):
            continue  # a pipe waiting on a flag or barrier is not busy
        pipe = thread.get((e["pid"], e.get("tid")), str(e.get("tid")))
        spans.setdefault(pipe, []).append((e["ts"], e["ts"] + e.get("dur", 0.0)))
        cores.setdefault(pipe, set()).add(core)
    if not spans:
        raise ValueError("utilisation: the trace has no pipe activity of any core")
    start = min(s for v in spans.values() for s, _ in v)
    end = max(t for v in spans.values() for _, t in v)
    width = (end - start) / bins or 1.0
    fig, ax = plt.subplots(figsize=(8, 3.8))
    order = [p for p in ("MTE2", "MTE1", "M", "V", "MTE3", "FIX") if p in spans] + \
        sorted(set(spans) - {"MTE2", "MTE1", "M", "V", "MTE3", "FIX"})
    centres = [start + (i + 0.5) * width for i in range(bins)]
    for pipe in order:
        busy = [0.0] * bins
        for s, t in spans[pipe]:
            i = int((s - start) / width)
            while i < bins and start + i * width < t:
                lo, hi = start + i * width, start + (i + 1) * width
                busy[i] += max(0.0, min(hi, t) - max(lo, s))
                i += 1
        n = len(cores[pipe])
        ax.plot(centres, [100.0 * b / (width * n) for b in busy], label=f"{pipe} ({n} cores)", lw=1.2)
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("pipe utilisation (%)")
    ax.set_ylim(0, 105)
    ax.set_title(title or "pipe utilisation over time")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=3)
    fig.tight_layout()
    return _save(fig, out)


def run_plots(result, directory, fmt="png"):
    """The plots of one Result into a folder: pipes, roofline (when it has flops), layers
    (when it has some), utilisation (when it has a trace). Returns the paths written."""
    import os
    os.makedirs(directory, exist_ok=True)
    written = []

    def path(name):
        p = os.path.join(directory, f"{name}.{fmt}")
        written.append(p)
        return p

    title = f"{result.workload} on {result.platform}"
    if len(result.pipes):
        plt.close(pipes(result.pipes, out=path("pipes"), title=f"pipe time: {title}"))
    if result.layers is not None and "cycles" in result.layers.columns:
        plt.close(layers(result.layers, out=path("layers"), title=f"time per layer: {title}"))
    try:
        plt.close(roofline(roofline_points([result]), out=os.path.join(directory, f"roofline.{fmt}")))
        written.append(os.path.join(directory, f"roofline.{fmt}"))
    except ValueError:
        pass  # no flop count (vector samples): no place on a roofline
    if result.trace:
        plt.close(utilisation(result.trace, out=path("utilisation"), title=f"pipe utilisation: {title}"))
    return written


__all__ = ["sweep", "roofline", "roofline_points", "layers", "pipes", "utilisation", "run_plots", "api"]
