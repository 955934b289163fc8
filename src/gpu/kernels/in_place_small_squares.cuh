// In place, square matrices smaller than the tile pairs' tiles (plan::InPlaceKernel::small_squares):
// a block reads several whole matrices into shared memory, waits for all of its threads, and writes
// each one back transposed. A matrix belongs to one block and every element is read before any is
// written, so the block needs no partner tile and no scratch. The tile pairs would give each such
// matrix a block of its own, with most of its tile empty.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpu/kernels/element.cuh"
#include "plan/in_place.hpp"

namespace xpose::gpu {

// W-byte accesses (W a multiple of E, at most 16) of matrices of g x g E-byte elements, rows `ld`
// elements apart, matrices `batch_stride` apart in groups of `group_count` (0: one group) whose
// starts lie `group_stride` elements apart. Each block takes `per_block` matrices at a time
// (the next ones gridDim.x * per_block further), their rows `pitch` bytes apart in shared memory (the
// row plus a few words, so that a warp's reads down a column fall in different banks).
template <int E, int W>
__global__ void __launch_bounds__(plan::kSmallSquaresBlockThreads)
    in_place_small_squares_kernel(unsigned char* data, int g, std::int64_t ld, std::int64_t batch_stride,
                                  std::int64_t group_count, std::int64_t group_stride, std::int64_t count,
                                  int per_block, int pitch) {
  static_assert(W % E == 0 && W <= 16, "whole elements per access");
  // A unit of one 16-byte element may be aligned to 8 only (Bytes16); wider units of smaller ones to 16.
  using Unit = typename std::conditional<W == 16 && E < 16, uint4, typename ElementStorage<W>::type>::type;
  using Element = typename ElementStorage<E>::type;
  constexpr int kPerUnit = W / E;
  union Gathered {
    Unit unit;
    Element elements[kPerUnit];
  };
  extern __shared__ __align__(16) unsigned char small_squares_tile[];
  __shared__ std::int64_t matrix_offset[plan::kSmallSquaresMaxPerBlock];  // bytes, of this block's matrices
  const int units = g * E / W;  // accesses per row
  const int per_matrix = g * units;
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * per_block; first < count;
       first += static_cast<std::int64_t>(gridDim.x) * per_block) {
    const int matrices = static_cast<int>(count - first < per_block ? count - first : per_block);
    const int total = matrices * per_matrix;
    for (int k = threadIdx.x; k < matrices; k += blockDim.x) {
      const std::int64_t m = first + k;
      matrix_offset[k] = (group_count > 0 ? m / group_count * group_stride + m % group_count * batch_stride
                                          : m * batch_stride) * E;
    }
    __syncthreads();
    // Rows in, each unit to its place in the row.
    for (int f = threadIdx.x; f < total; f += blockDim.x) {
      const int k = f / per_matrix, r = f % per_matrix / units, u = f % units;
      *reinterpret_cast<Unit*>(small_squares_tile + (k * g + r) * pitch + u * W) =
          *reinterpret_cast<const Unit*>(data + matrix_offset[k] + r * ld * E + u * W);
    }
    __syncthreads();
    // Output row c's unit u holds column c of rows u * kPerUnit on; the lanes of a warp take the
    // units of one row, then the next rows.
    for (int f = threadIdx.x; f < total; f += blockDim.x) {
      const int k = f / per_matrix, c = f % per_matrix / units, u = f % units;
      Gathered out;
      const unsigned char* column = small_squares_tile + (k * g + u * kPerUnit) * pitch + c * E;
#pragma unroll
      for (int j = 0; j < kPerUnit; ++j) out.elements[j] = *reinterpret_cast<const Element*>(column + j * pitch);
      *reinterpret_cast<Unit*>(data + matrix_offset[k] + c * ld * E + u * W) = out.unit;
    }
    __syncthreads();  // before the next matrices overwrite the tile and the offsets
  }
}

}  // namespace xpose::gpu
