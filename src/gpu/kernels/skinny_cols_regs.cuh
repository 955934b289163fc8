// A matrix of 2 to 8 columns with packed input rows (ld_in == cols) on the 16-byte grid, and output
// rows on it: the mirror of skinny_rows_regs. Each thread takes 16 / E consecutive input rows, one
// contiguous run of 16 * C bytes, and writes one 16-byte chunk of each of the C output rows,
// transposed in registers. A group of 32 threads reads its 32 runs, one contiguous stretch, through a
// small shared-memory stage, so that each load instruction covers 512 contiguous bytes; each store
// instruction writes 512 contiguous bytes of one output row. 12 to 24 columns of 1- and 2-byte
// elements the same way with narrower pieces: W / E input rows a thread (W = 8 up to 16 columns, 4
// past that, so that a run fits 32 registers and a group's stage 4 KiB), W bytes of every output row,
// 32 * W contiguous bytes per store instruction. One run per thread, no loop: grid (runs / block,
// batch).
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/skinny_rows_regs.cuh"  // RunStage, one_run_thread, kRegsLaneGroup
#include "gpu/runtime.hpp"                   // rt::warp_all, rt::warp_sync
#include "plan/gpu_planner.hpp"              // the wide columns' bounds and pieces, shared with the planner

namespace xpose::gpu {

constexpr int kSkinnyColsRegsThreads = 256;
constexpr int kSkinnyColsRegsMaxCols = 8;

// Word `ow` (of 4) of output chunk c: output element j (input row j of the run) is input element
// j * C + c of the run, whose words are w[0 .. M) (M = 4C up to 8 columns, narrower runs past that).
// Indices are compile-time constants once the callers' loops are unrolled.
template <int E, int C, int M>
__device__ __forceinline__ std::uint32_t column_word(const std::uint32_t (&w)[M], int c, int ow) {
  if constexpr (E >= 4) {
    const int j = 4 * ow / E;                      // the element holding this word
    const int byte = (j * C + c) * E + 4 * ow % E;  // its bytes in the run
    return w[byte / 4];
  } else if constexpr (E == 2) {
    const int b0 = ((2 * ow) * C + c) * 2, b1 = ((2 * ow + 1) * C + c) * 2;
    const unsigned h0 = (b0 / 2) % 2, h1 = (b1 / 2) % 2;
    const unsigned sel = (2 * h0) | (2 * h0 + 1) << 4 | (4 + 2 * h1) << 8 | (5 + 2 * h1) << 12;
    return __byte_perm(w[b0 / 4], w[b1 / 4], sel);
  } else {
    static_assert(E == 1, "element sizes are 1, 2, 4 and 8 bytes");
    int b[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) b[i] = (4 * ow + i) * C + c;
    const std::uint32_t lo = __byte_perm(w[b[0] / 4], w[b[1] / 4], (b[0] % 4) | (4 + b[1] % 4) << 4);
    const std::uint32_t hi = __byte_perm(w[b[2] / 4], w[b[3] / 4], (b[2] % 4) | (4 + b[3] % 4) << 4);
    return __byte_perm(lo, hi, 0x5410);
  }
}

// Bytes of every output row one thread writes: 16 up to 8 columns, then
// plan::skinny_cols_regs_wide_piece_bytes (8 or 4).
constexpr int cols_regs_piece_bytes(int cols) {
  return cols <= kSkinnyColsRegsMaxCols ? 16 : plan::skinny_cols_regs_wide_piece_bytes(cols);
}

// The kernel's instances: 2 to 8 columns of 1- and 2-byte elements, even ones and 3 of 4-byte
// elements, 2 of 8-byte ones; and the wide columns of 1- and 2-byte elements.
constexpr bool cols_regs_built(int e, int cols) {
  if (cols > kSkinnyColsRegsMaxCols)
    return e <= 2 && cols >= plan::kSkinnyColsRegsWideMinCols && cols <= plan::kSkinnyColsRegsWideMaxCols;
  return cols >= 2 && (e <= 2 || (e == 4 && (cols % 2 == 0 || cols == 3)) || (e == 8 && cols == 2));
}

// Blocks per SM the kernel is built for with C columns (the register cap; the wide columns hold 42-64
// registers under 4 without spills).
constexpr int skinny_cols_regs_blocks(int cols) { return cols <= 4 ? 8 : cols <= 6 ? 6 : cols <= 8 ? 5 : 4; }

// Whether the kernel's blocks of whole runs take a path of their own to the loads (below), as the
// few-rows one-run kernel's do (one_run_checks_per_block): up to 4 columns, where the path's second
// copy of the loads and stage compiles without spills, but for 4 of 4-byte elements (8 bytes spilled
// at the 32-register cap, ptxas).
constexpr bool cols_regs_checks_per_block(int e, int cols) { return cols <= 4 && !(e == 4 && cols == 4); }

// Whether the instance for one matrix of whole blocks (kWholeGrid below) is built: up to 4 columns, f32 x4
// too (it holds one copy of the loads and compiles without spills).
constexpr bool cols_regs_whole_grid_built(int cols) { return cols <= 4; }

// Block (kSkinnyColsRegsThreads); grid (ceil(runs / block), batch). Run t of matrix b: input rows
// [t * W / E, (t + 1) * W / E), W = cols_regs_piece_bytes(C). Needs `in` and the input batch stride on
// the 16-byte grid, `out`, the output batch stride and ld_out * E on the W-byte grid (the launcher
// checks). Strides in bytes. whole_blocks: one_run_whole_blocks over the rows, the blocks of each
// matrix whose runs are all whole. kWholeGrid: one matrix whose blocks are all whole (where
// cols_regs_whole_grid_built), taken without matrix offsets or a check on the way to the loads.
template <int E, int C, bool kWholeGrid = false>
__global__ void __launch_bounds__(kSkinnyColsRegsThreads, skinny_cols_regs_blocks(C))
    skinny_cols_regs_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, std::int64_t rows,
                            std::int64_t ld_out, std::int64_t bs_in, std::int64_t bs_out, std::int64_t runs,
                            std::uint32_t whole_blocks) {
  static_assert(cols_regs_built(E, C), "not built for this many columns of this element size");
  static_assert(!kWholeGrid || cols_regs_whole_grid_built(C), "whole grids: up to 4 columns");
  constexpr int W = cols_regs_piece_bytes(C);
  constexpr int V = W / E;  // input rows per run
  using Stage = RunStage<W * C>;
  __shared__ uint4 stage[kSkinnyColsRegsThreads / kRegsLaneGroup][Stage::kSlots];
  const OneRunThread me = one_run_thread<kSkinnyColsRegsThreads>();
  const int lane = me.lane;
  const std::int64_t t = me.run;
  const std::uint32_t b = kWholeGrid ? 0 : me.matrix;
  in += b * bs_in;
  out += b * bs_out;
  const std::int64_t r0 = t * V;
  std::uint32_t w[Stage::kWords];
  const auto store_run = [&] {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      unsigned char* dst = out + c * ld_out + r0 * E;
      const auto word = [&w, c](int ow) { return column_word<E, C>(w, c, ow); };
      if constexpr (W == 16)
        *reinterpret_cast<uint4*>(dst) = make_uint4(word(0), word(1), word(2), word(3));
      else if constexpr (W == 8)
        *reinterpret_cast<uint2*>(dst) = make_uint2(word(0), word(1));
      else
        *reinterpret_cast<std::uint32_t*>(dst) = word(0);
    }
  };
  // The group's 32 runs are one stretch: lane reads chunk 32k + lane and keeps its own run.
  const auto load_staged = [&] {
    Stage::load_stretch(stage[me.group], in + (t - lane) * W * C, lane);
    rt::warp_sync();
    Stage::read_run(stage[me.group], lane, w);
  };
  // Every block but a matrix's last (all, where the block's rows divide the matrix's) holds whole
  // runs only; where cols_regs_checks_per_block it finds so once, for the block, and goes to its
  // loads with no per-thread check or vote before them, as the few-rows one-run kernel does (the
  // reasons and its measurements there).
  if (!kWholeGrid && (!cols_regs_checks_per_block(E, C) || blockIdx.x >= whole_blocks)) {
    const bool whole = t < runs && r0 + V <= rows;
    if (rt::warp_all(whole)) {
      load_staged();
    } else if (whole) {
      Stage::load_run(in + t * W * C, w);  // a group cut by the matrix's end
    }
    if (whole) {
      store_run();
    } else if (t < runs) {
      // The matrix's last rows: fewer than a run, element by element.
      for (std::int64_t r = r0; r < rows; ++r)
        for (int c = 0; c < C; ++c) copy_element<E>(out + c * ld_out + r * E, in + (r * C + c) * E);
    }
    return;
  }
  load_staged();
  store_run();
}

}  // namespace xpose::gpu
