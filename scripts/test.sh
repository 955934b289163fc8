#!/usr/bin/env bash
# Sets up, builds and runs every test (GPU tests skip, with a reason, where there is no device).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build
ctest --output-on-failure -j "$(nproc)"
