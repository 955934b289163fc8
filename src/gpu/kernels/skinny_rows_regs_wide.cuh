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
#include "gpu/kernels/skinny_rows_regs.cuh"  // load_run_pieces, run_word, RunStage, kRegsLaneGroup
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
  constexpr int V = W / E;  // columns per run
  using Stage = RunStage<W * R>;
  constexpr int kThreads = rows_regs_wide_threads(R);
  __shared__ uint4 stage[kThreads / kRegsLaneGroup][Stage::kSlots];
  const OneRunThread me = one_run_thread<kThreads>();
  const int lane = me.lane;
  const std::int64_t t = me.run;
  const std::uint32_t b = me.matrix;
  out += b * bs_out;
  const std::int64_t c0 = t * V;
  const bool whole = t < runs && c0 + V <= cols;
  const unsigned char* src = in + b * bs_in + c0 * E;
  std::uint32_t x[R][W / 4];
  if (whole) load_run_pieces<W, R, kShifted>(src, ld_in, in, in_end, x);
  unsigned char* dst = out + c0 * R * E;
  const auto word = [&x](int k) { return run_word<E, R>(x, k); };
  if (rt::warp_all(whole)) {
    Stage::write_run(stage[me.group], lane, word);
    rt::warp_sync();
    Stage::store_stretch(stage[me.group], dst - W * R * lane, lane);
  } else if (whole) {
    // A group cut by the matrix's end: each whole run straight from registers, word by word.
#pragma unroll
    for (int k = 0; k < W * R / 4; ++k) *reinterpret_cast<std::uint32_t*>(dst + 4 * k) = word(k);
  } else if (t < runs) {
    // The matrix's last columns: fewer than a run, element by element.
    for (int j = 0; c0 + j < cols; ++j)
      for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in + j * E);
  }
}

}  // namespace xpose::gpu
