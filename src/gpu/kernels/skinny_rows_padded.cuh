// A matrix of a few rows whose output rows are padded (ld_out > rows): planes interleaved into records
// whose other fields stay as they are (RGB into RGBX, xyz into xyzw). The slab's input rows are read
// as aligned 16-byte chunks (skinny_rows_vec's load phase). The gaps between output rows belong to
// the caller and are never written, so the store phase moves one element per thread: neighbouring
// threads take neighbouring elements of the output, and a warp's stores cover a few sectors of
// consecutive output rows rather than one element in each of 32 rows.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/skinny_rows_vec.cuh"  // SkinnyVecSlab, slab_position, load_slab_checked

namespace xpose::gpu {

// One E-byte element from the tile (aligned to min(E, 4)) to `dst` (aligned to min(E, 8)): wider
// elements are gathered word by word and stored in 8-byte halves.
template <int E>
__device__ __forceinline__ void store_padded_element(unsigned char* dst, const unsigned char* p) {
  if constexpr (E <= 4) {
    store_element<E>(dst, p);
  } else {
    const auto* w = reinterpret_cast<const std::uint32_t*>(p);
#pragma unroll
    for (int u = 0; u < E / 8; ++u) reinterpret_cast<uint2*>(dst)[u] = make_uint2(w[2 * u], w[2 * u + 1]);
  }
}

// Block (kSkinnyVecThreads), one slab of s.span columns per block; grid (batch x slabs). in_end is
// one past the input's last byte: chunks never reach past it or before `in`.
template <int E>
__global__ void __launch_bounds__(kSkinnyVecThreads)
    skinny_rows_padded_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                              unsigned char* __restrict__ out, MatrixGeometry g, SkinnyVecSlab s, FastDiv slabs) {
  __shared__ std::uint32_t tile[kSkinnyVecTileWords];
  __shared__ int row_first[kSkinnyVecMaxRows];  // where input row r's first element lies in the tile
  const int tid = threadIdx.x;
  const int rows = static_cast<int>(g.rows);
  const SlabPos slab = slab_position(blockIdx.x, slabs, s.span, s.halo, g.cols);
  const std::int64_t c0 = slab.first;
  const std::int64_t ld_in_bytes = g.ld_in * E, ld_out_bytes = g.ld_out * E;
  const unsigned char* src = in + (slab.b * g.bs_in + c0) * E;
  unsigned char* dst = out + (slab.b * g.bs_out + c0 * g.ld_out) * E;
  const int shift0 = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const int shift_step = static_cast<int>(ld_in_bytes & 15);
  if (tid < rows) row_first[tid] = slab_row_first_byte(tid, s.pitch, shift0, shift_step);
  load_slab_checked(tile, src, rows, ld_in_bytes, slab.load * E, s, in, in_end);
  __syncthreads();

  // Element q of the slab's output is (column q / rows, row q % rows). Each thread steps by the block,
  // its output pointer and tile column stepped along (the element loop is the kernel's issue bound
  // for 1-byte elements).
  const unsigned char* tile_bytes = reinterpret_cast<const unsigned char*>(tile);
  const QuotRem first = fast_divmod(tid, s.rows), step = fast_divmod(kSkinnyVecThreads, s.rows);
  int r = static_cast<int>(first.rem), column_byte = static_cast<int>(first.quot) * E;
  unsigned char* p = dst + first.quot * ld_out_bytes + r * E;
  const std::int64_t advance = step.quot * ld_out_bytes + static_cast<int>(step.rem) * E;
  const std::int64_t wrap = ld_out_bytes - rows * E;  // from past a column's last row to the next's first
  const int column_advance = static_cast<int>(step.quot) * E;
  const int count = slab.own * rows;
  for (int q = tid; q < count; q += kSkinnyVecThreads) {
    store_padded_element<E>(p, tile_bytes + row_first[r] + column_byte);
    p += advance, column_byte += column_advance, r += static_cast<int>(step.rem);
    if (r >= rows) r -= rows, column_byte += E, p += wrap;
  }
}

}  // namespace xpose::gpu
