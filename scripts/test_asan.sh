#!/usr/bin/env bash
# Builds the CPU tests with AddressSanitizer (no GPU backend) and runs them: the CPU backend's vector
# loads and stores read and write whole 16- and 32-byte pieces, and a piece past a buffer's end
# gives right answers in an ordinary build; the tests' buffers end where their spans do, so
# AddressSanitizer reports it.
# Usage: scripts/test_asan.sh [build-dir]   (default build-asan)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_packages.sh cmake g++ ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev

build_dir="${1:-build-asan}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXPOSE_GPU=none \
  -DCMAKE_CXX_FLAGS="-fsanitize=address -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address
cmake --build "$build_dir" -j "$(nproc)" --target xpose_cpu_tests
"$build_dir/tests/xpose_cpu_tests"
