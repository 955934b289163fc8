#!/usr/bin/env python3
"""Markdown table of a `xpose bench --suite` JSON, with the peers of bench/peers.py beside it."""
import argparse
import collections
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def label_of(r):
    shape = f"{r['batch']}x" if r["batch"] > 1 else ""
    shape += f"{r['rows']}x{r['cols']}"
    if r["ld_in"] != r["cols"]:
        shape += f" ld {r['ld_in']}"
    return f"{r['dtype']} {shape}"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("suite", help="JSON written by `xpose bench --suite --json`")
    ap.add_argument("--peers", help="JSON written by bench/peers.py in the same session")
    args = ap.parse_args()

    suite = load(args.suite)
    cases = collections.OrderedDict()
    for r in suite["records"]:
        cases.setdefault(r.get("case") or label_of(r), {})[r["kernel"]] = r
    peers = collections.defaultdict(dict)
    in_process = {}  # xpose through libxpose_c, timed by the peers' harness in their process
    if args.peers:
        for r in load(args.peers)["records"]:
            if not r.get("gbps") or r.get("skipped") or "memcpy" in r["system"]:
                continue
            key = (r["dtype"], r["rows"], r["cols"], r["batch"], r["ld_in"])
            if r["system"] == "xpose-lib":
                in_process[key] = r
            elif not r["system"].startswith("xpose"):
                peers[key][r["system"]] = r

    print(f"Device: {suite['device']['name']}; median of {suite['iters']} runs; ratios to a device-to-device "
          "memcpy of the same bytes in the same process; x best peer = the fastest peer's time / xpose's "
          "time (> 1: xpose faster), both timed the same way in one session"
          + ("; tuned = the measured plan (`--kernels tuned`)" if any("tuned" in k for k in cases.values()) else "")
          + ("; in-process = xpose called through libxpose_c inside the peers' process and timed by their "
             "harness, the fastest peer's time / its time" if in_process else "")
          + ".\n")
    with_tuned = any("tuned" in k for k in cases.values())
    tuned_head, tuned_rule = (" tuned x memcpy | tuned x best peer |", "---:|---:|") if with_tuned else ("", "")
    lib_head, lib_rule = (" in-process x best peer |", "---:|") if in_process else ("", "")
    print(f"| case | plan | GB/s | x memcpy | x geam | best peer (x memcpy) | x best peer |{tuned_head}{lib_head}"
          " verified |")
    print(f"|---|---|---:|---:|---:|---|---:|{tuned_rule}{lib_rule}---|")
    for label, k in cases.items():
        fast, geam, tuned = k.get("auto"), k.get("geam"), k.get("tuned")
        if fast is None or fast["verification"] == "SKIPPED":
            print(f"| {label} | skipped | | | | | |{' | |' if with_tuned else ''}{' |' if in_process else ''}")
            continue
        plan = fast["plan"].split(" block")[0]
        x_geam = f"{geam['time_us'] / fast['time_us']:.2f}" if geam and geam["verification"] == "PASSED" else "-"
        key = (fast["dtype"], fast["rows"], fast["cols"], fast["batch"], fast["ld_in"])
        best = max(peers[key].values(), key=lambda r: r["gbps"], default=None)
        best_txt = f"{best['system']} {best['ratio_to_memcpy']:.3f}" if best else "-"
        x_best = f"{best['time_us'] / fast['time_us']:.3f}" if best else "-"
        tuned_txt = ""
        if with_tuned:
            ok = tuned and tuned["verification"] == "PASSED"
            tuned_txt = f" {tuned['pct_of_copy'] / 100:.3f} |" if ok else " - |"
            tuned_txt += f" {best['time_us'] / tuned['time_us']:.3f} |" if ok and best else " - |"
        lib = in_process.get(key)
        lib_txt = ""
        if in_process:
            lib_ok = lib and lib.get("verification") == "PASSED"
            lib_txt = f" {best['time_us'] / lib['time_us']:.3f} |" if lib_ok and best else " - |"
        verified = fast["verification"] + (" (tuned FAILED)" if tuned and tuned["verification"] == "FAILED" else "")
        if lib and lib.get("verification") != "PASSED":
            verified += " (in-process " + str(lib.get("verification")) + ")"
        print(f"| {label} | `{plan}` | {fast['gbps']:.0f} | {fast['pct_of_copy'] / 100:.3f} | {x_geam} | "
              f"{best_txt} | {x_best} |{tuned_txt}{lib_txt} {verified} |")


if __name__ == "__main__":
    sys.exit(main())
