#!/usr/bin/env bash
# Builds the host-only library, CLI and tests with clang and runs the tests (GPU tests skip): the
# CPU backend's per-function AVX2 code and C++17 rules are checked by a second compiler, which is
# stricter than GCC on both (32-byte vectors outside an AVX2 function, lambdas capturing structured
# bindings).
# Usage: scripts/test_clang.sh [build-dir]   (default build-clang)
# Installs Debian's clang (and the usual build packages) when clang++ is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev)
command -v clang++ >/dev/null 2>&1 || packages+=(clang)
bash scripts/install_packages.sh "${packages[@]}"

build_dir="${1:-build-clang}"
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXPOSE_GPU=none
cmake --build "$build_dir" -j "$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
