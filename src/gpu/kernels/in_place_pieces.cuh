// The pieces' move of the GPU's square-blocks in-place transpose (plan/piece_cycles.hpp): after the
// g x g blocks are transposed, a block of threads takes one segment of a cycle of pieces at a time
// and fills its places in turn, each with the piece from the next place of the cycle. Each thread
// copies the same units of every piece, so a place it reads in one step is the place it writes in the
// next: no barrier is needed within a segment, and segments touch disjoint places.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "plan/piece_cycles.hpp"

namespace xpose::gpu {

// Units a thread keeps in flight per step.
constexpr int kPieceBatch = 4;

// Copies `units` units from `from` to `to`, this thread's units of each, kPieceBatch loads in flight.
template <typename U>
__device__ __forceinline__ void copy_piece_units(U* to, const U* from, std::int64_t units) {
  for (std::int64_t k = threadIdx.x; k < units; k += kPieceBatch * blockDim.x) {
    U v[kPieceBatch];
#pragma unroll
    for (int u = 0; u < kPieceBatch; ++u)
      if (k + u * blockDim.x < units) v[u] = from[k + u * blockDim.x];
#pragma unroll
    for (int u = 0; u < kPieceBatch; ++u)
      if (k + u * blockDim.x < units) to[k + u * blockDim.x] = v[u];
  }
}

// Saves the first piece of segments [0, count) (those of cut cycles) to `saved`, in order. Block k
// takes segments k, k + gridDim.x, ...; pieces of `units` accesses of U.
template <typename U>
__global__ void save_pieces_kernel(const unsigned char* matrix, unsigned char* saved,
                                   const plan::PieceSegment* segments, std::int64_t count, std::int64_t units) {
  const U* const x = reinterpret_cast<const U*>(matrix);
  for (std::int64_t s = blockIdx.x; s < count; s += gridDim.x)
    copy_piece_units(reinterpret_cast<U*>(saved) + s * units, x + segments[s].first * units, units);
}

// Moves the pieces of segments [0, count): a cut segment's last place takes the piece saved for its
// `next`, a whole cycle's the first piece it held in dynamic shared memory (one piece).
template <typename U>
__global__ void move_pieces_kernel(unsigned char* matrix, const unsigned char* saved,
                                   const plan::PieceSegment* segments, std::int64_t count, plan::PieceMap map,
                                   std::int64_t units) {
  extern __shared__ __align__(16) unsigned char held_piece[];
  U* const x = reinterpret_cast<U*>(matrix);
  U* const held = reinterpret_cast<U*>(held_piece);
  for (std::int64_t s = blockIdx.x; s < count; s += gridDim.x) {
    const plan::PieceSegment segment = segments[s];
    std::int64_t t = segment.first;
    if (segment.next < 0) copy_piece_units(held, x + t * units, units);
    for (std::int32_t i = 0; i < segment.steps; ++i) {
      const std::int64_t from = map.source(t);
      const U* const source = i + 1 < segment.steps ? x + from * units
                              : segment.next >= 0   ? reinterpret_cast<const U*>(saved) + segment.next * units
                                                    : held;
      copy_piece_units(x + t * units, source, units);
      t = from;
    }
  }
}

}  // namespace xpose::gpu
