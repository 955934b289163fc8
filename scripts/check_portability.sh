#!/usr/bin/env bash
# Fails when CUDA- or HIP-only names appear in code outside the portability layer.
#
# Only src/gpu/runtime.hpp (the runtime) and src/gpu/vendor/ (cuBLAS / rocBLAS) may name a vendor;
# kernels, launchers, the library, the CLI and the tests go through rt:: so that one source builds
# with nvcc and hipcc. Comments and string literals are stripped first: they may mention
# cudaStream_t or read $CUDA_HOME without tying the code to a vendor (#include lines are kept whole).
# Lower-case `cuda` alone (Backend::cuda, a variable cuda_home) is xpose's own name, not a vendor's.
# Usage: scripts/check_portability.sh   (from anywhere; exit 1 and a list of hits when any)
set -euo pipefail
cd "$(dirname "$0")/.."

# Vendor API prefixes, vendor-only macros and CUDA-only device features. Each alternative must be a
# name, not a word that could be ours.
names=(
  '\bcuda[A-Z][A-Za-z0-9_]*'         # cudaMalloc, cudaStream_t
  '\bcuda_[a-z0-9_]+\.h'              # cuda_runtime.h, cuda_fp16.h
  '\bcuda(::|/)'                      # libcu++ (cuda::std, <cuda/pipeline>)
  '\bCU(DA|BLAS|TENSOR|RAND|FFT)_[A-Z0-9_]*'   # CUDA_VERSION, CUBLAS_OP_T, ...
  '\b__CUDA[A-Z_]*'                   # __CUDA_ARCH__, __CUDACC__
  '\bcu(blas|tensor|rand|fft|sparse|solver|Complex|DoubleComplex)[A-Za-z0-9_]*'
  '\bcu[A-Z][A-Za-z0-9]*\('          # driver API: cuInit(, cuModuleLoad(, ...
  '\bCU(tensorMap|stream|context|device|result)\b'
  '\b__nv_[A-Za-z0-9_]*'              # __nv_bfloat16, __nv_fp8_*
  '\bnv(cuda|rtc|tx)[A-Za-z0-9_]*'    # nvcuda::wmma, nvrtc*, nvtx*
  '\bcub::'                           # CUB is CUDA-only (hipCUB differs)
  '\bcooperative_groups\b'
  '\b__(shfl|shfl_up|shfl_down|shfl_xor|ballot|any|all|match_any|match_all|reduce_add)_sync\b'
  '\b__(syncwarp|activemask)\b'
  '\basm\s*(volatile\s*)?\('          # inline PTX
  '\bhip[A-Z][A-Za-z0-9_]*'           # hipMalloc, hipStream_t
  '\bhip(_[a-z0-9_]+\.h|/)'            # hip_runtime.h, <hip/hip_fp16.h>
  '\b__HIP[A-Z_]*'                    # __HIP_PLATFORM_AMD__, __HIP_DEVICE_COMPILE__
  '\bHIP_[A-Z0-9_]+'
  '\b__(gfx|GFX)[0-9A-Za-z_]*'        # __GFX9__, __gfx90a__
  '\broc(blas|prim|fft|rand|sparse|solver)[A-Za-z0-9_]*'
  '\bhip(cub|blas|fft)\b'
)
pattern=$(IFS='|'; echo "${names[*]}")

# Prints file:line:code for every line of C/C++ source, with // and /* */ comments removed and
# string literals emptied except on #include lines.
strip_comments() {
  awk '
    FNR == 1 { in_block = 0 }
    {
      line = $0; out = ""
      while (length(line) > 0) {
        if (in_block) {
          end = index(line, "*/")
          if (end == 0) { line = ""; break }
          line = substr(line, end + 2); in_block = 0
        } else {
          b = index(line, "/*"); s = index(line, "//")
          if (s > 0 && (b == 0 || s < b)) { out = out substr(line, 1, s - 1); line = ""; break }
          if (b == 0) { out = out line; line = ""; break }
          out = out substr(line, 1, b - 1); line = substr(line, b + 2); in_block = 1
        }
      }
      if (out !~ /^[ \t]*#[ \t]*include/) gsub(/"([^"\\]|\\.)*"/, "\"\"", out)
      print FILENAME ":" FNR ":" out
    }' "$@"
}

mapfile -t files < <(find src apps include tests -type f \
  \( -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' \) \
  ! -path 'src/gpu/runtime.hpp' ! -path 'src/gpu/vendor/*' | sort)

hits=$(strip_comments "${files[@]}" | grep -E "^[^:]+:[0-9]+:.*(${pattern})" || true)
if [ -n "$hits" ]; then
  echo "check_portability: vendor-only names outside src/gpu/runtime.hpp and src/gpu/vendor/:" >&2
  echo "$hits" >&2
  echo "check_portability: go through xpose::rt (src/gpu/runtime.hpp) instead" >&2
  exit 1
fi
echo "check_portability: OK (${#files[@]} files, no CUDA/HIP-only names outside the portability layer)"
