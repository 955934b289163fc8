// Transposes with one tiny side (a few rows or a few columns): either one thread per long-side index
// looping over the short side, or a slab of the whole short side staged through shared memory.
#pragma once

#include <cstdint>

#include "gpu/kernels/geometry.cuh"

namespace xpose::gpu {

constexpr int kSkinnyThreads = 256;
constexpr int kSkinnySmemBytes = 16384;

// Moves the `short_n` elements of long index i: with kShortCols, input row i (a few columns) to
// column i of the output; otherwise input column i (a few rows) to output row i. Neighbouring
// threads take neighbouring i, so the side with unit stride is coalesced and the other side's
// short runs land in the same L2 sectors. A line's loads all issued before its stores ran slower on
// 3 columns of 8-byte elements (H200, f64 1048576x3 +1.4%, 4194304x3 +3.5%;
// bench/results/h200_2026-11-30n_direct_loads_first.txt).
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
    skinny_direct_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  const std::int64_t long_n = kShortCols ? g.rows : g.cols, short_n = kShortCols ? g.cols : g.rows;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kSkinnyThreads;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kSkinnyThreads + threadIdx.x; i < long_n;
         i += stride)
      skinny_line<T, kShortCols>(in + b * g.bs_in, out + b * g.bs_out, g, i, short_n);
}

// Moves one slab of a matrix with a few rows: input columns [l0, l0 + n) of all `short_n` rows
// (loaded row by row, in order) to output rows l0.. (stored in order); `slab` holds the elements
// in output order in between.
template <typename T>
__device__ void skinny_slab(const T* in, T* out, const MatrixGeometry& g, std::int64_t l0, int n, int short_n,
                            T* slab /* (n, short_n) elements, output order */, int tid) {
  const int count = n * short_n;
  for (int i = tid; i < count; i += kSkinnyThreads) {
    const int r = i / n, c = i - r * n;  // input (r, l0 + c) -> output row l0 + c
    slab[c * short_n + r] = in[r * g.ld_in + l0 + c];
  }
  __syncthreads();
  for (int j = tid; j < count; j += kSkinnyThreads) {
    const int c = j / short_n, r = j - c * short_n;
    out[(l0 + c) * g.ld_out + r] = slab[j];
  }
  __syncthreads();  // the slab is refilled by the next iteration
}

// Block (kSkinnyThreads); for matrices with a few rows: a slab of `span` columns in kSkinnySmemBytes
// of shared memory. Grid (slabs, 1, batch); x and z loop.
template <typename T>
__global__ void __launch_bounds__(kSkinnyThreads)
    skinny_staged_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g, int span) {
  alignas(16) __shared__ unsigned char smem[kSkinnySmemBytes];
  T* slab = reinterpret_cast<T*>(smem);  // (span, rows) elements
  const int short_n = static_cast<int>(g.rows);
  const std::int64_t slabs = (g.cols + span - 1) / span;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t s = blockIdx.x; s < slabs; s += gridDim.x) {
      const std::int64_t l0 = s * span;
      const int n = static_cast<int>(g.cols - l0 < span ? g.cols - l0 : span);
      skinny_slab<T>(in + b * g.bs_in, out + b * g.bs_out, g, l0, n, short_n, slab, threadIdx.x);
    }
}

}  // namespace xpose::gpu
