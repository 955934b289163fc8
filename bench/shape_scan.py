#!/usr/bin/env python3
"""Shapes beyond the suite: runs `xpose bench --kernels auto` over a broad set of shapes per element
size (squares and near-squares, rectangles, few rows or columns, batches of small matrices, leading
dimensions) and lists them by their ratio to memcpy, worst first, to find where the fast path falls
off. Every result is verified by the CLI against the CPU reference; the ratios are the CLI's (same
process, same timing for memcpy and the transpose).

    python3 bench/shape_scan.py --xpose build-gpu/apps/xpose/xpose --out scan.json [--dtypes u8,f32]

--random N draws N cases instead (seeded, so a run can be repeated): any aspect ratio, odd extents,
batches of small matrices and padded leading dimensions on either side, 8-64 MiB each; with
--kernels auto,tuned it shows where the heuristic planner leaves speed to a kernel it already has.

--offsets 0:0,1:0,0:1,1:1 runs every case once per pair of pointer offsets (input:output, in elements,
the CLI's --offset-in / --offset-out): slices of larger matrices, which take the led plans.

Where both auto and tuned ran, a gap report follows the table: the measured plan's ratio to memcpy over
the automatic plan's per case, its median, and the cases where the measured plan leads by more than 2%,
largest first. --report FILE.json [...] prints that report for scans already run, one summary per file.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ESIZE = {"u8": 1, "bf16": 2, "f32": 4, "f64": 8, "c128": 16}
TARGET_BYTES = 64 << 20  # one matrix (or one batch) of about this size per case


def shapes_for(esize, target=TARGET_BYTES):
    """(rows, cols, batch, ld_in, ld_out) tuples of about `target` bytes; ld 0 = packed."""
    m = target // esize
    n = math.isqrt(m)
    out = [(n, n, 1, 0, 0), (n - 1, n + 1, 1, 0, 0), (n + 7, n - 5, 1, 0, 0),
           (3 * n // 2, 2 * n // 3, 1, 0, 0), (2 * n // 3, 3 * n // 2, 1, 0, 0),
           (n // 4, 4 * n, 1, 0, 0), (4 * n, n // 4, 1, 0, 0), (n // 16, 16 * n, 1, 0, 0), (16 * n, n // 16, 1, 0, 0),
           (1000 * (n // 1000) or n, 1000 * (n // 1000) or n, 1, 0, 0)]
    for k in (2, 4, 5, 7, 8, 12, 16, 17, 24, 33, 40, 48, 64, 100, 128, 256, 500):
        out += [(m // k, k, 1, 0, 0), (k, m // k, 1, 0, 0)]
    for k in (3, 4, 5, 8, 12, 16, 17, 24, 31, 32, 40, 64, 100, 128, 255, 256, 512, 1000):
        b = max(1, m // (k * k))
        out.append((k, k, b, 0, 0))
    out += [(n, n, 1, n + 1, n + 1), (n, n, 1, n + 8, n + 8), (n, n, 1, n + 16, n), (n, n, 1, n, n + 16),
            (n // 2, 2 * n, 1, 2 * n + 3, n // 2 + 5), (n - 3, n + 3, 1, n + 64, n + 61)]
    seen, unique = set(), []
    for s in out:
        if s[0] >= 1 and s[1] >= 1 and s not in seen:
            seen.add(s)
            unique.append(s)
    return unique


# Row padding (elements past the row's end) a random case gives a leading dimension; "x2" doubles it.
RANDOM_PADS = (0, 0, 0, 1, 2, 3, 5, 8, 16, 24, 32, 64, 100, "x2")


def random_shapes(count, seed, dtypes):
    """(dtype, rows, cols, batch, ld_in, ld_out) cases of 8-64 MiB: a quarter each of any aspect ratio,
    near-squares with odd extents, batches of small matrices and padded leading dimensions."""
    rng = random.Random(seed)

    def log_uniform(lo, hi):
        return max(lo, min(hi, int(round(2 ** rng.uniform(math.log2(lo), math.log2(hi))))))

    def padded(extent):
        pad = rng.choice(RANDOM_PADS)
        return 2 * extent if pad == "x2" else extent + pad

    out = []
    while len(out) < count:
        dt = rng.choice(dtypes)
        m = (1 << rng.randint(23, 26)) // ESIZE[dt]  # elements of the case
        kind = rng.randrange(4)
        batch, ld_in, ld_out = 1, 0, 0
        if kind == 1:
            n = math.isqrt(m)
            rows, cols = n + rng.randint(-9, 9), n + rng.randint(-9, 9)
        elif kind == 2:
            rows, cols = log_uniform(2, 1024), log_uniform(2, 1024)
            batch = max(1, m // (rows * cols))
        else:
            rows = log_uniform(1, m)
            cols = max(1, m // rows)
        if kind == 3:
            ld_in, ld_out = padded(cols), padded(rows)
        out.append((dt, rows, cols, batch, ld_in, ld_out))
    return out


def label_of(dtype, rows, cols, batch, ld_in, ld_out, offset_in=0, offset_out=0):
    label = f"{dtype} " + (f"{batch}x" if batch > 1 else "") + f"{rows}x{cols}"
    label += f" ld {ld_in}/{ld_out}" if ld_in != cols or ld_out != rows else ""
    return label + (f" in+{offset_in} out+{offset_out}" if offset_in or offset_out else "")


def tuned_gaps(records):
    """(label, auto record, tuned record) for every case that ran both plans, in the records' order."""
    by_case = collections.OrderedDict()
    for r in records:
        label = label_of(r["dtype"], r["rows"], r["cols"], r["batch"], r["ld_in"], r["ld_out"],
                         r.get("offset_in", 0), r.get("offset_out", 0))
        by_case.setdefault(label, {})[r["kernel"]] = r
    return [(label, k["auto"], k["tuned"]) for label, k in by_case.items() if "auto" in k and "tuned" in k]


def median(values):
    v = sorted(values)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def report_gaps(records, name, top=20):
    """One summary line for `name` and the `top` cases where the measured plan leads by more than 2%:
    lines of (tuned / auto, case, auto and tuned ratios to memcpy, both plans). Returns the lines."""
    pairs = tuned_gaps(records)
    if not pairs:
        return [f"{name}: no case ran both auto and tuned"]
    ratio = lambda r: r["pct_of_copy"] / 100  # noqa: E731
    gaps = sorted(((ratio(t) / ratio(a), label, a, t) for label, a, t in pairs), key=lambda g: -g[0])
    lines = [f"{name}: {len(pairs)} cases, auto median {median(ratio(a) for _, a, _ in pairs):.3f} of memcpy, "
             f"{sum(ratio(a) < 0.8 for _, a, _ in pairs)} under 0.8; tuned / auto median "
             f"{median(g[0] for g in gaps):.3f}, over 1.04 on {sum(g[0] > 1.04 for g in gaps)}"]
    plan = lambda r: r["plan"].split(" block=")[0]  # noqa: E731
    for g, label, a, t in gaps[:top]:
        if g <= 1.02:
            break
        lines.append(f"  {g:.3f}  {label:44s} {ratio(a):.3f} {ratio(t):.3f}  {plan(a)} | {plan(t)}")
    return lines


def parse_offsets(text):
    """'0:0,1:0' -> [(0, 0), (1, 0)]: (input, output) pointer offsets in elements."""
    pairs = []
    for item in text.split(","):
        a, sep, b = item.partition(":")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise argparse.ArgumentTypeError(f"offset pair '{item}' is not IN:OUT in elements")
        pairs.append((int(a), int(b)))
    return pairs


def run_group(xpose, dtype, batch, ld_in, ld_out, offsets, shapes, iters, kernels):
    """One CLI process for the shapes that share dtype, batch, leading dimensions and pointer offsets."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        cmd = [xpose, "bench", "--dtype", dtype, "--kernels", kernels, "--iters", str(iters), "--json", path]
        for r, c in shapes:
            cmd += ["--shape", f"{r}x{c}"]
        if batch > 1:
            cmd += ["--batch", str(batch)]
        if ld_in:
            cmd += ["--ld-in", str(ld_in)]
        if ld_out:
            cmd += ["--ld-out", str(ld_out)]
        if offsets[0]:
            cmd += ["--offset-in", str(offsets[0])]
        if offsets[1]:
            cmd += ["--offset-out", str(offsets[1])]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(path):
            return None, " ".join(cmd) + ": " + (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        with open(path) as f:
            return json.load(f), None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xpose", default=os.path.join("build-gpu", "apps", "xpose", "xpose"))
    ap.add_argument("--out", help="JSON with every case's record (required unless --report)")
    ap.add_argument("--report", nargs="+", metavar="JSON", help="print the auto / tuned gap report of these scans")
    ap.add_argument("--top", type=int, default=20, help="cases the gap report lists at most")
    ap.add_argument("--dtypes", default=",".join(ESIZE))
    ap.add_argument("--iters", type=int, default=15)
    ap.add_argument("--target-mib", type=float, default=TARGET_BYTES / (1 << 20), help="bytes of one case")
    ap.add_argument("--kernels", default="auto", help="passed to `xpose bench --kernels`")
    ap.add_argument("--only", default="", help="regular expression: only the cases whose label matches")
    ap.add_argument("--list", action="store_true", help="print the shapes and stop")
    ap.add_argument("--random", type=int, default=0, help="this many random cases instead of the grid")
    ap.add_argument("--seed", type=int, default=1, help="seed of --random")
    ap.add_argument("--offsets", type=parse_offsets, default=[(0, 0)],
                    help="IN:OUT pointer offsets in elements, comma-separated: each case once per pair")
    args = ap.parse_args()
    if args.report:
        for path in args.report:
            try:
                with open(path) as f:
                    records = json.load(f)["records"]
            except (OSError, ValueError, KeyError) as e:
                print(f"shape_scan: {path}: not a scan's JSON ({e})", file=sys.stderr)
                return 2
            print("\n".join(report_gaps(records, path, args.top)))
        return 0
    if not args.out:
        print("shape_scan: --out is required (or --report to read scans already run)", file=sys.stderr)
        return 2

    dtypes = args.dtypes.split(",")
    if args.random:
        cases = random_shapes(args.random, args.seed, dtypes)
    else:
        cases = [(dt,) + shape for dt in dtypes for shape in shapes_for(ESIZE[dt], int(args.target_mib * (1 << 20)))]
    groups = collections.OrderedDict()
    for dt, rows, cols, batch, ld_in, ld_out in cases:
        for off in args.offsets:
            if re.search(args.only, label_of(dt, rows, cols, batch, ld_in or cols, ld_out or rows, *off)):
                groups.setdefault((dt, batch, ld_in, ld_out, off), []).append((rows, cols))
    if args.list:
        for (dt, b, li, lo, off), shapes in groups.items():
            print(dt, f"batch {b} ld {li}/{lo} offsets {off[0]}:{off[1]}:", " ".join(f"{r}x{c}" for r, c in shapes))
        return 0

    records, errors, device, t0 = [], [], None, time.time()
    for (dt, batch, ld_in, ld_out, off), shapes in groups.items():
        doc, err = run_group(args.xpose, dt, batch, ld_in, ld_out, off, shapes, args.iters, args.kernels)
        if err:
            errors.append(err)
            print("error:", err, file=sys.stderr)
            continue
        device = device or doc.get("device")
        copy = {}
        for r in doc["records"]:
            key = (r["rows"], r["cols"])
            if r["kernel"] == "memcpy":
                copy[key] = r
            else:
                r["memcpy_time_us"] = copy[key]["time_us"]
                records.append(r)
    records.sort(key=lambda r: r["pct_of_copy"])
    with open(args.out, "w") as f:
        json.dump({"tool": "bench/shape_scan.py", "device": device, "iters": args.iters, "records": records,
                   "errors": errors, "elapsed_s": round(time.time() - t0, 1)}, f, separators=(",", ":"))
    print(f"{'case':44s} {'MiB':>7s} {'us':>9s} {'x memcpy':>8s}  verified  plan")
    for r in records:
        label = label_of(r["dtype"], r["rows"], r["cols"], r["batch"], r["ld_in"], r["ld_out"],
                         r.get("offset_in", 0), r.get("offset_out", 0))
        mib = r["bytes_moved"] / 2 / (1 << 20)
        print(f"{label:44s} {mib:7.1f} {r['time_us']:9.2f} {r['pct_of_copy'] / 100:8.3f}  {r['verification']:8s}  "
              f"{r['plan']}")
    print(f"{len(records)} cases, {len(errors)} errors, {time.time() - t0:.0f} s")
    if tuned_gaps(records):
        print("\n".join(report_gaps(records, "auto / tuned", args.top)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
