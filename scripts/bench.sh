#!/usr/bin/env bash
# Sets up, builds and runs `xpose bench` (on the GPU when one is present, else the CPU backend).
# Extra arguments go to `xpose bench`, e.g. scripts/bench.sh --dtype f32 --json out.json
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
exec build/apps/xpose/xpose bench "$@"
