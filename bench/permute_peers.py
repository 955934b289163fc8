"""Permutations of N-d tensors on one GPU: xpose (`xpose bench --permute`) against PyTorch's
`out.copy_(x.permute(perm))`, each as a ratio to a memcpy of the same bytes timed in its own process.

xpose's side is its CLI (random input, poisoned output, verified against the CPU oracle, median of
the timed runs). PyTorch's side runs here: random input, poisoned output, the result checked
against numpy's transpose on the host, CUDA events around each call, median of the timed runs, and
a device-to-device copy of the same bytes timed the same way. Cases are 64 MiB or more, so one call
touches more than the H200's 60 MiB L2 and no buffer rotation is needed.
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (dtype, extents, perm, what it is)
CASES = [
    ("f32", [32, 256, 56, 56], [0, 2, 3, 1], "NCHW -> NHWC"),
    ("f32", [32, 56, 56, 256], [0, 3, 1, 2], "NHWC -> NCHW"),
    ("bf16", [8, 32, 2048, 128], [0, 2, 1, 3], "[B, H, S, D] -> [B, S, H, D]"),
    ("bf16", [64, 16, 4096, 8], [0, 2, 1, 3], "heads of 8 elements (16-byte elements)"),
    ("f32", [256, 512, 256], [2, 1, 0], "reversal"),
    ("u8", [512, 512, 256], [2, 1, 0], "reversal, bytes"),
    ("f16", [32, 32, 32, 32, 32], [0, 3, 1, 4, 2], "rank 5"),
    ("f64", [64, 512, 256], [1, 0, 2], "outer swap, runs of 2 KiB"),
    ("bf16", [16, 64, 64, 64, 16], [4, 1, 3, 0, 2], "rank 5, no dimension in place"),
    ("f32", [8, 64, 2, 2, 128, 128], [0, 1, 4, 2, 5, 3], "pixel shuffle, r = 2"),
    ("f32", [8, 64, 128, 2, 128, 2], [0, 1, 3, 5, 2, 4], "space to depth, r = 2"),
    ("bf16", [8, 64, 2, 2, 128, 128], [0, 1, 4, 2, 5, 3], "pixel shuffle, r = 2, 2-byte elements"),
    ("f32", [8, 32, 3, 3, 96, 96], [0, 1, 4, 2, 5, 3], "pixel shuffle, r = 3"),
]

TORCH_DTYPES = {"u8": "uint8", "bf16": "bfloat16", "f16": "float16", "f32": "float32", "f64": "float64"}
ESIZE = {"u8": 1, "bf16": 2, "f16": 2, "f32": 4, "f64": 8}


def run_xpose(xpose, dtype, extents, perm, iters):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.json")
        cmd = [xpose, "bench", "--backend", "cuda", "--dtype", dtype, "--extents", ",".join(map(str, extents)),
               "--permute", ",".join(map(str, perm)), "--iters", str(iters), "--json", path]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            records = json.load(f)["records"]
    memcpy = next(r for r in records if r["kernel"] == "memcpy")
    auto = next(r for r in records if r["kernel"] == "auto")
    return {"time_us": auto["time_us"], "memcpy_us": memcpy["time_us"], "ratio": memcpy["time_us"] / auto["time_us"],
            "plan": auto["plan"], "verified": auto["verified"]}


def time_calls(torch, fn, warmup, iters):
    for _ in range(warmup):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(iters):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(1000.0 * start.elapsed_time(stop))
    return statistics.median(times)


def run_torch(torch, dtype, extents, perm, iters):
    import numpy as np
    nbytes = ESIZE[dtype]
    for e in extents:
        nbytes *= e
    raw = torch.randint(0, 256, (nbytes,), dtype=torch.uint8, device="cuda")
    x = raw.view(getattr(torch, TORCH_DTYPES[dtype])).view(*extents)
    out_shape = [extents[p] for p in perm]
    out = torch.empty(out_shape, dtype=x.dtype, device="cuda")
    out.view(torch.uint8).fill_(0xA5)
    out.copy_(x.permute(*perm))
    torch.cuda.synchronize()
    # Bit for bit against numpy on the host (bytes viewed as unsigned integers of the element's size).
    host_type = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[ESIZE[dtype]]
    host_in = raw.cpu().numpy().view(host_type).reshape(extents)
    want = np.ascontiguousarray(np.transpose(host_in, perm))
    got = out.view(torch.uint8).cpu().numpy().view(host_type).reshape(out_shape)
    verified = bool(np.array_equal(want, got))
    flat_out = out.view(torch.uint8).view(-1)
    t = time_calls(torch, lambda: out.copy_(x.permute(*perm)), 3, iters)
    m = time_calls(torch, lambda: flat_out.copy_(raw), 3, iters)
    return {"time_us": t, "memcpy_us": m, "ratio": m / t, "verified": verified}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xpose", required=True, help="the xpose CLI built with the GPU backend")
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--iters", type=int, default=25)
    args = ap.parse_args()
    import torch
    results = []
    for dtype, extents, perm, what in CASES:
        label = "%s [%s] perm %s" % (dtype, "x".join(map(str, extents)), ",".join(map(str, perm)))
        xp = run_xpose(args.xpose, dtype, extents, perm, args.iters)
        tp = run_torch(torch, dtype, extents, perm, args.iters)
        results.append({"case": label, "what": what, "dtype": dtype, "extents": extents, "perm": perm,
                        "xpose": xp, "torch": tp})
        print("%-48s %-40s xpose %.3f of memcpy (%s)  torch %.3f  xpose/torch time %.2fx  verified %s/%s"
              % (label, what, xp["ratio"], xp["plan"], tp["ratio"], tp["time_us"] / xp["time_us"], xp["verified"],
                 tp["verified"]), flush=True)
    doc = {"tool": "bench/permute_peers.py", "timestamp_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(),
           "device": torch.cuda.get_device_name(0), "torch": torch.__version__, "iters": args.iters,
           "method": __doc__, "results": results}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    return 0 if all(r["xpose"]["verified"] and r["torch"]["verified"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
