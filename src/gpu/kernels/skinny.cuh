// Transposes with one tiny side (a few rows or a few columns): a slab of the whole short side staged
// through shared memory, so both the loads and the stores walk memory in order.
#pragma once

#include <cstdint>

#include "gpu/kernels/geometry.cuh"

namespace xpose::gpu {

constexpr int kSkinnyThreads = 256;
constexpr int kSkinnySmemBytes = 16384;

// Moves one slab: `n` indices of the long side starting at l0, times the `short_n` short side.
// With kShortCols the input is `n` rows of `short_n` elements (contiguous when packed) and the output
// `short_n` rows of `n`; otherwise the other way round. Loads go in input order, stores in output
// order, and `slab` holds the elements in output order in between.
template <typename T, bool kShortCols>
__device__ void skinny_slab(const T* in, T* out, const MatrixGeometry& g, std::int64_t l0, int n, int short_n,
                            T* slab /* (n * short_n) elements, output order */, int tid) {
  const int count = n * short_n;
  for (int i = tid; i < count; i += kSkinnyThreads) {
    if (kShortCols) {
      const int r = i / short_n, c = i - r * short_n;  // input (l0 + r, c) -> output row c
      slab[c * n + r] = in[(l0 + r) * g.ld_in + c];
    } else {
      const int r = i / n, c = i - r * n;  // input (r, l0 + c) -> output row l0 + c
      slab[c * short_n + r] = in[r * g.ld_in + l0 + c];
    }
  }
  __syncthreads();
  for (int j = tid; j < count; j += kSkinnyThreads) {
    if (kShortCols) {
      const int c = j / n, r = j - c * n;
      out[c * g.ld_out + l0 + r] = slab[j];
    } else {
      const int c = j / short_n, r = j - c * short_n;
      out[(l0 + c) * g.ld_out + r] = slab[j];
    }
  }
  __syncthreads();  // the slab is refilled by the next iteration
}

// Block (kSkinnyThreads); a slab of `span` long-side indices in kSkinnySmemBytes of shared memory.
// Grid (slabs, 1, batch); x and z loop.
template <typename T, bool kShortCols>
__global__ void __launch_bounds__(kSkinnyThreads)
    skinny_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g, int span) {
  alignas(16) __shared__ unsigned char smem[kSkinnySmemBytes];
  T* slab = reinterpret_cast<T*>(smem);  // (span * short_n) elements
  const std::int64_t long_n = kShortCols ? g.rows : g.cols;
  const int short_n = static_cast<int>(kShortCols ? g.cols : g.rows);
  const std::int64_t slabs = (long_n + span - 1) / span;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t s = blockIdx.x; s < slabs; s += gridDim.x) {
      const std::int64_t l0 = s * span;
      const int n = static_cast<int>(long_n - l0 < span ? long_n - l0 : span);
      skinny_slab<T, kShortCols>(in + b * g.bs_in, out + b * g.bs_out, g, l0, n, short_n, slab, threadIdx.x);
    }
}

}  // namespace xpose::gpu
