// A matrix of 9 to 48 rows of 1- or 2-byte elements with packed output rows (ld_out == rows) on the
// 16-byte grid: skinny_rows_regs with narrower pieces, so that a thread's run fits 32 registers (48
// past 32 rows) and its group's stage 4 KiB (6). Each thread loads W bytes of every input row (8 for
// up to 16 rows, 4 for more), which make W * R contiguous output bytes, transposes them in registers with the same
// byte permutes, and its group of 32 writes its 32 runs, one contiguous stretch, through a
// shared-memory stage in 16-byte stores of 512 contiguous bytes each. Input rows off the W-byte grid
// are read as the two aligned pieces each run straddles and realigned. One run per thread, no loop:
// grid (runs / block, batch). Before it, these shapes ran skinny's slabs (whose store phase builds
// every output chunk element by element from shared memory), tiled_vec's tiles or gather.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/skinny_rows_regs.cuh"  // run_word, run_chunk, stage_slot, kRegsLaneGroup
#include "gpu/runtime.hpp"                   // rt::warp_all, rt::warp_sync
#include "plan/gpu_planner.hpp"              // kSkinnyRegsWideMinRows / MaxRows, shared with the planner

namespace xpose::gpu {

// Bytes of every input row one thread reads: W * R <= 128 up to 32 rows, 192 past that.
constexpr int rows_regs_wide_piece_bytes(int rows) { return rows <= 16 ? 8 : 4; }

// Threads per block: 256 up to 32 rows; 128 past that, so that the block's stages (4 KiB or more a
// group) fit the static shared memory.
constexpr int rows_regs_wide_threads(int rows) { return rows <= 32 ? 256 : 128; }

// Blocks per SM the kernel is built for: every instance holds its registers under that cap without
// spills (40-64 up to 32 rows; past that 56-112 aligned, 152-168 realigning).
constexpr int rows_regs_wide_blocks(int rows) { return rows <= 32 ? 4 : 3; }

// W aligned bytes at a (W = 8 or 4) as words.
template <int W>
__device__ __forceinline__ void load_aligned_piece(const unsigned char* a, std::uint32_t* w) {
  static_assert(W == 8 || W == 4, "pieces of 8 or 4 bytes");
  if constexpr (W == 8) {
    const uint2 v = *reinterpret_cast<const uint2*>(a);
    w[0] = v.x, w[1] = v.y;
  } else {
    w[0] = *reinterpret_cast<const std::uint32_t*>(a);
  }
}

// Bytes [shift, shift + W) of the 2 * W bytes in w, as W / 4 words (selects and funnel shifts: a
// register array indexed at run time would live in local memory).
template <int W>
__device__ __forceinline__ void realign_piece(const std::uint32_t (&w)[2 * W / 4], int shift,
                                              std::uint32_t (&x)[W / 4]) {
  const unsigned bits = 8 * (shift & 3);
  if constexpr (W == 8) {
    std::uint32_t t[3];
#pragma unroll
    for (int j = 0; j < 3; ++j) t[j] = (shift & 4) ? w[j + 1] : w[j];
    x[0] = __funnelshift_r(t[0], t[1], bits);
    x[1] = __funnelshift_r(t[1], t[2], bits);
  } else {
    x[0] = __funnelshift_r(w[0], w[1], bits);
  }
}

// A run's W bytes of each of the R input rows, the first at src, ld bytes apart. kShifted: rows
// anywhere (off the W-byte grid): each row's two aligned pieces around its W bytes, every load issued
// before the first realignment (a branch per row kept each row's loads waiting on the one before:
// 0.52-0.74 of memcpy on an H200); only a thread whose pieces would reach outside [in, in_end) (at
// the input's first or last bytes) reads byte by byte what it needs.
template <int W, int R, bool kShifted>
__device__ __forceinline__ void load_run_pieces(const unsigned char* src, std::int64_t ld, const unsigned char* in,
                                                const unsigned char* in_end, std::uint32_t (&x)[R][W / 4]) {
  if constexpr (!kShifted) {
#pragma unroll
    for (int s = 0; s < R; ++s) load_aligned_piece<W>(src + s * ld, x[s]);
  } else {
    const auto align_down = [](const unsigned char* p) {
      return p - (reinterpret_cast<std::uintptr_t>(p) & (W - 1));
    };
    if (align_down(src) >= in && align_down(src + (R - 1) * ld) + 2 * W <= in_end) {
      std::uint32_t w[R][2 * W / 4];
#pragma unroll
      for (int s = 0; s < R; ++s) {
        const unsigned char* a = align_down(src + s * ld);
        load_aligned_piece<W>(a, w[s]);
        load_aligned_piece<W>(a + W, w[s] + W / 4);
      }
#pragma unroll
      for (int s = 0; s < R; ++s)
        realign_piece<W>(w[s], static_cast<int>(reinterpret_cast<std::uintptr_t>(src + s * ld) & (W - 1)), x[s]);
    } else {
#pragma unroll
      for (int s = 0; s < R; ++s) {
#pragma unroll
        for (int i = 0; i < W / 4; ++i) x[s][i] = 0;
        for (int q = 0; q < W; ++q) x[s][q / 4] |= static_cast<std::uint32_t>(src[s * ld + q]) << (8 * (q % 4));
      }
    }
  }
}

// Block rows_regs_wide_threads(R), grid (ceil(runs / block), batch); `runs` = ceil(cols / (W / E)) per
// matrix. Strides in bytes; in_end bounds the realigning reads.
template <int E, int R, bool kShifted>
__global__ void __launch_bounds__(rows_regs_wide_threads(R), rows_regs_wide_blocks(R))
    skinny_rows_regs_wide_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                 unsigned char* __restrict__ out, std::int64_t ld_in, std::int64_t bs_in,
                                 std::int64_t bs_out, std::int64_t cols, std::int64_t runs) {
  static_assert(E <= 2 && R >= plan::kSkinnyRegsWideMinRows && R <= plan::kSkinnyRegsWideMaxRows,
                "9 to 48 rows of 1- or 2-byte elements");
  constexpr int W = rows_regs_wide_piece_bytes(R);
  constexpr int V = W / E;           // columns per run
  constexpr int kRunBytes = W * R;   // a multiple of 4
  // The stage is written in units of the largest power of two that divides a run (up to 16 bytes):
  // a run of an odd number of units puts the lanes of one shared-memory access in different banks;
  // an even number of 16-byte units takes stage_slot's spare slot per 8.
  constexpr int U = kRunBytes % 16 == 0 ? 16 : kRunBytes % 8 == 0 ? 8 : 4;
  constexpr int Q = kRunBytes / U;                               // units per run
  constexpr int kChunks = kRegsLaneGroup * kRunBytes / 16;       // 16-byte chunks of a group's stretch
  constexpr int kSlots = U == 16 ? stage_slot<Q>(kChunks - 1) + 1 : kChunks;
  constexpr int kThreads = rows_regs_wide_threads(R), kGroups = kThreads / kRegsLaneGroup;
  __shared__ uint4 stage[kGroups][kSlots];
  const int lane = threadIdx.x % kRegsLaneGroup, group = threadIdx.x / kRegsLaneGroup;
  const std::uint32_t b = blockIdx.y;  // the matrix
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  out += b * bs_out;
  const std::int64_t c0 = t * V;
  const bool whole = t < runs && c0 + V <= cols;
  const unsigned char* src = in + b * bs_in + c0 * E;
  std::uint32_t x[R][W / 4];
  if (whole) load_run_pieces<W, R, kShifted>(src, ld_in, in, in_end, x);
  unsigned char* dst = out + c0 * R * E;
  if (rt::warp_all(whole)) {
    if constexpr (U == 16) {
#pragma unroll
      for (int k = 0; k < Q; ++k) stage[group][stage_slot<Q>(Q * lane + k)] = run_chunk<E, R>(x, k);
    } else if constexpr (U == 8) {
      auto* units = reinterpret_cast<uint2*>(stage[group]);
#pragma unroll
      for (int k = 0; k < Q; ++k)
        units[Q * lane + k] = make_uint2(run_word<E, R>(x, 2 * k), run_word<E, R>(x, 2 * k + 1));
    } else {
      auto* units = reinterpret_cast<std::uint32_t*>(stage[group]);
#pragma unroll
      for (int k = 0; k < Q; ++k) units[Q * lane + k] = run_word<E, R>(x, k);
    }
    rt::warp_sync();
    unsigned char* stretch = dst - kRunBytes * lane;
#pragma unroll
    for (int i = 0; i < (kChunks + kRegsLaneGroup - 1) / kRegsLaneGroup; ++i) {
      const int c = kRegsLaneGroup * i + lane;
      if (kChunks % kRegsLaneGroup == 0 || c < kChunks)
        *reinterpret_cast<uint4*>(stretch + 16 * c) = stage[group][U == 16 ? stage_slot<Q>(c) : c];
    }
  } else if (whole) {
    // A group cut by the matrix's end: each whole run straight from registers, word by word.
#pragma unroll
    for (int k = 0; k < kRunBytes / 4; ++k)
      *reinterpret_cast<std::uint32_t*>(dst + 4 * k) = run_word<E, R>(x, k);
  } else if (t < runs) {
    // The matrix's last columns: fewer than a run, element by element.
    for (int j = 0; c0 + j < cols; ++j)
      for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in + j * E);
  }
}

}  // namespace xpose::gpu
