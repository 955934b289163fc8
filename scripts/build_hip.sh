#!/usr/bin/env bash
# Builds xpose for AMD GPUs (library, CLI, all tests) with hipcc; compiles only, needs no AMD GPU.
# Usage: scripts/build_hip.sh [build-dir] [extra cmake args...]
#   build-dir defaults to build-hip; targets default to gfx90a (-DXPOSE_HIP_ARCHITECTURES="gfx90a;gfx942").
# Installs Debian's hipcc and libamdhip64-dev (and the usual build packages) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev)
# ROCm installed elsewhere (/opt/rocm) brings its own hipcc: only fall back to Debian's packages.
command -v hipcc >/dev/null 2>&1 || packages+=(hipcc libamdhip64-dev)
bash scripts/install_packages.sh "${packages[@]}"

build_dir="${1:-build-hip}"
shift || true
start=$(date +%s)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXPOSE_GPU=hip "$@"
cmake --build "$build_dir" -j "$(nproc)"

# The device code must really be in the library: one offload bundle per target asked for.
archs=$(sed -n 's/^XPOSE_HIP_ARCHITECTURES:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
IFS=';' read -r -a arch_list <<< "$archs"
for arch in "${arch_list[@]}"; do
  if ! grep -aq "amdgcn-amd-amdhsa--${arch}" "$build_dir/src/libxpose.a"; then
    echo "build_hip: no ${arch} device code in $build_dir/src/libxpose.a" >&2
    exit 1
  fi
done
echo "build_hip: OK, library, CLI and tests built for ${archs} in $(( $(date +%s) - start ))s (not run: no AMD GPU here)"
