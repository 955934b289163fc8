#!/usr/bin/env bash
# Installs what xpose builds with (Debian/Ubuntu packages, by name) and configures + builds it.
# Usage: scripts/setup.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_packages.sh cmake g++ ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev

build_dir="${1:-build}"
shift || true
# The GPU backend is built when nvcc is found (XPOSE_GPU=auto); the CPU backend always is.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j "$(nproc)"
