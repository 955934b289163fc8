"""xpose and its peers (PyTorch, CuPy, Triton, cuBLAS geam) on one benchmark suite, one GPU, one run: JSON + plot."""
# How it works: `xpose bench --suite --json` runs first (or --cases-from reads a JSON it wrote
# before); its records give the case list, so the suite has one source. Then each peer transposes
# every case in this process, measured the way `xpose bench` measures: random input, poisoned
# output, every result checked bit for bit, CUDA events, warm-up then the median of the timed runs,
# buffer pairs rotated past the L2 for small cases, and a memcpy of the same bytes timed here.
#
# torch, cupy and triton are imported only when the GPU part runs, so --help and --self-test work
# on a machine with none of them (matplotlib is needed for the plot).

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_XPOSE = os.path.join("build-gpu", "apps", "xpose", "xpose")
DEFAULT_XPOSE_LIB = os.path.join("build-gpu", "src", "libxpose_c.so")
SCHEMA_VERSION = 1
POISON = 0xA5             # the byte outputs are filled with before a verified run (as in `xpose bench`)
MAX_ROTATING_PAIRS = 2048  # the caps `xpose bench` uses: pairs rotated through,
MAX_CALLS_PER_RUN = 256    # and calls in one timed run (each run takes the pairs after the last run's)
L2_MULTIPLE = 3.0         # one timed run touches about this many L2 sizes (as in `xpose bench`)
DEVICE = "cuda"           # where the peers run (a module constant so a CPU-only harness can swap it)

# name -> (bytes, torch dtype, numpy/CuPy dtype or None, integer type Triton moves the bits as, words per element)
DTYPES = {
    "u8": (1, "uint8", "uint8", "uint8", 1),
    "i8": (1, "int8", "int8", "int8", 1),
    "f8e4m3": (1, "float8_e4m3fn", None, "uint8", 1),
    "f8e5m2": (1, "float8_e5m2", None, "uint8", 1),
    "f16": (2, "float16", "float16", "int16", 1),
    "bf16": (2, "bfloat16", None, "int16", 1),
    "i16": (2, "int16", "int16", "int16", 1),
    "f32": (4, "float32", "float32", "int32", 1),
    "i32": (4, "int32", "int32", "int32", 1),
    "f64": (8, "float64", "float64", "int64", 1),
    "i64": (8, "int64", "int64", "int64", 1),
    "c64": (8, "complex64", "complex64", "int64", 1),
    "c128": (16, "complex128", "complex128", "int64", 2),
}
GEAM_ROUTINES = {"f32": "sgeam", "f64": "dgeam", "c64": "cgeam", "c128": "zgeam"}  # cuBLAS has no others

# Systems timed in this process: xpose itself through its C interface, then the peers.
PEERS = ["xpose-lib", "torch", "cupy", "triton", "cupy-geam"]
# Order of the bars; xpose records not named here (other kernels) are appended after these.
SYSTEM_ORDER = ["xpose", "xpose-lib", "xpose-tuned", "xpose-geam", "torch", "cupy", "triton", "cupy-geam"]
SYSTEM_COLORS = {"xpose": "#1f77b4", "xpose-lib": "#08306b", "xpose-tuned": "#17becf", "xpose-geam": "#9ecae1",
                 "torch": "#ff7f0e", "cupy": "#2ca02c", "triton": "#9467bd", "cupy-geam": "#8c564b"}
SYSTEM_WHAT = {
    "xpose": "xpose's fast path (`xpose bench --kernels auto`), timed by the xpose CLI in its own process",
    "xpose-lib": "xpose's fast path called in this process through its C interface (libxpose_c, via "
                 "python/xpose_ctypes.py) and timed by this harness exactly as the peers are",
    "xpose-tuned": "xpose's measured plan (`xpose bench --kernels tuned`: candidates timed once per shape class, "
                   "the fastest kept), timed by the xpose CLI in its own process",
    "xpose-geam": "cuBLAS geam through xpose's vendor path, timed by the xpose CLI in its own process",
    "torch": "dst.copy_(src.transpose(-1, -2)): PyTorch's elementwise copy kernel (strided reads, "
             "contiguous writes); src and dst are as_strided views, so the ld case runs on the padded buffers",
    "cupy": "dst[...] = src.swapaxes(-1, -2): CuPy's elementwise copy on views of the same torch buffers "
            "(imported by DLPack, no copy)",
    "triton": "tiled Triton kernel of bench/peers_triton.py: masked (BR, BC) tiles, tl.trans, moving the "
              "element bits as integers; a few tile sizes are timed per case and the best is reported",
    "cupy-geam": "cuBLAS <t>geam(T, N, alpha=1, beta=0, B=C) through CuPy's cublas binding with lda/ldc = "
                 "the row strides (cupy.cublas.geam would copy strided inputs first); one call per matrix of a batch",
}


def pow2ceil(n):
    return 1 << max(0, int(n - 1).bit_length())


def pow2floor(n):
    return 1 << max(0, int(n).bit_length() - 1)


class Case:
    """One suite case: `batch` row-major rows x cols matrices with row strides ld_in / ld_out (elements)."""

    def __init__(self, dtype, rows, cols, batch=1, ld_in=0, ld_out=0, bs_in=0, bs_out=0):
        if dtype not in DTYPES:
            raise ValueError("unknown dtype '%s' (known: %s)" % (dtype, ", ".join(DTYPES)))
        self.dtype = dtype
        self.rows, self.cols, self.batch = int(rows), int(cols), int(batch or 1)
        # 0 means packed, as in xpose::TransposeDesc.
        self.ld_in = int(ld_in or self.cols)
        self.ld_out = int(ld_out or self.rows)
        self.bs_in = int(bs_in or self.rows * self.ld_in)
        self.bs_out = int(bs_out or self.cols * self.ld_out)
        if self.ld_in < self.cols or self.ld_out < self.rows:
            raise ValueError("%s: a row stride is smaller than the row" % self.label)

    @property
    def esize(self):
        return DTYPES[self.dtype][0]

    @property
    def key(self):
        return (self.dtype, self.rows, self.cols, self.batch, self.ld_in, self.ld_out, self.bs_in, self.bs_out)

    @property
    def label(self):
        text = "%dx%d" % (self.rows, self.cols)
        if self.batch > 1:
            text = "%dx%s" % (self.batch, text)
        if self.ld_in != self.cols or self.ld_out != self.rows:
            text += " ld%d" % self.ld_in if self.ld_in == self.ld_out else " ld%d/%d" % (self.ld_in, self.ld_out)
        return text

    @property
    def elements(self):
        return self.batch * self.rows * self.cols

    @property
    def useful_bytes(self):
        return self.elements * self.esize

    @property
    def bytes_moved(self):
        return 2.0 * self.useful_bytes  # read + written, as `xpose bench` counts

    # Elements from the first to one past the last element of each operand.
    @property
    def in_span(self):
        return (self.batch - 1) * self.bs_in + (self.rows - 1) * self.ld_in + self.cols

    @property
    def out_span(self):
        return (self.batch - 1) * self.bs_out + (self.cols - 1) * self.ld_out + self.rows

    @property
    def out_has_gaps(self):
        return self.out_span != self.elements

    def views(self):
        """(shape, strides) of the input and output views, 2-D for one matrix, else 3-D."""
        if self.batch == 1:
            return ((self.rows, self.cols), (self.ld_in, 1)), ((self.cols, self.rows), (self.ld_out, 1))
        return (((self.batch, self.rows, self.cols), (self.bs_in, self.ld_in, 1)),
                ((self.batch, self.cols, self.rows), (self.bs_out, self.ld_out, 1)))

    def to_json(self):
        return {"case": self.label, "dtype": self.dtype, "rows": self.rows, "cols": self.cols, "batch": self.batch,
                "ld_in": self.ld_in, "ld_out": self.ld_out}


def rotating_pairs(case, l2_bytes):
    """Buffer pairs rotated through, the rule `xpose bench` uses: the calls between two uses of a pair
    touch about 3x the L2 (at most 2048 pairs), so every call finds its pair cold in the L2."""
    if l2_bytes <= 0:
        return 1
    pair_bytes = (case.in_span + max(case.in_span, case.out_span)) * case.esize
    return int(min(max(L2_MULTIPLE * l2_bytes / pair_bytes, 1.0), MAX_ROTATING_PAIRS))


def calls_per_run(pairs):
    """Calls in one timed run (as in `xpose bench`): longer runs would fill the launch queue."""
    return min(pairs, MAX_CALLS_PER_RUN)


def triton_tile_candidates(rows, cols, esize, limit=4):
    """(BLOCK_R, BLOCK_C, num_warps) to try: square tiles of 1-32 KiB, or long thin ones for skinny matrices."""
    out = []

    def add(br, bc, warps):
        if (br, bc, warps) not in out and 1024 <= br * bc * esize <= 32768:
            out.append((br, bc, warps))

    narrow = min(rows, cols)
    if narrow <= 16:
        # A 32x32 tile over 3 columns idles most of its threads; cover the narrow side once and go long.
        n = max(2, pow2ceil(narrow))
        for tile_bytes in (8192, 16384, 32768):
            long_side = min(8192, max(16, pow2floor(tile_bytes // (n * esize))))
            shape = (long_side, n) if cols == narrow else (n, long_side)
            add(shape[0], shape[1], 4 if tile_bytes <= 16384 else 8)
    else:
        for side in (32, 64, 128):
            add(side, side, 4)
            if side * side * esize >= 16384:
                add(side, side, 8)
    return out[:limit] or [(32, 32, 4)]


def geam_args(case):
    """cuBLAS geam arguments (transa, transb, m, n, lda, ldb, ldc) for one matrix of `case`.

    cuBLAS is column-major: the row-major R x C input with row stride ld_in is a C x R column-major matrix
    with lda = ld_in, and the row-major C x R output with row stride ld_out is R x C column-major with
    ldc = ld_out. So C = op(A) with op = T, m = R, n = C; B = C in place (allowed for transb = N, ldb = ldc).
    """
    return ("T", "N", case.rows, case.cols, case.ld_in, case.ld_out, case.ld_out)


# ---------------------------------------------------------------------------------------------------
# The xpose side: run the CLI, read its JSON, take the cases and its own results from it.

def xpose_system(kernel):
    return {"auto": "xpose", "geam": "xpose-geam"}.get(kernel, "xpose-" + kernel)


def load_records_json(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("records"), list):
        raise ValueError("%s: no records list (not written by `xpose bench --json` or bench/peers.py)" % path)
    return doc


def cases_from_xpose(doc, dtypes=None):
    """The suite's cases in the order xpose ran them, each with the xpose records that belong to it.

    Returns a list of (Case, {"memcpy": record or None, "systems": {system: record}, "skipped": reason or None}).
    """
    by_key = {}
    order = []
    for r in doc["records"]:
        if dtypes and r.get("dtype") not in dtypes:
            continue
        case = Case(r["dtype"], r["rows"], r["cols"], r.get("batch", 1), r.get("ld_in", 0), r.get("ld_out", 0),
                    r.get("batch_stride_in", 0), r.get("batch_stride_out", 0))
        if case.key not in by_key:
            by_key[case.key] = (case, {"memcpy": None, "systems": {}, "skipped": None})
            order.append(case.key)
        entry = by_key[case.key][1]
        if r.get("kernel") == "memcpy":
            entry["memcpy"] = r
        else:
            entry["systems"][xpose_system(r.get("kernel", "?"))] = r
    out = []
    for key in order:
        case, entry = by_key[key]
        # The fast path is "xpose" whether the JSON names it "auto" or by the kernel the planner chose.
        others = [s for s in entry["systems"] if s not in ("xpose", "xpose-geam")]
        if "xpose" not in entry["systems"] and len(others) == 1:
            entry["systems"]["xpose"] = entry["systems"].pop(others[0])
        # A case the suite skipped as a whole (e.g. over its memory budget) has no measured record.
        measured = [r for r in entry["systems"].values() if r.get("verification") != "SKIPPED"]
        if entry["memcpy"] is None and not measured:
            notes = sorted({r.get("note", "") for r in entry["systems"].values() if r.get("note")})
            entry["skipped"] = "skipped by the xpose suite: " + ("; ".join(notes) or "no measured record")
        out.append((case, entry))
    return out


def xpose_records(case, entry, peers_memcpy_gbps):
    """Output records for the xpose systems of one case, from the xpose JSON."""
    out = []
    mc = entry["memcpy"]
    if mc is not None:
        out.append(result_record(case, "xpose-memcpy", plan=mc.get("plan", ""), time_us=mc.get("time_us"),
                                 gbps=mc.get("gbps"), memcpy_gbps=mc.get("gbps"), verification="-",
                                 runs=mc.get("runs"), calls=mc.get("calls_per_run"),
                                 note="memcpy timed by the xpose CLI in its process"))
    for system, r in entry["systems"].items():
        if r.get("verification") == "SKIPPED":
            out.append(skipped_record(case, system, r.get("note") or "skipped by xpose bench"))
            continue
        # xpose's own numbers, as its CLI measured them.
        rec = result_record(case, system, plan=r.get("plan", ""), time_us=r.get("time_us"), gbps=r.get("gbps"),
                            memcpy_gbps=r.get("copy_gbps"), verification=r.get("verification", "?"),
                            runs=r.get("runs"), calls=r.get("calls_per_run"), note=r.get("note", ""))
        rec["xpose_kernel"] = r.get("kernel")
        # ratio_to_memcpy stays against xpose's own memcpy (same process); this one is for cross-checks.
        if peers_memcpy_gbps and rec["gbps"]:
            rec["ratio_to_peers_memcpy"] = rec["gbps"] / peers_memcpy_gbps
        out.append(rec)
    return out


def run_xpose_cli(binary, json_path, extra):
    cmd = [binary, "bench", "--suite", "--json", json_path] + extra
    print("peers: running " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    t0 = time.time()
    rc = subprocess.call(cmd)
    print("peers: xpose bench exited %d after %.1f s" % (rc, time.time() - t0), flush=True)
    if rc != 0 or not os.path.exists(json_path):
        raise SystemExit("peers: `xpose bench --suite` failed (exit %d); no case list" % rc)
    return cmd


# ---------------------------------------------------------------------------------------------------
# Records

def result_record(case, system, plan="", time_us=None, memcpy_gbps=None, verification="PASSED", runs=None,
                  calls=None, note="", gbps=None):
    rec = case.to_json()
    if gbps is None and time_us:
        gbps = case.bytes_moved / (time_us * 1e3)
    rec.update({"system": system, "plan": plan, "bytes_moved": case.bytes_moved, "time_us": time_us, "gbps": gbps,
                "memcpy_gbps": memcpy_gbps, "ratio_to_memcpy": gbps / memcpy_gbps if gbps and memcpy_gbps else None,
                "verified": verification == "PASSED" if verification != "-" else None,
                "verification": verification, "skipped": None, "note": note, "runs": runs, "calls_per_run": calls})
    return rec


def skipped_record(case, system, reason):
    rec = case.to_json()
    rec.update({"system": system, "plan": "", "bytes_moved": case.bytes_moved, "time_us": None, "gbps": None,
                "memcpy_gbps": None, "ratio_to_memcpy": None, "verified": None, "verification": "SKIPPED",
                "skipped": reason, "note": "", "runs": None, "calls_per_run": None})
    return rec


def error_record(case, system, err):
    rec = skipped_record(case, system, None)
    rec.update({"verification": "ERROR", "verified": False, "note": ("%s: %s" % (type(err).__name__, err))[:400]})
    return rec


# ---------------------------------------------------------------------------------------------------
# The GPU side (imports torch, and cupy/triton where asked for)

class Timer:
    """Median per-call time over runs of calls_per_run(pairs) calls, each run on the buffer pairs after
    the last run's, CUDA events around each run, all work on one stream.

    Python takes microseconds to launch one call, longer than a small transpose runs; timed naively, the
    GPU would idle between launches and the events would time Python. As nvbench does, each run first
    queues a spin kernel (torch.cuda._sleep) long enough for the whole run to be enqueued behind it, so
    the GPU then executes the calls back to back. If the start event has already passed when enqueueing
    ends, the spin was too short: the run is retried with a longer one (counted in `overruns`).
    """

    def __init__(self, torch, block=True):
        self.torch = torch
        self.block = block and hasattr(torch.cuda, "_sleep")
        self.cycles_per_us = self._calibrate() if self.block else 0.0

    def _calibrate(self):
        torch = self.torch
        cycles = 20_000_000
        ms = 0.0
        for _ in range(2):  # the first spin also pays for loading the kernel
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            torch.cuda._sleep(cycles)
            b.record()
            b.synchronize()
            ms = a.elapsed_time(b)
        return cycles / max(ms * 1e3, 1.0)

    def describe(self):
        if self.block:
            return ("CUDA events around each run on one stream; a spin kernel queued before each run so launches "
                    "run back to back (%.0f cycles/us)" % self.cycles_per_us)
        return "CUDA events around each run on one stream, launched eagerly from Python (no spin kernel)"

    def median_us(self, call, pairs, warmup, iters):
        torch = self.torch
        for _ in range(warmup):
            for k in range(pairs):
                call(k)
        calls = calls_per_run(pairs)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for k in range(calls):
            call(k)
        enqueue_us = (time.perf_counter() - t0) * 1e6
        torch.cuda.synchronize()
        spin_us = min(2.0 * enqueue_us + 50.0, 500_000.0)
        per_call, overruns, idle_runs = [], 0, 0
        nxt = calls % pairs
        for _ in range(iters):
            for attempt in range(4):
                start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                if self.block:
                    torch.cuda._sleep(int(spin_us * self.cycles_per_us))
                start.record()
                for k in range(calls):
                    call((nxt + k) % pairs)
                stop.record()
                covered = (not self.block) or (not start.query())
                nxt = (nxt + calls) % pairs
                stop.synchronize()
                if covered:
                    break
                overruns += 1
                spin_us *= 2.0
                if attempt == 3:
                    idle_runs += 1
            per_call.append(start.elapsed_time(stop) * 1e3 / calls)
        info = {"enqueue_us_per_call": enqueue_us / calls, "spin_us": spin_us if self.block else 0.0,
                "overruns": overruns, "runs_with_idle_gpu": idle_runs}
        return statistics.median(per_call), info


class CaseBuffers:
    """`pairs` input/output buffers for one case; input random (the same in every pair), outputs poisoned."""

    def __init__(self, torch, case, pairs, seed):
        self.torch, self.case, self.pairs = torch, case, pairs
        self.tdtype = getattr(torch, DTYPES[case.dtype][1])
        first = random_tensor(torch, case.dtype, case.in_span, seed)
        self.ins = [first] + [first.clone() for _ in range(pairs - 1)]
        self.outs = [torch.empty(case.out_span, dtype=self.tdtype, device=DEVICE) for _ in range(pairs)]
        for o in self.outs:
            o.view(torch.uint8).fill_(POISON)
        (self.in_shape, self.in_strides), (self.out_shape, self.out_strides) = case.views()
        self.srcs = [t.as_strided(self.in_shape, self.in_strides) for t in self.ins]
        self.dsts = [t.as_strided(self.out_shape, self.out_strides) for t in self.outs]
        nbytes = case.useful_bytes  # memcpy moves the useful bytes, from the start of each buffer
        self.in_bytes = [t.view(torch.uint8)[:nbytes] for t in self.ins]
        self.out_bytes = [t.view(torch.uint8)[:nbytes] for t in self.outs]

    def poison_first(self):
        self.outs[0].view(self.torch.uint8).fill_(POISON)


def random_tensor(torch, dtype, n, seed):
    """n random elements on the GPU: normal floats (finite, so geam's 1*x + 0*y gives x back), any integers."""
    g = torch.Generator(device=DEVICE)
    g.manual_seed(seed)
    tname = DTYPES[dtype][1]
    tdtype = getattr(torch, tname)
    if tname.startswith("complex") or tname in ("float32", "float64"):
        return torch.randn(n, dtype=tdtype, device=DEVICE, generator=g)
    if tname.startswith(("float", "bfloat")):
        return torch.randn(n, dtype=torch.float32, device=DEVICE, generator=g).to(tdtype)
    info = torch.iinfo(tdtype)
    return torch.randint(info.min, info.max, (n,), dtype=tdtype, device=DEVICE, generator=g)


def same_bits(torch, a, b):
    a, b = a.contiguous(), b.contiguous()
    return a.shape == b.shape and torch.equal(a.view(torch.uint8), b.view(torch.uint8))


def first_mismatch(torch, got, want, esize):
    diff = got.contiguous().view(torch.uint8) != want.contiguous().view(torch.uint8)
    return int(diff.to(torch.uint8).argmax().item()) // esize


def to_cupy(cp, t):
    """A CuPy view of a torch tensor's memory (strides kept, nothing copied)."""
    try:
        return cp.from_dlpack(t)
    except Exception:  # older exporters: the CUDA array interface carries strides too
        return cp.asarray(t)


class PeerSession:
    """Everything that runs on the GPU: imports, the stream, the timer, and one case at a time."""

    def __init__(self, args, l2_fallback):
        import torch  # lazily: --help and --self-test need no GPU stack
        if not torch.cuda.is_available():
            raise SystemExit("peers: torch sees no CUDA device")
        self.torch = torch
        self.args = args
        self.systems = [s for s in args.systems if s in PEERS]
        self.props = torch.cuda.get_device_properties(0)
        self.l2_bytes = int(getattr(self.props, "L2_cache_size", 0) or l2_fallback or 50 * 2**20)
        # One stream for everything (torch, Triton, CuPy, cuBLAS), so the events and the spin kernel
        # are ordered with the work they time.
        self.stream = torch.cuda.Stream()
        torch.cuda.set_stream(self.stream)
        self.versions = {"python": platform.python_version(), "torch": torch.__version__,
                         "torch_cuda": torch.version.cuda}
        self.unavailable = {}
        self.cupy = self.cublas = self.triton_mod = self.xpose_lib = None
        if "xpose-lib" in self.systems:
            try:
                sys.path.insert(0, os.path.join(REPO, "python"))
                import xpose_ctypes
                self.xpose_lib = xpose_ctypes.Library(os.path.abspath(args.xpose_lib))
            except Exception as e:
                self.unavailable["xpose-lib"] = "libxpose_c not usable here (%s): %s" % (args.xpose_lib, e)
        if "cupy" in self.systems or "cupy-geam" in self.systems:
            try:
                import cupy
                from cupy_backends.cuda.libs import cublas
                self.cupy, self.cublas = cupy, cublas
                cupy.cuda.ExternalStream(self.stream.cuda_stream).use()
                self.versions["cupy"] = cupy.__version__
                self.versions["cupy_cuda_runtime"] = cupy.cuda.runtime.runtimeGetVersion()
                self.versions["cuda_driver"] = cupy.cuda.runtime.driverGetVersion()
            except Exception as e:  # keep going with the other peers
                self.unavailable["cupy"] = self.unavailable["cupy-geam"] = "CuPy not usable here: %s" % e
        if "triton" in self.systems:
            try:
                sys.path.insert(0, HERE)
                import triton
                import peers_triton
                self.triton_mod = peers_triton
                self.versions["triton"] = triton.__version__
            except Exception as e:
                self.unavailable["triton"] = "Triton not usable here: %s" % e
        try:
            import numpy
            self.versions["numpy"] = numpy.__version__
        except Exception:
            pass
        self.timer = Timer(torch, block=not args.no_spin)

    def device_json(self):
        p = self.props
        return {"name": p.name, "compute_capability": "%d.%d" % (p.major, p.minor), "sm_count": p.multi_processor_count,
                "l2_bytes": self.l2_bytes, "global_memory_bytes": p.total_memory}

    def time(self, call, pairs, iters=None, warmup=None):
        return self.timer.median_us(call, pairs, self.args.warmup if warmup is None else warmup,
                                    self.args.iters if iters is None else iters)

    def free_memory(self):
        import gc
        gc.collect()
        try:
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()
            if self.cupy is not None:
                self.cupy.get_default_memory_pool().free_all_blocks()
        except Exception as e:  # a sticky CUDA error: later cases will report it too
            print("peers: freeing device memory failed: %s" % e, flush=True)

    # -- one case ------------------------------------------------------------------------------------

    def run_case(self, case, seed):
        """Records for memcpy and every peer on one case."""
        torch = self.torch
        pairs = rotating_pairs(case, self.l2_bytes)
        free, _ = torch.cuda.mem_get_info()
        # pairs of buffers + reference + the expected whole output (padded case) + generator scratch
        need = (pairs * (case.in_span + case.out_span) + case.elements + case.out_span + case.in_span) * case.esize
        if need > 0.9 * free:
            reason = "needs %.1f GiB of device memory, %.1f GiB free" % (need / 2**30, free / 2**30)
            return [skipped_record(case, s, reason) for s in ["memcpy"] + self.systems]
        bufs = CaseBuffers(torch, case, pairs, seed)
        expected, ref_ok = self._reference(bufs)
        records = []
        memcpy_us, info = self.time(lambda k: bufs.out_bytes[k].copy_(bufs.in_bytes[k]), pairs)
        memcpy = result_record(case, "memcpy", plan="torch copy_ of contiguous uint8 tensors (cudaMemcpyAsync D2D)",
                               time_us=memcpy_us, verification="-", runs=self.args.iters,
                               calls=calls_per_run(pairs))
        memcpy["memcpy_gbps"] = memcpy["gbps"]
        memcpy["ratio_to_memcpy"] = 1.0
        memcpy["timing"] = info
        records.append(memcpy)
        for system in self.systems:
            if system in self.unavailable:
                records.append(skipped_record(case, system, self.unavailable[system]))
                continue
            try:
                rec = getattr(self, "_peer_" + system.replace("-", "_"))(case, bufs, expected, memcpy["gbps"])
                if not ref_ok and rec["verification"] == "PASSED":
                    rec["verification"], rec["verified"] = "FAILED", False
                    rec["note"] = "the reference itself failed its spot check"
            except Exception as e:
                try:
                    torch.cuda.synchronize()
                except Exception:
                    pass
                rec = error_record(case, system, e)
            records.append(rec)
            gbps = rec["gbps"]
            print("  %-10s %-22s %s" % (system, case.label, "%.1f GB/s (%.0f%% of memcpy) %s" % (
                gbps, 100 * rec["ratio_to_memcpy"], rec["verification"]) if gbps else
                rec["skipped"] or rec["note"]), flush=True)
        bufs = expected = None  # drop the case's buffers before freeing the pools
        self.free_memory()
        return records

    def _reference(self, bufs):
        """Expected output: torch's transpose, spot-checked against plain indexing; padded to the output span."""
        torch, case = self.torch, bufs.case
        src = bufs.srcs[0]
        ref = src.transpose(-1, -2).contiguous()
        # An independent check of the reference (gather, not the transpose path) at up to 1M points.
        n = min(case.elements, 1 << 20)
        g = torch.Generator(device=DEVICE)
        g.manual_seed(12345)
        r = torch.randint(0, case.rows, (n,), device=DEVICE, generator=g)
        c = torch.randint(0, case.cols, (n,), device=DEVICE, generator=g)
        if case.batch > 1:
            b = torch.randint(0, case.batch, (n,), device=DEVICE, generator=g)
            ok = same_bits(torch, src[b, r, c], ref[b, c, r])
        else:
            ok = same_bits(torch, src[r, c], ref[c, r])
        if case.out_has_gaps:
            expected = torch.empty(case.out_span, dtype=bufs.tdtype, device=DEVICE)
            expected.view(torch.uint8).fill_(POISON)  # a transpose must leave the padding alone
            expected.as_strided(bufs.out_shape, bufs.out_strides).copy_(ref)
        else:
            expected = ref.reshape(-1)
        return expected, ok

    def _check(self, bufs, expected, run_once):
        """Poison, run once on pair 0, compare the whole output buffer bit for bit."""
        torch = self.torch
        bufs.poison_first()
        run_once()
        torch.cuda.synchronize()
        if same_bits(torch, bufs.outs[0], expected):
            return "PASSED", ""
        at = first_mismatch(torch, bufs.outs[0], expected, bufs.case.esize)
        return "FAILED", "first mismatch at output buffer element %d" % at

    def _measure(self, case, system, bufs, expected, call, pairs, memcpy_gbps, plan, note=""):
        verification, why = self._check(bufs, expected, lambda: call(0))
        us, info = self.time(call, pairs)
        rec = result_record(case, system, plan=plan, time_us=us, memcpy_gbps=memcpy_gbps, verification=verification,
                            runs=self.args.iters, calls=calls_per_run(pairs), note="; ".join(x for x in (note, why) if x))
        rec["timing"] = info
        if info["runs_with_idle_gpu"]:
            rec["note"] = (rec["note"] + "; " if rec["note"] else "") + "launch-bound: the GPU idled in %d runs" % (
                info["runs_with_idle_gpu"])
        return rec

    # -- the peers ------------------------------------------------------------------------------------

    def _peer_xpose_lib(self, case, bufs, expected, memcpy_gbps):
        lib, c = self.xpose_lib, case
        ins = [t.data_ptr() for t in bufs.ins]
        outs = [t.data_ptr() for t in bufs.outs]
        stream = self.stream.cuda_stream
        layout = dict(batch=c.batch, ld_in=c.ld_in, ld_out=c.ld_out, batch_stride_in=c.bs_in,
                      batch_stride_out=c.bs_out)

        def call(k):
            lib.transpose(c.dtype, c.rows, c.cols, ins[k], outs[k], stream=stream, backend="cuda", **layout)
        plan = lib.describe_plan(c.dtype, c.rows, c.cols, backend="cuda", **layout)
        return self._measure(case, "xpose-lib", bufs, expected, call, bufs.pairs, memcpy_gbps, plan)

    def _peer_torch(self, case, bufs, expected, memcpy_gbps):
        srcs_t = [s.transpose(-1, -2) for s in bufs.srcs]
        dsts = bufs.dsts
        return self._measure(case, "torch", bufs, expected, lambda k: dsts[k].copy_(srcs_t[k]), bufs.pairs,
                             memcpy_gbps, "dst.copy_(src.transpose(-1, -2))")

    def _peer_cupy(self, case, bufs, expected, memcpy_gbps):
        if DTYPES[case.dtype][2] is None:
            return skipped_record(case, "cupy", "CuPy has no %s dtype" % case.dtype)
        cp = self.cupy
        srcs_t = [to_cupy(cp, s).swapaxes(-1, -2) for s in bufs.srcs]
        dsts = [to_cupy(cp, d) for d in bufs.dsts]

        def call(k):
            dsts[k][...] = srcs_t[k]
        return self._measure(case, "cupy", bufs, expected, call, bufs.pairs, memcpy_gbps,
                             "dst[...] = src.swapaxes(-1, -2)")

    def _peer_cupy_geam(self, case, bufs, expected, memcpy_gbps):
        routine = GEAM_ROUTINES.get(case.dtype)
        if routine is None:
            return skipped_record(case, "cupy-geam", "cuBLAS geam has no %s (only f32, f64, c64, c128)" % case.dtype)
        import numpy
        cb = self.cublas
        fn = getattr(cb, routine)
        handle = self.cupy.cuda.device.get_cublas_handle()
        cb.setPointerMode(handle, cb.CUBLAS_POINTER_MODE_HOST)
        one = numpy.ones(1, dtype=DTYPES[case.dtype][2])  # host scalars, alive for the whole case
        zero = numpy.zeros(1, dtype=DTYPES[case.dtype][2])
        _, _, m, n, lda, ldb, ldc = geam_args(case)
        es = case.esize
        ins = [t.data_ptr() for t in bufs.ins]
        outs = [t.data_ptr() for t in bufs.outs]
        batch, bs_in, bs_out = case.batch, case.bs_in * es, case.bs_out * es
        op_t, op_n = cb.CUBLAS_OP_T, cb.CUBLAS_OP_N
        a_one, a_zero = one.ctypes.data, zero.ctypes.data

        def call(k):
            # The binding puts the handle on CuPy's current stream, which is the session stream.
            for b in range(batch):
                out = outs[k] + b * bs_out
                fn(handle, op_t, op_n, m, n, a_one, ins[k] + b * bs_in, lda, a_zero, out, ldb, out, ldc)
        calls_note = "%d geam calls per transpose (cuBLAS has no batched geam)" % batch if batch > 1 else ""
        return self._measure(case, "cupy-geam", bufs, expected, call, bufs.pairs, memcpy_gbps,
                             "cublas%s(T, N, m=%d, n=%d, lda=%d, ldc=%d)" % (routine.capitalize(), m, n, lda, ldc),
                             calls_note)

    def _peer_triton(self, case, bufs, expected, memcpy_gbps):
        torch = self.torch
        _, _, int_name, lanes = DTYPES[case.dtype][1:]
        idt = getattr(torch, int_name)
        ins = [t.view(idt) for t in bufs.ins]    # flat: the kernel takes the strides
        outs = [t.view(idt) for t in bufs.outs]
        launch = self.triton_mod.launch
        c = case

        def caller(tile):
            return lambda k: launch(ins[k], outs[k], c.rows, c.cols, c.batch, c.ld_in, c.ld_out, c.bs_in, c.bs_out,
                                    lanes, tile)
        # A small autotune: each candidate compiled, checked and timed briefly; the best one is measured.
        tried, best = [], None
        for tile in triton_tile_candidates(c.rows, c.cols, c.esize):
            try:
                status, _ = self._check(bufs, expected, lambda: caller(tile)(0))
                if status != "PASSED":
                    tried.append("%dx%d/w%d failed verification" % tile)
                    continue
                us, _ = self.time(caller(tile), bufs.pairs, iters=5, warmup=1)
            except Exception as e:  # e.g. a tile over the shared-memory limit
                first_line = (str(e).splitlines() or [""])[0][:120]
                tried.append("%dx%d/w%d: %s: %s" % (tile + (type(e).__name__, first_line)))
                continue
            tried.append("%dx%d/w%d %.1fus" % (tile + (us,)))
            if best is None or us < best[1]:
                best = (tile, us)
        if best is None:
            rec = result_record(case, "triton", verification="FAILED", note="no tile worked: " + "; ".join(tried))
            return rec
        tile = best[0]
        return self._measure(case, "triton", bufs, expected, caller(tile), bufs.pairs, memcpy_gbps,
                             "tile %dx%d, %d warps, %s bits" % (tile + (int_name if lanes == 1 else "2x int64",)),
                             "tried " + ", ".join(tried))


# ---------------------------------------------------------------------------------------------------
# Output: JSON and plot

def write_json(path, doc):
    # Compact: these files are committed under bench/results/, whose size every GPU-machine call carries.
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def plot(doc, path):
    """One PNG: a panel per dtype, a group of bars (GB/s) per case, the memcpy levels marked per case."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    recs = doc["records"]
    dtypes = list(dict.fromkeys(r["dtype"] for r in recs))
    present = {r["system"] for r in recs if r.get("gbps")}
    systems = [s for s in SYSTEM_ORDER if s in present]
    systems += sorted(s for s in present if s not in systems and s not in ("memcpy", "xpose-memcpy"))
    lookup = {(r["dtype"], r["case"], r["system"]): r for r in recs}
    ncases = max([len({r["case"] for r in recs if r["dtype"] == d}) for d in dtypes] or [1])
    fig, axes = plt.subplots(len(dtypes) or 1, 1, figsize=(max(12.0, 1.25 * ncases + 3), 3.9 * max(1, len(dtypes))),
                             squeeze=False)
    width = 0.84 / max(1, len(systems))
    for ax, dt in zip(axes[:, 0], dtypes):
        cases = list(dict.fromkeys(r["case"] for r in recs if r["dtype"] == dt))
        for j, s in enumerate(systems):
            for i, case in enumerate(cases):
                r = lookup.get((dt, case, s))
                x = i - 0.42 + (j + 0.5) * width
                if r is None or not r.get("gbps"):
                    if r is not None and (r.get("skipped") or r.get("verification") == "ERROR"):
                        ax.text(x, 0, "-", ha="center", va="bottom", fontsize=7, color="0.5")
                    continue
                bad = r.get("verified") is False
                ax.bar(x, r["gbps"], width, color=SYSTEM_COLORS.get(s, "0.6"), edgecolor="red" if bad else "none",
                       hatch="xx" if bad else None, linewidth=0.8)
        for i, case in enumerate(cases):
            for system, style in (("memcpy", dict(colors="black", linestyles="solid", linewidth=1.6)),
                                  ("xpose-memcpy", dict(colors="0.45", linestyles="dashed", linewidth=1.2))):
                r = lookup.get((dt, case, system))
                if r and r.get("gbps"):
                    ax.hlines(r["gbps"], i - 0.45, i + 0.45, **style)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, rotation=20, ha="right", fontsize=9)
        ax.set_xlim(-0.6, len(cases) - 0.4)
        ax.set_ylabel("GB/s (read + write)")
        ax.set_title(dt, loc="left", fontsize=11, fontweight="bold")
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    handles = [Patch(color=SYSTEM_COLORS.get(s, "0.6"), label=s) for s in systems]
    handles += [Line2D([], [], color="black", linewidth=1.6, label="memcpy (this process)"),
                Line2D([], [], color="0.45", linestyle="dashed", linewidth=1.2, label="memcpy (xpose process)"),
                Patch(facecolor="white", edgecolor="red", hatch="xx", label="verification failed"),
                Line2D([], [], linestyle="none", marker="$-$", color="0.5", label="skipped / error")]
    # Title, then the legend under it, then the panels; sizes in inches so any panel count lays out alike.
    height = fig.get_figheight()
    ncol = 6
    header_in = 0.45 + 0.26 * math.ceil(len(handles) / ncol)
    dev = doc.get("device", {}).get("name", "?")
    fig.suptitle("Transpose GB/s by system, %s, %s" % (dev, doc.get("timestamp_utc", "")),
                 y=1 - 0.08 / height, va="top", fontsize=12)
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 1 - 0.4 / height), ncol=ncol, fontsize=9,
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - header_in / height))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------------
# Driver

def git_commit(xpose_commit=None):
    """The commit this run measured: the xpose build's own stamp when there is one (a copy of the tree
    on a GPU machine may carry a stale .git), else the checkout's HEAD."""
    if xpose_commit and xpose_commit != "unknown":
        return xpose_commit
    try:
        return subprocess.check_output(["git", "-C", REPO, "rev-parse", "HEAD"], stderr=subprocess.DEVNULL,
                                       text=True).strip()
    except Exception:
        return "unknown"


def run(args):
    os.makedirs(args.out_dir, exist_ok=True)
    t0 = time.time()
    xpose_cmd = None
    if args.cases_from:
        xpose_json = args.cases_from
    else:
        xpose_json = os.path.join(args.out_dir, "xpose_suite.json")
        xpose_cmd = run_xpose_cli(args.xpose, xpose_json, shlex.split(args.xpose_args))
    xdoc = load_records_json(xpose_json)
    cases = cases_from_xpose(xdoc, args.dtypes)
    if not cases:
        raise SystemExit("peers: no cases in %s for dtypes %s" % (xpose_json, ",".join(args.dtypes or [])))
    print("peers: %d cases from %s" % (len(cases), xpose_json), flush=True)

    session = PeerSession(args, (xdoc.get("device") or {}).get("l2_bytes", 0))
    dev = session.device_json()
    xdev = (xdoc.get("device") or {}).get("name")
    doc = {
        "schema_version": SCHEMA_VERSION,
        "tool": "bench/peers.py",
        "git_commit": git_commit(xdoc.get("git_commit")),
        "timestamp_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "argv": sys.argv,
        "device": dev,
        "versions": session.versions,
        "xpose": {"json": xpose_json, "command": xpose_cmd, "device": xdoc.get("device"),
                  "git_commit": xdoc.get("git_commit"), "timestamp_utc": xdoc.get("timestamp_utc"),
                  "same_device_name": xdev == dev["name"] if xdev else None},
        "method": {
            "warmup_runs": args.warmup, "timed_runs": args.iters, "statistic": "median time per call",
            "timer": session.timer.describe(),
            "l2_rotation": "buffer pairs rotated (%d at most) so that the calls between two uses of a pair touch "
                           "%.0fx the L2 (%d bytes); runs of up to %d calls, each on the pairs after the last run's; "
                           "time per call = run time / calls" % (MAX_ROTATING_PAIRS, L2_MULTIPLE, session.l2_bytes,
                                                                MAX_CALLS_PER_RUN),
            "gbps": "bytes read + written (2 x useful bytes) / time per call",
            "ratio_to_memcpy": "peers: to the memcpy record of the same case timed in this process; xpose: to the "
                               "memcpy the xpose CLI timed in its process (ratio_to_peers_memcpy: to this one)",
            "verification": "random input; whole output buffer poisoned with 0x%02X, one call, compared bit for bit "
                            "with torch's transpose (itself spot-checked by indexing), padding included" % POISON,
            "seed": args.seed,
        },
        "systems": {s: SYSTEM_WHAT.get(s, "xpose kernel " + s[len("xpose-"):]) for s in
                    ["xpose", "xpose-geam"] + session.systems},
        "records": [],
    }
    for idx, (case, entry) in enumerate(cases):
        print("peers: [%d/%d] %s %s" % (idx + 1, len(cases), case.dtype, case.label), flush=True)
        over = args.budget_s and time.time() - t0 > args.budget_s
        if entry["skipped"] or over:
            why = entry["skipped"] or "not run: the --budget-s of %d s was spent" % args.budget_s
            peer = [skipped_record(case, s, why) for s in ["memcpy"] + session.systems]
        else:
            try:
                peer = session.run_case(case, args.seed + idx)
            except Exception as e:  # e.g. out of memory: record it, go on
                peer = [error_record(case, s, e) for s in ["memcpy"] + session.systems]
                failed = True
            else:
                failed = False
            if failed:  # outside the handler, so the traceback no longer holds the case's buffers
                session.free_memory()
        mc = next((r for r in peer if r["system"] == "memcpy"), None)
        doc["records"] += xpose_records(case, entry, mc and mc.get("gbps")) + peer
        write_json(args.json_path, doc)  # written as it goes, so a cut-off run still leaves its data
    doc["elapsed_s"] = round(time.time() - t0, 1)
    write_json(args.json_path, doc)
    plot(doc, args.plot_path)
    print("peers: wrote %s and %s in %.0f s" % (args.json_path, args.plot_path, time.time() - t0), flush=True)


# ---------------------------------------------------------------------------------------------------
# Self-test: no GPU, no torch; exercises case parsing, records, JSON and the plot on a synthetic suite.

SUITE_SHAPES = [  # (rows, cols, batch, ld_in, ld_out): the suite of issue 3, for the synthetic JSON only
    (8192, 8192, 1, 0, 0), (16384, 16384, 1, 0, 0), (8191, 8193, 1, 0, 0), (1048576, 32, 1, 0, 0),
    (32, 1048576, 1, 0, 0), (1048576, 3, 1, 0, 0), (3, 1048576, 1, 0, 0), (2048, 2048, 64, 0, 0),
    (1000, 1000, 64, 0, 0), (8192, 8192, 1, 8200, 8200), (256, 256, 1, 0, 0), (1024, 1024, 1, 0, 0)]


def synthetic_xpose_doc():
    recs = []
    for dt in ("f64", "f32", "bf16", "u8", "c128"):
        for rows, cols, batch, ldi, ldo in SUITE_SHAPES:
            case = Case(dt, rows, cols, batch, ldi, ldo)
            base = {"dtype": dt, "rows": rows, "cols": cols, "batch": batch, "ld_in": case.ld_in,
                    "ld_out": case.ld_out, "bytes_moved": case.bytes_moved, "runs": 25, "calls_per_run": 1}
            if dt == "c128" and rows == 16384:  # a case the suite skips whole
                recs.append(dict(base, kernel="auto", verification="SKIPPED", verified=False,
                                 note="over the c128 memory budget"))
                continue
            copy = 3000.0 - 40 * len(recs) % 700
            recs.append(dict(base, kernel="memcpy", plan="device-to-device copy", time_us=case.bytes_moved / copy / 1e3,
                             gbps=copy, copy_gbps=copy, pct_of_copy=100.0, verification="-", verified=False, note=""))
            recs.append(dict(base, kernel="auto", plan="tiled<...>", time_us=case.bytes_moved / (0.9 * copy) / 1e3,
                             gbps=0.9 * copy, copy_gbps=copy, pct_of_copy=90.0, verification="PASSED", verified=True,
                             note=""))
            geam_ok = dt in GEAM_ROUTINES and batch == 1
            recs.append(dict(base, kernel="geam", plan="cublasDgeam", time_us=case.bytes_moved / (0.7 * copy) / 1e3,
                             gbps=0.7 * copy, copy_gbps=copy, pct_of_copy=70.0,
                             verification="PASSED" if geam_ok else "SKIPPED", verified=geam_ok,
                             note="" if geam_ok else "geam has no " + dt))
    return {"schema_version": 1, "tool": "xpose bench", "device": {"name": "Synthetic GPU", "l2_bytes": 50 * 2**20},
            "records": recs}


def geam_model(case, a_flat):
    """Column-major geam(T, N, alpha=1, beta=0) as cuBLAS defines it, on a flat list (for the self-test)."""
    transa, transb, m, n, lda, ldb, ldc = geam_args(case)
    assert (transa, transb) == ("T", "N") and ldb == ldc
    c = [None] * ((n - 1) * ldc + m)
    for j in range(n):
        for i in range(m):
            c[i + j * ldc] = a_flat[j + i * lda]  # op(A)(i, j) = A(j, i), A(j, i) at j + i * lda
    return c


def self_test(args):
    checks = []

    def check(name, ok):
        checks.append((name, bool(ok)))
        print("%s %s" % ("ok  " if ok else "FAIL", name))

    tmp = args.out_dir or tempfile.mkdtemp(prefix="peers-selftest-")
    os.makedirs(tmp, exist_ok=True)
    xjson = os.path.join(tmp, "xpose_synthetic.json")
    write_json(xjson, synthetic_xpose_doc())
    xdoc = load_records_json(xjson)
    cases = cases_from_xpose(xdoc)
    check("60 cases (12 shapes x 5 dtypes)", len(cases) == 60)
    labels = [c.label for c, _ in cases[:12]]
    check("labels name batch and ld", "64x2048x2048" in labels and "8192x8192 ld8200" in labels)
    ld = [c for c, _ in cases if c.ld_in == 8200][0]
    check("ld case spans", ld.in_span == 8191 * 8200 + 8192 and ld.out_span == 8191 * 8200 + 8192 and ld.out_has_gaps)
    skipped = [c for c, e in cases if e["skipped"]]
    check("whole-case skip found", len(skipped) == 1 and skipped[0].dtype == "c128" and skipped[0].rows == 16384)
    check("dtype filter", len(cases_from_xpose(xdoc, ["u8", "f32"])) == 24)
    small = [c for c, _ in cases if c.dtype == "u8" and c.rows == 256][0]
    check("rotation: small case cold (3x L2 of pairs)", rotating_pairs(small, 50 * 2**20) == 1200)
    check("rotation: runs capped", calls_per_run(rotating_pairs(small, 50 * 2**20)) == MAX_CALLS_PER_RUN)
    tiny = Case("u8", 16, 16)
    check("rotation: pair cap", rotating_pairs(tiny, 50 * 2**20) == MAX_ROTATING_PAIRS)
    big = [c for c, _ in cases if c.dtype == "f32" and c.rows == 8192 and c.ld_in == 8192][0]
    check("rotation: big case one pair", rotating_pairs(big, 50 * 2**20) == 1)
    mid = Case("f32", 1024, 1024)  # 8 MiB per pair -> 3 * 50 MiB / 8 MiB = 18
    check("rotation: 3x L2 rule", rotating_pairs(mid, 50 * 2**20) == 18)
    ok_tiles = True
    for c, _ in cases:
        for br, bc, w in triton_tile_candidates(c.rows, c.cols, c.esize):
            ok_tiles &= br & (br - 1) == 0 and bc & (bc - 1) == 0 and br * bc * c.esize <= 32768 and w in (4, 8)
    check("triton tiles powers of two within 32 KiB", ok_tiles)
    check("triton skinny tiles", triton_tile_candidates(1048576, 3, 8)[0][1] == 4 and
          triton_tile_candidates(3, 1048576, 1)[0][0] == 4)
    for c in (Case("f64", 5, 7, 1, 9, 6), Case("f32", 4, 3)):
        a = list(range(c.in_span))
        got = geam_model(c, a)
        want_ok = all(got[col * c.ld_out + row] == a[row * c.ld_in + col] for row in range(c.rows)
                      for col in range(c.cols))
        check("geam arguments transpose %s" % c.label, want_ok)
    # Fake peer results, then the real JSON and plot code.
    doc = {"schema_version": SCHEMA_VERSION, "tool": "bench/peers.py", "timestamp_utc": "synthetic",
           "device": {"name": "Synthetic GPU"}, "records": []}
    for idx, (case, entry) in enumerate(cases):
        if entry["skipped"]:
            peer = [skipped_record(case, s, entry["skipped"]) for s in ["memcpy"] + PEERS]
        else:
            copy = 2900.0
            peer = [result_record(case, "memcpy", time_us=case.bytes_moved / copy / 1e3, memcpy_gbps=copy,
                                  verification="-")]
            for j, s in enumerate(PEERS):
                if s == "cupy" and case.dtype == "bf16":
                    peer.append(skipped_record(case, s, "CuPy has no bf16 dtype"))
                elif s == "cupy-geam" and case.dtype not in GEAM_ROUTINES:
                    peer.append(skipped_record(case, s, "cuBLAS geam has no " + case.dtype))
                else:
                    frac = 0.3 + 0.15 * j + 0.02 * (idx % 5)
                    peer.append(result_record(case, s, time_us=case.bytes_moved / (frac * copy) / 1e3,
                                              memcpy_gbps=copy, verification="FAILED" if idx == 3 and j == 1
                                              else "PASSED"))
        mc = peer[0].get("gbps")
        doc["records"] += xpose_records(case, entry, mc) + peer
    out_json = os.path.join(tmp, "peers_synthetic.json")
    write_json(out_json, doc)
    back = load_records_json(out_json)  # any JSON with a records list loads
    r = [x for x in back["records"] if x["system"] == "torch" and x["gbps"]][0]
    check("records carry gbps and ratio", abs(r["ratio_to_memcpy"] - r["gbps"] / r["memcpy_gbps"]) < 1e-9)
    check("xpose ratio is its own", all(abs(x["ratio_to_memcpy"] - 0.9) < 1e-9 for x in back["records"]
                                        if x["system"] == "xpose" and x["gbps"]))
    png = os.path.join(tmp, "peers_synthetic.png")
    try:
        plot(back, png)
        check("plot written", os.path.getsize(png) > 10000)
    except ImportError as e:
        check("plot written (matplotlib missing: %s)" % e, False)
    failed = sum(1 for _, ok in checks if not ok)
    print("files in %s" % tmp)
    print("self-test: %d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run the xpose benchmark suite through xpose, PyTorch, CuPy, Triton and cuBLAS geam (via "
                    "CuPy) on one GPU; write one JSON and one PNG. The cases come from `xpose bench --suite --json`.",
        epilog="Example (GPU machine): python3 bench/peers.py --out-dir $OUT")
    p.add_argument("--xpose", default=DEFAULT_XPOSE,
                   help="the xpose CLI to run with `bench --suite --json` (default %(default)s)")
    p.add_argument("--xpose-lib", default=DEFAULT_XPOSE_LIB,
                   help="libxpose_c for the in-process system xpose-lib (default %(default)s)")
    p.add_argument("--xpose-args", default="", help="extra arguments for `xpose bench --suite`, one shell string")
    p.add_argument("--cases-from", metavar="FILE.json",
                   help="take the cases (and xpose's results) from this `xpose bench --json` file; don't run the CLI")
    p.add_argument("--dtypes", default="", help="comma list of dtypes to keep (default: all in the xpose JSON)")
    p.add_argument("--systems", default=",".join(PEERS), help="comma list of peers (default: all of %(default)s)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs before timing (default %(default)s)")
    p.add_argument("--iters", type=int, default=25,
                   help="timed runs; the median is reported (default %(default)s, at least 20)")
    p.add_argument("--seed", type=int, default=20261122, help="seed of the random inputs (default %(default)s)")
    p.add_argument("--budget-s", type=int, default=0,
                   help="start no new case after this many seconds (counting the xpose run); the rest are "
                        "recorded as skipped and the JSON and plot still get written (default: no limit)")
    p.add_argument("--no-spin", action="store_true",
                   help="launch eagerly, no spin kernel before each run (small cases then time Python)")
    p.add_argument("--out-dir", default="", help="folder for xpose_suite.json, peers.json and peers.png (default: .)")
    p.add_argument("--json", dest="json_path", default="", help="output JSON (default OUT_DIR/peers.json)")
    p.add_argument("--plot", dest="plot_path", default="", help="output PNG (default OUT_DIR/peers.png)")
    p.add_argument("--replot", metavar="PEERS.json",
                   help="only redraw the plot (to --plot, default PEERS.png) from a JSON this script wrote")
    p.add_argument("--self-test", action="store_true",
                   help="no GPU needed: parse a synthetic xpose JSON, write JSON and a plot (to --out-dir or a "
                        "temporary folder), print the checks")
    args = p.parse_args(argv)
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    for d in args.dtypes:
        if d not in DTYPES:
            p.error("--dtypes: unknown '%s' (known: %s)" % (d, ", ".join(DTYPES)))
    args.systems = [s for s in args.systems.split(",") if s]
    for s in args.systems:
        if s not in PEERS:
            p.error("--systems: unknown '%s' (known: %s)" % (s, ", ".join(PEERS)))
    if args.replot:
        args.plot_path = args.plot_path or os.path.splitext(args.replot)[0] + ".png"
        return args
    if args.iters < 20 and not args.self_test:
        p.error("--iters: the suite reports the median of at least 20 timed runs")
    if args.warmup < 1:
        p.error("--warmup must be >= 1 (the first call compiles and loads kernels)")
    if not args.self_test:
        args.out_dir = args.out_dir or "."
        args.json_path = args.json_path or os.path.join(args.out_dir, "peers.json")
        args.plot_path = args.plot_path or os.path.join(args.out_dir, "peers.png")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        return self_test(args)
    if args.replot:
        plot(load_records_json(args.replot), args.plot_path)
        print("peers: wrote %s" % args.plot_path)
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
