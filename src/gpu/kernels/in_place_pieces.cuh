// The pieces' move of the GPU's square-blocks in-place transpose (plan/piece_cycles.hpp): after the
// g x g blocks are transposed, a group of threads (a whole block, or for pieces of fewer than 32
// units a power-of-two share of a warp) takes one segment of a cycle of pieces at a time and fills
// its places in turn, each with the piece from the next place of the cycle. Each thread copies the
// same units of every piece, so a place it reads in one step is the place it writes in the next: no
// barrier is needed within a segment, and segments touch disjoint places.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "plan/piece_cycles.hpp"

namespace xpose::gpu {

// Units a thread keeps in flight per step.
constexpr int kPieceBatch = 4;

// A thread's place in its segment's group: `lane` of `width` threads, group `group` of `groups` in
// the block. Groups of 2^width_log2 threads, or (width_log2 < 0) the whole block.
struct PieceGroup {
  int lane, width, group, groups;
};

__device__ __forceinline__ PieceGroup piece_group(int width_log2) {
  const int t = static_cast<int>(threadIdx.x), block = static_cast<int>(blockDim.x);
  if (width_log2 < 0) return PieceGroup{t, block, 0, 1};
  return PieceGroup{t & ((1 << width_log2) - 1), 1 << width_log2, t >> width_log2, block >> width_log2};
}

// Copies `units` units from `from` to `to`, this lane's units of each, kPieceBatch loads in flight.
template <typename U>
__device__ __forceinline__ void copy_piece_units(U* to, const U* from, std::int64_t units, const PieceGroup& g) {
  for (std::int64_t k = g.lane; k < units; k += kPieceBatch * g.width) {
    U v[kPieceBatch];
#pragma unroll
    for (int u = 0; u < kPieceBatch; ++u)
      if (k + u * g.width < units) v[u] = from[k + u * g.width];
#pragma unroll
    for (int u = 0; u < kPieceBatch; ++u)
      if (k + u * g.width < units) to[k + u * g.width] = v[u];
  }
}

// Saves the first piece of segments [0, count) (those of cut cycles) to `saved`, in order. Group k of
// the grid takes segments k, k + its groups, ...; pieces of `units` accesses of U (piece_group's
// groups).
template <typename U>
__global__ void save_pieces_kernel(const unsigned char* matrix, unsigned char* saved,
                                   const plan::PieceSegment* segments, std::int64_t count, std::int64_t units,
                                   int width_log2) {
  const U* const x = reinterpret_cast<const U*>(matrix);
  const PieceGroup g = piece_group(width_log2);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * g.groups;
  for (std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * g.groups + g.group; s < count; s += stride)
    copy_piece_units(reinterpret_cast<U*>(saved) + s * units, x + segments[s].first * units, units, g);
}

// Moves the pieces of segments [0, count): a cut segment's last place takes the piece saved for its
// `next`, a whole cycle's the first piece its group held in dynamic shared memory (one piece a group).
template <typename U>
__global__ void move_pieces_kernel(unsigned char* matrix, const unsigned char* saved,
                                   const plan::PieceSegment* segments, std::int64_t count, plan::PieceMap map,
                                   std::int64_t units, int width_log2) {
  extern __shared__ __align__(16) unsigned char held_piece[];
  U* const x = reinterpret_cast<U*>(matrix);
  const PieceGroup g = piece_group(width_log2);
  U* const held = reinterpret_cast<U*>(held_piece) + g.group * units;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * g.groups;
  for (std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * g.groups + g.group; s < count; s += stride) {
    const plan::PieceSegment segment = segments[s];
    std::int64_t t = segment.first;
    if (segment.next < 0) copy_piece_units(held, x + t * units, units, g);
    for (std::int32_t i = 0; i < segment.steps; ++i) {
      const std::int64_t from = map.source(t);
      const U* const source = i + 1 < segment.steps ? x + from * units
                              : segment.next >= 0   ? reinterpret_cast<const U*>(saved) + segment.next * units
                                                    : held;
      copy_piece_units(x + t * units, source, units, g);
      t = from;
    }
  }
}

}  // namespace xpose::gpu
