// A matrix of 12 to 24 columns of 1- or 2-byte elements with packed input rows (ld_in == cols), output
// rows on the grid of the thread's piece: skinny_cols_regs with narrower pieces, so that a thread's
// run fits 32 registers and its group's stage 4 KiB. Each thread takes W / E consecutive input rows
// (W = 8 up to 16 columns, 4 past that), one contiguous run of W * C bytes, and writes W bytes of each
// of the C output rows, transposed in registers with the same byte or halfword permutes. A group of 32
// reads its 32 runs, one contiguous stretch, through a shared-memory stage, each load instruction
// covering 512 contiguous bytes; each store instruction writes 32 * W contiguous bytes of one output
// row. One run per thread, no loop: grid (runs / block, batch).
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/skinny_cols_regs.cuh"  // column_word, RunStage, kRegsLaneGroup
#include "gpu/runtime.hpp"                   // rt::warp_all, rt::warp_sync
#include "plan/gpu_planner.hpp"              // skinny_cols_regs_wide_piece_bytes, shared with the planner

namespace xpose::gpu {

constexpr int kSkinnyColsRegsWideThreads = 256;
// Every instance holds its registers (42-64) under this cap without spills.
constexpr int kSkinnyColsRegsWideBlocksPerSm = 4;

// Block kSkinnyColsRegsWideThreads; grid (ceil(runs / block), batch). Run t of matrix b: input rows
// [t * W / E, (t + 1) * W / E). Needs `in` and the input batch stride on the 16-byte grid, `out`, the
// output batch stride and ld_out * E on the W-byte grid (the launcher checks). Strides in bytes.
template <int E, int C>
__global__ void __launch_bounds__(kSkinnyColsRegsWideThreads, kSkinnyColsRegsWideBlocksPerSm)
    skinny_cols_regs_wide_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                                 std::int64_t rows, std::int64_t ld_out, std::int64_t bs_in, std::int64_t bs_out,
                                 std::int64_t runs) {
  static_assert(E <= 2 && C >= plan::kSkinnyColsRegsWideMinCols && C <= plan::kSkinnyColsRegsWideMaxCols,
                "12 to 24 columns of 1- or 2-byte elements");
  constexpr int W = plan::skinny_cols_regs_wide_piece_bytes(C);  // W * C <= 128
  constexpr int V = W / E;                                         // input rows per run
  constexpr int kRunBytes = W * C;                                 // a multiple of 4
  using Stage = RunStage<kRunBytes>;
  __shared__ uint4 stage[kSkinnyColsRegsWideThreads / kRegsLaneGroup][Stage::kSlots];
  const OneRunThread me = one_run_thread<kSkinnyColsRegsWideThreads>();
  const int lane = me.lane;
  const std::int64_t t = me.run;
  in += me.matrix * bs_in;
  out += me.matrix * bs_out;
  const std::int64_t r0 = t * V;
  const bool whole = t < runs && r0 + V <= rows;
  std::uint32_t w[kRunBytes / 4];
  if (rt::warp_all(whole)) {
    Stage::load_stretch(stage[me.group], in + (t - lane) * kRunBytes, lane);
    rt::warp_sync();
    Stage::read_run(stage[me.group], lane, w);
  } else if (whole) {
    // A group cut by the matrix's end: each whole run word by word.
    const auto* run = reinterpret_cast<const std::uint32_t*>(in + t * kRunBytes);
#pragma unroll
    for (int k = 0; k < kRunBytes / 4; ++k) w[k] = run[k];
  }
  if (whole) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      unsigned char* dst = out + c * ld_out + r0 * E;
      if constexpr (W == 8)
        *reinterpret_cast<uint2*>(dst) = make_uint2(column_word<E, C>(w, c, 0), column_word<E, C>(w, c, 1));
      else
        *reinterpret_cast<std::uint32_t*>(dst) = column_word<E, C>(w, c, 0);
    }
  } else if (t < runs) {
    // The matrix's last rows: fewer than a run, element by element.
    for (std::int64_t r = r0; r < rows; ++r)
      for (int c = 0; c < C; ++c) copy_element<E>(out + c * ld_out + r * E, in + (r * C + c) * E);
  }
}

}  // namespace xpose::gpu
