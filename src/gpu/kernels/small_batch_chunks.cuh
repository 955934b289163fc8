// small_batch for packed batches of matrices of 16 / k bytes: each aligned 16-byte chunk holds k
// whole matrices and is transposed in registers with byte permutes (plan/chunk_permutation.hpp), so
// the loads and stores stream as in a copy. On the one-tile path each 16-byte output vector of a u8
// 4x4 batch took 16 shared loads and as many index steps (H200: 0.74 of memcpy, issue-bound).
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/chunk_part.cuh"
#include "plan/chunk_permutation.hpp"

namespace xpose::gpu {

constexpr int kChunkThreads = 256;

__device__ __forceinline__ std::uint32_t permuted_word(const uint4& v, const std::uint32_t (&sel)[3]) {
  return __byte_perm(__byte_perm(v.x, v.y, sel[0]), __byte_perm(v.z, v.w, sel[1]), sel[2]);
}

__device__ __forceinline__ uint4 permuted_chunk(const uint4& v, const ChunkPermutation& p) {
  return make_uint4(permuted_word(v, p.sel[0]), permuted_word(v, p.sel[1]), permuted_word(v, p.sel[2]),
                    permuted_word(v, p.sel[3]));
}

// Block (kChunkThreads); grid: one chunk per thread. `in` and `out` 16-byte aligned, `bytes` of
// whole matrices (rows x cols of element_bytes) in all; a last chunk cut short goes byte by byte.
__global__ void __launch_bounds__(kChunkThreads)
    small_batch_chunks_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, std::int64_t bytes,
                              ChunkPermutation p, int rows, int cols, int element_bytes) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kChunkThreads + threadIdx.x;
  if (16 * (i + 1) <= bytes) {
    const uint4 v = reinterpret_cast<const uint4*>(in)[i];
    reinterpret_cast<uint4*>(out)[i] = permuted_chunk(v, p);
  } else if (16 * i < bytes) {
    for (int j = 0; j < static_cast<int>(bytes - 16 * i); ++j)
      out[16 * i + j] = in[16 * i + chunk_source_byte(rows, cols, element_bytes, j)];
  }
}

// The same transpose with `in` and `out` anywhere (each at least element-aligned): both are packed
// byte streams, so logical chunk i (stream bytes 16 i to 16 i + 15, whole matrices) is transposed as
// above wherever it lies. Thread j writes the output's aligned chunk j, which holds the last out % 16
// bytes of transposed chunk j - 1 and the first bytes of chunk j; those are cut from the input's
// aligned chunks j - 1, j and j + 1, each thread loading its own and taking its neighbours' by shuffle
// (the groups' end lanes load their missing neighbour themselves, alongside their own), so the loads
// stream as in a copy.
// Bytes outside the caller's buffers are neither read nor written: chunks that reach past either end
// are read byte by byte and written in aligned pieces (store_chunk_part). kInShifted / kOutShifted:
// `in` / `out` off the 16-byte grid (one of them, at least). Block (kChunkThreads); grid: one thread
// per aligned output chunk that holds a byte of the output, a whole number of 32-lane groups.
// Capped at 32 registers (8 blocks per SM): with both pointers shifted the early edge load took it to
// 33, 6 blocks, and it ran slower than loading after the shuffle (H200, u8 4x4 batch 0.955 -> 0.898);
// capped, it spills 4 bytes and runs at 0.97 (bench/results/h200_2026-11-30j_small_batch_edge_load.txt).
template <bool kInShifted, bool kOutShifted>
__global__ void __launch_bounds__(kChunkThreads, 8)
    small_batch_chunks_shifted_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                                      std::int64_t bytes, ChunkPermutation p) {
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * kChunkThreads + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int in_shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) & 15);
  const int out_shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(out) & 15);
  const unsigned char* in_grid = in - in_shift;  // aligned chunk q at in_grid + 16 q
  const unsigned char* in_end = in + bytes;
  const auto input_chunk = [&](std::int64_t q) { return load_chunk(in_grid + 16 * q, in, in_end, in, in_end); };
  const uint4 mine = input_chunk(j);
  // The end lanes' missing neighbour (lane 31's next chunk, lane 0's previous one), loaded with
  // their own chunk rather than after the shuffle, so that the warp waits on memory once.
  uint4 edge = make_uint4(0, 0, 0, 0);
  if (kInShifted && lane == 31) edge = input_chunk(j + 1);
  else if (kOutShifted && lane == 0) edge = input_chunk(j - 1);
  uint4 chunk;
  // Both shifts are the whole launch's: one branch on each word offset, for realignments by funnel
  // shifts alone (the other side's offset is 0 and branches nowhere). H200, 64 MiB, of memcpy, selects
  // -> branch (bench/results/h200_2026-11-30h_word_offset_branch.txt): both pointers one element off,
  // u8 4x4 / bf16 2x4 / f32 2x2 batches 0.85 -> 0.95-0.96; the output alone 0.965 -> 0.99.
  with_word_offset(kInShifted ? in_shift : 0, [&](auto in_words) {
    with_word_offset(kOutShifted ? 16 - out_shift : 0, [&](auto out_words) {
      constexpr int kIn = decltype(in_words)::value;
      // Transposed chunk j (needs aligned input chunks j and j + 1 where the input is shifted).
      uint4 logical = mine;
      if constexpr (kInShifted) {
        uint4 next = shfl_chunk_down(mine);
        if (lane == 31) next = edge;
        logical = byte_window_at<kIn>(mine, next, in_shift);
      }
      const uint4 t = permuted_chunk(logical, p);
      chunk = t;
      if constexpr (kOutShifted) {
        // Transposed chunk j - 1 (needs aligned input chunks j - 1 and j where the input is shifted).
        uint4 before = shfl_chunk_up(mine);
        if (lane == 0) before = edge;
        const uint4 prior = kInShifted ? byte_window_at<kIn>(before, mine, in_shift) : before;
        chunk = byte_window_at<decltype(out_words)::value>(permuted_chunk(prior, p), t, 16 - out_shift);
      }
    });
  });
  // Output chunk j holds stream bytes [16 j - out_shift, 16 j - out_shift + 16).
  const std::int64_t first = 16 * j - out_shift;
  unsigned char* dst = out + first;  // 16-byte aligned
  if (first >= 0 && first + 16 <= bytes) {
    *reinterpret_cast<uint4*>(dst) = chunk;
  } else {
    const int lo = first < 0 ? static_cast<int>(-first) : 0;
    const int hi = bytes - first < 16 ? static_cast<int>(bytes - first) : 16;
    if (lo < hi) store_chunk_part(dst, chunk, lo, hi);
  }
}

}  // namespace xpose::gpu
