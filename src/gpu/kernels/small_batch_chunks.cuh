// small_batch for packed batches of matrices of 16 / k bytes: each aligned 16-byte chunk holds k
// whole matrices and is transposed in registers with byte permutes (plan/chunk_permutation.hpp), so
// the loads and stores stream as in a copy. On the one-tile path each 16-byte output vector of a u8
// 4x4 batch took 16 shared loads and as many index steps (H200: 0.74 of memcpy, issue-bound).
#pragma once

#include <cstdint>

#include "plan/chunk_permutation.hpp"

namespace xpose::gpu {

constexpr int kChunkThreads = 256;

__device__ __forceinline__ std::uint32_t permuted_word(const uint4& v, const std::uint32_t (&sel)[3]) {
  return __byte_perm(__byte_perm(v.x, v.y, sel[0]), __byte_perm(v.z, v.w, sel[1]), sel[2]);
}

// Block (kChunkThreads); grid: one chunk per thread. `in` and `out` 16-byte aligned, `bytes` of
// whole matrices (rows x cols of element_bytes) in all; a last chunk cut short goes byte by byte.
__global__ void __launch_bounds__(kChunkThreads)
    small_batch_chunks_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, std::int64_t bytes,
                              ChunkPermutation p, int rows, int cols, int element_bytes) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kChunkThreads + threadIdx.x;
  if (16 * (i + 1) <= bytes) {
    const uint4 v = reinterpret_cast<const uint4*>(in)[i];
    reinterpret_cast<uint4*>(out)[i] =
        make_uint4(permuted_word(v, p.sel[0]), permuted_word(v, p.sel[1]), permuted_word(v, p.sel[2]), permuted_word(v, p.sel[3]));
  } else if (16 * i < bytes) {
    for (int j = 0; j < static_cast<int>(bytes - 16 * i); ++j)
      out[16 * i + j] = in[16 * i + chunk_source_byte(rows, cols, element_bytes, j)];
  }
}

}  // namespace xpose::gpu
