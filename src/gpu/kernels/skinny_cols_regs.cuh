// A matrix of 2 to 8 columns with packed input rows (ld_in == cols) on the 16-byte grid, and output
// rows on it: the mirror of skinny_rows_regs. Each thread takes 16 / E consecutive input rows, one
// contiguous run of 16 * C bytes, and writes one 16-byte chunk of each of the C output rows,
// transposed in registers. A group of 32 threads reads its 32 runs, one contiguous stretch, through a
// small shared-memory stage, so that each load instruction covers 512 contiguous bytes; each store
// instruction writes 512 contiguous bytes of one output row. One run per thread, no loop: grid
// (runs / block, batch).
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/skinny_rows_regs.cuh"  // RunStage, one_run_thread, kRegsLaneGroup
#include "gpu/runtime.hpp"                   // rt::warp_all, rt::warp_sync

namespace xpose::gpu {

constexpr int kSkinnyColsRegsThreads = 256;
constexpr int kSkinnyColsRegsMaxCols = 8;

// Word `ow` (of 4) of output chunk c: output element j (input row j of the run) is input element
// j * C + c of the run, whose words are w[0 .. M) (M = 4C here; narrower runs in
// skinny_cols_regs_wide). Indices are compile-time constants once the callers' loops are unrolled.
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

template <int E, int C>
__device__ __forceinline__ uint4 column_chunk(const std::uint32_t (&w)[4 * C], int c) {
  return make_uint4(column_word<E, C>(w, c, 0), column_word<E, C>(w, c, 1), column_word<E, C>(w, c, 2),
                    column_word<E, C>(w, c, 3));
}

// Blocks per SM the kernel is built for with C columns of E-byte elements (the register cap).
constexpr int skinny_cols_regs_blocks(int cols) { return cols <= 4 ? 8 : cols <= 6 ? 6 : 5; }

// Block (kSkinnyColsRegsThreads); grid (ceil(runs / block), batch). Run t of matrix b: input rows
// [t * 16 / E, (t + 1) * 16 / E). Needs `in`, `out`, the batch strides and ld_out * E on the 16-byte
// grid (the launcher checks). Strides in bytes.
template <int E, int C>
__global__ void __launch_bounds__(kSkinnyColsRegsThreads, skinny_cols_regs_blocks(C))
    skinny_cols_regs_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, std::int64_t rows,
                            std::int64_t ld_out, std::int64_t bs_in, std::int64_t bs_out, std::int64_t runs) {
  static_assert(C >= 2 && C <= kSkinnyColsRegsMaxCols && E <= 8, "2 to 8 columns of 1- to 8-byte elements");
  constexpr int V = 16 / E;  // input rows per run
  using Stage = RunStage<16 * C>;
  __shared__ uint4 stage[kSkinnyColsRegsThreads / kRegsLaneGroup][Stage::kSlots];
  const OneRunThread me = one_run_thread<kSkinnyColsRegsThreads>();
  const int lane = me.lane;
  const std::int64_t t = me.run;
  in += me.matrix * bs_in;
  out += me.matrix * bs_out;
  const std::int64_t r0 = t * V;
  const bool whole = t < runs && r0 + V <= rows;
  std::uint32_t w[4 * C];
  if (rt::warp_all(whole)) {
    // The group's 32 runs are one stretch of 32 * C chunks: read chunk 32k + lane, keep chunk C * lane + k.
    Stage::load_stretch(stage[me.group], in + (t - lane) * 16 * C, lane);
    rt::warp_sync();
    Stage::read_run(stage[me.group], lane, w);
  } else if (whole) {
    const unsigned char* run = in + r0 * C * E;
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const uint4 x = *reinterpret_cast<const uint4*>(run + 16 * k);
      w[4 * k] = x.x, w[4 * k + 1] = x.y, w[4 * k + 2] = x.z, w[4 * k + 3] = x.w;
    }
  }
  if (whole) {
#pragma unroll
    for (int c = 0; c < C; ++c) *reinterpret_cast<uint4*>(out + c * ld_out + r0 * E) = column_chunk<E, C>(w, c);
  } else if (t < runs) {
    // The matrix's last rows: fewer than a run, element by element.
    for (std::int64_t r = r0; r < rows; ++r)
      for (int c = 0; c < C; ++c) copy_element<E>(out + c * ld_out + r * E, in + (r * C + c) * E);
  }
}

}  // namespace xpose::gpu
