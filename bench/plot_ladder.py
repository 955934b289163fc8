#!/usr/bin/env python3
"""Plots for the ladder walk-through (docs/ladder.md) from `xpose bench --json` and `xpose profile --json` files.

Usage:
  python3 bench/plot_ladder.py --bench bench/results/bench_h100.json \
      --profile bench/results/profile_8192_f64_h100.json --out docs/img
Writes (each only when its input is given):
  <prefix>_bandwidth.png  GB/s of every kernel at one shape, against memcpy of the same bytes
  <prefix>_sweep.png      GB/s against matrix size, one line per kernel (when the bench has several sizes)
  <prefix>_counters.png   DRAM bytes / ideal, sectors per request, bank conflicts, DRAM GB/s and % of peak
"""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only; no display on the GPU machine or in CI
import matplotlib.pyplot as plt  # noqa: E402

LADDER_ORDER = ["memcpy", "copy", "naive_read", "naive_write", "tiled", "tiled_padded", "geam", "tiled_vec", "auto"]


class InputError(Exception):
    pass


def load(path, tool):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {path}: {e}")
    if data.get("tool") != tool or "records" not in data:
        raise InputError(f"{path} is not an `{tool} --json` file (tool: {data.get('tool')!r})")
    return data


def order_key(kernel):
    return (LADDER_ORDER.index(kernel) if kernel in LADDER_ORDER else len(LADDER_ORDER), kernel)


def device_name(data):
    return (data.get("device") or {}).get("name", "unknown GPU")


def number(value):
    """A JSON number, or NaN for null/missing (skipped kernels, counters ncu did not report)."""
    return float(value) if isinstance(value, (int, float)) else math.nan


def pick_shape(records, wanted):
    shapes = sorted({(r["rows"], r["cols"]) for r in records}, key=lambda s: s[0] * s[1])
    if not shapes:
        raise InputError("the bench file has no records")
    if wanted is None:
        return shapes[-1]
    try:
        rows, cols = (int(x) for x in wanted.lower().split("x"))
    except ValueError:
        raise InputError(f"--shape {wanted!r}: expected ROWSxCOLS")
    if (rows, cols) not in shapes:
        raise InputError(f"--shape {wanted}: not in the bench file (has {', '.join(f'{r}x{c}' for r, c in shapes)})")
    return rows, cols


def plot_bandwidth(bench, shape, path):
    rows, cols = shape
    recs = [r for r in bench["records"] if (r["rows"], r["cols"]) == shape and r.get("verification") != "SKIPPED"]
    recs.sort(key=lambda r: order_key(r["kernel"]))
    memcpy = next((r for r in recs if r["kernel"] == "memcpy"), None)
    kernels = [r for r in recs if r["kernel"] != "memcpy"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bars = ax.bar([r["kernel"] for r in kernels], [number(r["gbps"]) for r in kernels], color="tab:blue")
    for bar, r in zip(bars, kernels):
        ax.annotate(f"{number(r.get('pct_of_copy')):.0f}%", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=8)
    if memcpy is not None:
        ax.axhline(number(memcpy["gbps"]), color="tab:red", linestyle="--",
                   label=f"memcpy {number(memcpy['gbps']):.0f} GB/s")
        ax.legend(loc="upper right")
    tallest = max([number(r["gbps"]) for r in recs if not math.isnan(number(r["gbps"]))] or [1.0])
    ax.set_ylim(0, 1.2 * tallest)  # room for the labels and the legend above the bars
    dtype = kernels[0]["dtype"] if kernels else ""
    ax.set_title(f"Transpose {rows} x {cols} {dtype} on {device_name(bench)} (labels: % of memcpy)")
    ax.set_ylabel("GB/s (bytes read + written)")
    ax.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_sweep(bench, path):
    recs = [r for r in bench["records"] if r.get("verification") != "SKIPPED"]
    shapes = sorted({(r["rows"], r["cols"]) for r in recs}, key=lambda s: s[0] * s[1])
    if len(shapes) < 2:
        return False
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for kernel in sorted({r["kernel"] for r in recs}, key=order_key):
        pts = sorted(((r["rows"] * r["cols"], number(r["gbps"])) for r in recs if r["kernel"] == kernel))
        style = dict(color="tab:red", linestyle="--") if kernel == "memcpy" else dict(marker="o")
        ax.plot([math.sqrt(p[0]) for p in pts], [p[1] for p in pts], label=kernel, **style)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sqrt(rows x cols)")
    ax.set_ylabel("GB/s (bytes read + written)")
    ax.set_title(f"Transpose bandwidth by size on {device_name(bench)}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def grouped_bars(ax, names, series, width=0.38):
    for i, (label, values) in enumerate(series):
        offset = (i - (len(series) - 1) / 2) * width
        ax.bar([x + offset for x in range(len(names))], values, width, label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=20, fontsize=8)


def plot_counters(profile, path):
    recs = sorted((r for r in profile["records"] if not r.get("skipped")), key=lambda r: order_key(r["kernel"]))
    if not recs:
        raise InputError("the profile file has no profiled kernels")
    names = [r["kernel"] for r in recs]
    esize = recs[0].get("element_bytes", 0)
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))

    ax = axes[0][0]
    grouped_bars(ax, names, [("read", [number(r["read_ratio"]) for r in recs]),
                             ("write", [number(r["write_ratio"]) for r in recs])])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ratios = [number(r[k]) for r in recs for k in ("read_ratio", "write_ratio")]
    ax.set_ylim(0, 1.3 * max([v for v in ratios if not math.isnan(v)] or [1.0]))
    ax.set_title("DRAM bytes / ideal (1 = each byte once)")
    ax.legend(fontsize=8, ncol=2, loc="upper left")

    ax = axes[0][1]
    grouped_bars(ax, names, [("loads", [number(r["load_sectors_per_request"]) for r in recs]),
                             ("stores", [number(r["store_sectors_per_request"]) for r in recs])])
    if esize:
        ax.axhline(esize, color="tab:green", linestyle=":", label=f"contiguous {esize}-byte accesses ({esize})")
    ax.axhline(32, color="tab:red", linestyle=":", label="one sector per thread (32)")
    ax.set_ylim(0, 48)  # the legend sits above the 32 line
    ax.set_title("global sectors per request")
    ax.legend(fontsize=7, ncol=2, loc="upper left")

    ax = axes[1][0]
    grouped_bars(ax, names, [("loads", [number(r["smem_load_bank_conflicts"]) for r in recs]),
                             ("stores", [number(r["smem_store_bank_conflicts"]) for r in recs])])
    ax.set_yscale("symlog", linthresh=1)  # zeros stay visible next to tens of millions
    ax.set_title("shared-memory bank conflicts")
    ax.legend(fontsize=8)

    ax = axes[1][1]
    gbps = [number(r["dram_gbps"]) for r in recs]
    bars = ax.bar(names, gbps, color="tab:blue")
    for bar, r in zip(bars, recs):
        pct = number(r.get("pct_of_peak"))
        if not math.isnan(pct):
            ax.annotate(f"{pct:.0f}%", (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                        va="bottom", fontsize=8)
    peak = next((number(r["peak_gbps"]) for r in recs if r.get("peak_gbps") is not None), math.nan)
    if not math.isnan(peak):
        ax.axhline(peak, color="tab:red", linestyle="--", label=f"DRAM peak {peak:.0f} GB/s")
        ax.set_ylim(0, 1.2 * peak)
        ax.legend(fontsize=8, loc="upper left")
    ax.set_title("achieved DRAM GB/s (labels: % of peak)")
    ax.tick_params(axis="x", rotation=20, labelsize=8)

    fig.suptitle(f"Nsight Compute counters, {profile.get('rows')} x {profile.get('cols')} {profile.get('dtype')} "
                 f"on {device_name(profile)}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", help="JSON written by `xpose bench --json`")
    p.add_argument("--profile", help="JSON written by `xpose profile --json`")
    p.add_argument("--out", default=".", help="folder for the PNG files (default: .)")
    p.add_argument("--prefix", default="ladder", help="file name prefix (default: ladder)")
    p.add_argument("--shape", help="ROWSxCOLS of the bench case to plot as bars (default: the largest)")
    args = p.parse_args(argv)
    if not args.bench and not args.profile:
        p.error("give --bench, --profile or both")
    try:
        os.makedirs(args.out, exist_ok=True)
        written = []
        if args.bench:
            bench = load(args.bench, "xpose bench")
            shape = pick_shape(bench["records"], args.shape)
            path = os.path.join(args.out, f"{args.prefix}_bandwidth.png")
            plot_bandwidth(bench, shape, path)
            written.append(path)
            path = os.path.join(args.out, f"{args.prefix}_sweep.png")
            if plot_sweep(bench, path):
                written.append(path)
        if args.profile:
            profile = load(args.profile, "xpose profile")
            path = os.path.join(args.out, f"{args.prefix}_counters.png")
            plot_counters(profile, path)
            written.append(path)
    except (InputError, OSError) as e:
        print(f"plot_ladder: error: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
