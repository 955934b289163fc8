#!/usr/bin/env bash
# On the GPU machine: records Nsight Compute captures of the ladder + geam (a test fixture at 1024x1024
# f64, for tests/fixtures/) and the default `xpose profile` table at 8192x8192 f64 (for bench/results/).
#
# Usage, from the repo root with a tree built in build-gpu/ and an output folder in $OUT:
#   OUT=/path/to/out scripts/capture_ncu_fixture.sh
# Writes under $OUT (6 files; about 1.5 minutes expected, 3 at most):
#   ncu_raw_<gpu>.csv        ncu's own output per kernel, 1024x1024 f64 (<gpu>: h100, h200, ... from nvidia-smi)
#   profile_1024_f64.json    the table built from it, plus its printed form in profile_1024_f64.txt
#   profile_8192_f64.json    `xpose profile --kernels all` at 8192x8192 f64 (ladder, geam, auto), printed
#                            form in profile_8192_f64.txt
#   capture.log              GPU, ncu version, commit, timings, and the reason of any failure
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder the results go to}"
xpose="${XPOSE:-build-gpu/apps/xpose/xpose}"
mkdir -p "$OUT"
log="$OUT/capture.log"
# Logs of a failed ncu run land here, so they come back with the results.
export TMPDIR="$OUT/tmp"
mkdir -p "$TMPDIR"

if [ ! -x "$xpose" ]; then
  echo "capture: $xpose not found; build build-gpu/ first (GPU.md)" | tee -a "$log" >&2
  exit 2
fi

gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
tag="$(printf '%s' "$gpu" | grep -oiE '[abhl][0-9]{2,3}s?' | head -n 1 | tr '[:upper:]' '[:lower:]')"
tag="${tag:-gpu}"
{
  echo "gpu: ${gpu:-unknown} (files tagged '$tag')"
  echo "commit: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  echo "xpose: $xpose"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$log"

status=0
# run NAME TIMEOUT ARGS...: one `xpose profile` with its printed table in $OUT/NAME.txt.
run() {
  local name="$1" limit="$2"
  shift 2
  local start=$SECONDS
  timeout "$limit" "$xpose" profile "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  echo "$name: exit $rc after $((SECONDS - start)) s: xpose profile $*" >>"$log"
  if [ "$rc" -ne 0 ]; then
    tail -n 3 "$OUT/$name.txt" | sed 's/^/  /' >>"$log"
    status=1
  fi
}

# Small shape for the fixture: fast, and every counter of the table present for every kernel.
run profile_1024_f64 60 --shape 1024x1024 --dtype f64 --kernels ladder,geam \
  --save-raw "$OUT/ncu_raw_$tag.csv" --json "$OUT/profile_1024_f64.json"
# The walk-through's case: 8192x8192 f64, 512 MiB each way, far past the L2; ladder + geam + auto.
run profile_8192_f64 115 --kernels all --json "$OUT/profile_8192_f64.json"

grep -m1 '^# ncu:' "$OUT/ncu_raw_$tag.csv" 2>/dev/null >>"$log"
rmdir "$TMPDIR" 2>/dev/null
cat "$log"
exit "$status"
