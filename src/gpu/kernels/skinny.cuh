// Transposes with one tiny side (a few rows or a few columns) whose strides rule out 16-byte accesses.
#pragma once

#include "gpu/kernels/geometry.cuh"

namespace xpose::gpu {

constexpr int kSkinnyThreads = 256;

// Moves the `short_n` elements of long index i: with kShortCols, input row i (a few columns) to
// column i of the output; otherwise input column i (a few rows) to output row i. Neighbouring
// threads take neighbouring i, so the side with unit stride is coalesced and the other side's
// short runs land in the same L2 sectors.
template <typename T, bool kShortCols>
__device__ void skinny_line(const T* in, T* out, const MatrixGeometry& g, std::int64_t i, std::int64_t short_n) {
  for (std::int64_t s = 0; s < short_n; ++s) {
    const std::int64_t r = kShortCols ? i : s, c = kShortCols ? s : i;
    out[c * g.ld_out + r] = in[r * g.ld_in + c];
  }
}

// Block (kSkinnyThreads); grid (long side / kSkinnyThreads, 1, batch), x and z loop.
template <typename T, bool kShortCols>
__global__ void __launch_bounds__(kSkinnyThreads)
    skinny_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  const std::int64_t long_n = kShortCols ? g.rows : g.cols, short_n = kShortCols ? g.cols : g.rows;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kSkinnyThreads;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kSkinnyThreads + threadIdx.x; i < long_n;
         i += stride)
      skinny_line<T, kShortCols>(in + b * g.bs_in, out + b * g.bs_out, g, i, short_n);
}

}  // namespace xpose::gpu
