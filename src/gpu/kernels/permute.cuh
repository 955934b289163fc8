// The general permutation kernels: 2-D slices (the input's innermost dimension against the
// output's) through shared-memory tiles in vector units, and runs that stay innermost gathered
// into the output. Large slices of 4- to 16-byte elements take permute_element_tiles.cuh.
#pragma once

#include <cstdint>

#include "core/permute_shape.hpp"
#include "core/permute_tiling.hpp"
#include "gpu/kernels/geometry.cuh"

namespace xpose::gpu {

constexpr int kPermuteRunBlock = 256;  // threads per block for runs

// Units a thread of the runs kernel moves per pass, loads first: a block covers
// kPermuteRunBlock x kPermuteRunUnroll units of an output span.
constexpr int kPermuteRunUnroll = 4;

// Where slice s of `dims` slice dimensions (numbered in output order) starts in each tensor, in
// elements. The loop has a fixed trip count so that the geometry's arrays are indexed by constants.
__device__ __forceinline__ void permute_slice_offsets(const core::PermuteGeometry& g, int dims, std::int64_t s,
                                                      std::int64_t& in_at, std::int64_t& out_at) {
  in_at = out_at = 0;
#pragma unroll
  for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
    if (i < dims) {
      const std::int64_t q = s / g.slice_extent[i], r = s - q * g.slice_extent[i];
      in_at += r * g.slice_in_stride[i];
      out_at += r * g.slice_out_stride[i];
      s = q;
    }
  }
}

// The tile kernel's divisors, made on the host: its tiles are numbered a-tiles fastest, then
// b-tiles, then slices (slice dimensions in output order, the last fastest); within a step, units
// are numbered tile by tile.
struct PermuteTileArgs {
  core::PermuteTiling t;
  FastDiv tiles_a, tiles_b, slice_extent[core::kMaxSliceDims];  // tile numbers below 2^31 only
  FastDiv tile_in_units, tile_out_units;                        // units per tile
  FastDiv tile_a, tile_b;
  FastDiv tile_quads, tile_quad_items;  // 1-byte stores: columns of 4 a's per tile, and work items
  int lanes_b_log2;
  bool word_gathers;       // 1-byte elements: permute_step_stores_bytes (no spans, rows of whole words)
  bool whole_unit_stores;  // loaded units go into shared memory whole (permute_tile_store_bytes)
};

// Where a tile's box starts in each tensor (elements) and how much of it lies inside its slice.
struct PermuteTileBox {
  std::int64_t in_at, out_at;
  int na, nb;
};

// Tile number `tile`'s box. kWide: tile numbers of 2^31 and more, decoded by 64-bit divisions.
template <bool kWide>
__device__ __forceinline__ PermuteTileBox permute_tile_box(const core::PermuteGeometry& g, const PermuteTileArgs& p,
                                                           std::int64_t tile) {
  std::int64_t ta, tb, in_at = 0, out_at = 0;
  if constexpr (kWide) {
    ta = tile % p.t.tiles_a;
    tile /= p.t.tiles_a;
    tb = tile % p.t.tiles_b;
    tile /= p.t.tiles_b;
    permute_slice_offsets(g, g.slice_dims, tile, in_at, out_at);
  } else {
    const QuotRem qa = fast_divmod(static_cast<std::uint32_t>(tile), p.tiles_a);
    const QuotRem qb = fast_divmod(qa.quot, p.tiles_b);
    ta = qa.rem;
    tb = qb.rem;
    std::uint32_t s = qb.quot;
#pragma unroll
    for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
      if (i < g.slice_dims) {
        const QuotRem q = fast_divmod(s, p.slice_extent[i]);
        in_at += q.rem * g.slice_in_stride[i];
        out_at += q.rem * g.slice_out_stride[i];
        s = q.quot;
      }
    }
  }
  const std::int64_t a0 = ta * p.t.tile_a, b0 = tb * p.t.tile_b;
  return PermuteTileBox{in_at + b0 * g.in_stride_b + a0, out_at + a0 * g.out_stride_a + b0,
                        static_cast<int>(min(p.t.tile_a, g.extent_a - a0)),
                        static_cast<int>(min(p.t.tile_b, g.extent_b - b0))};
}

// The boxes of the step at tile t0 (at most `group` tiles, none past `last`) into `boxes`, one per
// thread; returns how many there are.
__device__ __forceinline__ int permute_step_boxes(const core::PermuteGeometry& g, const PermuteTileArgs& p,
                                                  std::int64_t t0, std::int64_t last, PermuteTileBox* boxes) {
  const int here = static_cast<int>(max(min(static_cast<std::int64_t>(p.t.group), last - t0), std::int64_t{0}));
  const int me = static_cast<int>(threadIdx.x);
  if (me < here) boxes[me] = p.t.wide_index ? permute_tile_box<true>(g, p, t0 + me) : permute_tile_box<false>(g, p, t0 + me);
  return here;
}

// The loads of a step: unit u of the step is unit u mod tile_in_units of tile u / tile_in_units,
// whose elements start at element i = that x kVin of the tile in input order (row b = i / tile_a,
// a = i mod tile_a). A tile's units in a row, or in a span of rows, lie back to back in the input
// and, in shared memory, at b x pitch + a x sizeof(T). at[k]: where unit k goes in the tiles, or -1.
template <typename T, typename InUnit, int kInFlight>
__device__ __forceinline__ void permute_step_loads(const T* in, const core::PermuteGeometry& g,
                                                   const PermuteTileArgs& p, const PermuteTileBox* boxes, int here,
                                                   InUnit (&v)[kInFlight], int (&at)[kInFlight]) {
  constexpr int kVin = sizeof(InUnit) / sizeof(T);
  const int units = here * static_cast<int>(p.tile_in_units.divisor);
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) {
    const int u = static_cast<int>(threadIdx.x) + k * core::kPermuteTileThreads;
    at[k] = -1;
    if (u < units) {
      const QuotRem tile = fast_divmod(static_cast<std::uint32_t>(u), p.tile_in_units);
      const QuotRem ba = fast_divmod(tile.rem * kVin, p.tile_a);
      const PermuteTileBox& box = boxes[tile.quot];
      const int b = static_cast<int>(ba.quot), a = static_cast<int>(ba.rem);
      if (b < box.nb && a < box.na) {
        v[k] = *reinterpret_cast<const InUnit*>(in + box.in_at + b * g.in_stride_b + a);
        at[k] = static_cast<int>(tile.quot) * p.t.tile_stride + b * p.t.pitch + a * static_cast<int>(sizeof(T));
      }
    }
  }
}

// The loaded units into the tiles: whole, or word by word where the pitch leaves them only
// word-aligned.
template <typename InUnit, int kInFlight>
__device__ __forceinline__ void permute_fill_tiles(unsigned char* tiles, const PermuteTileArgs& p,
                                                   const InUnit (&v)[kInFlight], const int (&at)[kInFlight]) {
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) {
    if (at[k] < 0) continue;
    if (sizeof(InUnit) < 4 || p.whole_unit_stores) {
      *reinterpret_cast<InUnit*>(tiles + at[k]) = v[k];
    } else {
#pragma unroll
      for (int w = 0; w < static_cast<int>(sizeof(InUnit)) / 4; ++w)
        reinterpret_cast<std::uint32_t*>(tiles + at[k])[w] = reinterpret_cast<const std::uint32_t*>(&v[k])[w];
    }
  }
}

// The stores of a step: unit u of the step is unit r = u mod tile_out_units of tile u /
// tile_out_units. In an output span, r's elements start at element r x kVout of the tile in output
// order (a = that / tile_b, b = that mod tile_b); else lanes_b units lie side by side along b and
// the rest of the lanes down a. Each unit gathers its elements from the tile, b fastest, and goes
// out in one store, one unit at a time (a store waits for nothing; fewer registers, more blocks).
template <typename T, typename OutUnit>
__device__ __forceinline__ void permute_step_stores(T* out, const core::PermuteGeometry& g, const PermuteTileArgs& p,
                                                    const PermuteTileBox* boxes, int here,
                                                    const unsigned char* tiles) {
  constexpr int kVout = sizeof(OutUnit) / sizeof(T);
  const int units = here * static_cast<int>(p.tile_out_units.divisor);
  const int lanes_b_mask = (1 << p.lanes_b_log2) - 1;
  const int tile_b = static_cast<int>(p.tile_b.divisor);
#pragma unroll 1
  for (int u = static_cast<int>(threadIdx.x); u < units; u += core::kPermuteTileThreads) {
    const QuotRem tile = fast_divmod(static_cast<std::uint32_t>(u), p.tile_out_units);
    const int r = static_cast<int>(tile.rem);
    int a, b;
    if (p.t.out_span) {
      const QuotRem ab = fast_divmod(static_cast<std::uint32_t>(r * kVout), p.tile_b);
      a = static_cast<int>(ab.quot);
      b = static_cast<int>(ab.rem);
    } else {
      const QuotRem qa = fast_divmod(static_cast<std::uint32_t>(r >> p.lanes_b_log2), p.tile_a);
      a = static_cast<int>(qa.rem);
      b = ((static_cast<int>(qa.quot) << p.lanes_b_log2) + (r & lanes_b_mask)) * kVout;
    }
    const PermuteTileBox& box = boxes[tile.quot];
    if (a >= box.na || b >= box.nb) continue;
    T* dst = out + box.out_at + a * g.out_stride_a + b;
    const unsigned char* t = tiles + static_cast<int>(tile.quot) * p.t.tile_stride;
    union {
      OutUnit unit;
      T e[kVout];
    } v;
    if (p.t.out_span) {
#pragma unroll
      for (int j = 0; j < kVout; ++j) {
        v.e[j] = *reinterpret_cast<const T*>(t + b * p.t.pitch + a * static_cast<int>(sizeof(T)));
        if (++b == tile_b) {  // the next row of the output
          b = 0;
          ++a;
        }
      }
    } else {
      const unsigned char* column = t + b * p.t.pitch + a * static_cast<int>(sizeof(T));
#pragma unroll
      for (int j = 0; j < kVout; ++j) v.e[j] = *reinterpret_cast<const T*>(column + j * p.t.pitch);
    }
    *reinterpret_cast<OutUnit*>(dst) = v.unit;
  }
}

// The stores of a step for 1-byte elements in units of 4 bytes or more, outside output spans, where
// the tile's rows are whole words apart (word_gathers): each work item takes the units of 4
// neighbouring output rows (a0..a0 + 3) at the same b, reads each of their kVout tile rows once as
// a word (a0 is a multiple of 4, so one 4-byte load holds all four columns) and sorts the bytes
// into the four units with byte permutes: a quarter of the shared loads of gathering byte by byte.
// Items lie as the units do in permute_step_stores (lanes_b side by side along b).
template <typename OutUnit>
__device__ __forceinline__ void permute_step_stores_bytes(std::uint8_t* out, const core::PermuteGeometry& g,
                                                          const PermuteTileArgs& p, const PermuteTileBox* boxes,
                                                          int here, const unsigned char* tiles) {
  constexpr int kVout = sizeof(OutUnit), kWords = kVout / 4;
  const int items = here * static_cast<int>(p.tile_quad_items.divisor);
  const int lanes_b_mask = (1 << p.lanes_b_log2) - 1;
#pragma unroll 1
  for (int u = static_cast<int>(threadIdx.x); u < items; u += core::kPermuteTileThreads) {
    const QuotRem tile = fast_divmod(static_cast<std::uint32_t>(u), p.tile_quad_items);
    const int r = static_cast<int>(tile.rem);
    const QuotRem qa = fast_divmod(static_cast<std::uint32_t>(r >> p.lanes_b_log2), p.tile_quads);
    const int a0 = static_cast<int>(qa.rem) * 4;
    const int b = ((static_cast<int>(qa.quot) << p.lanes_b_log2) + (r & lanes_b_mask)) * kVout;
    const PermuteTileBox& box = boxes[tile.quot];
    if (b >= box.nb) continue;
    const unsigned char* column = tiles + static_cast<int>(tile.quot) * p.t.tile_stride + b * p.t.pitch + a0;
    std::uint32_t w[kVout];  // row b + j's bytes at a0..a0 + 3
#pragma unroll
    for (int j = 0; j < kVout; ++j) w[j] = *reinterpret_cast<const std::uint32_t*>(column + j * p.t.pitch);
    std::uint8_t* dst = out + box.out_at + a0 * g.out_stride_a + b;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      if (a0 + q >= box.na) break;
      constexpr unsigned kPair[4] = {0x40, 0x51, 0x62, 0x73};  // byte q of the first word, then the second's
      union {
        OutUnit unit;
        std::uint32_t word[kWords];
      } v;
#pragma unroll
      for (int m = 0; m < kWords; ++m) {
        const std::uint32_t lo = __byte_perm(w[4 * m], w[4 * m + 1], kPair[q]);
        const std::uint32_t hi = __byte_perm(w[4 * m + 2], w[4 * m + 3], kPair[q]);
        v.word[m] = __byte_perm(lo, hi, 0x5410);
      }
      *reinterpret_cast<OutUnit*>(dst + q * g.out_stride_a) = v.unit;
    }
  }
}

// The 2-D slices of a permutation (a: the input's innermost dimension, b: the output's) through
// shared-memory tiles of tile_b rows of tile_a elements (PermuteTiling), in units of up to 16
// bytes on both sides. A block takes a run of consecutive tiles, `group` at a step: the step's
// boxes are decoded into shared memory, its units loaded into the tiles, then gathered and stored.
// (Issuing the next step's loads before this step's stores measured slower on six of eight cases
// on an H200, with more registers held across; faster on a u8 reversal.) T is the element's
// storage type; units are whole elements.
template <typename T, typename InUnit, typename OutUnit>
__global__ void __launch_bounds__(core::kPermuteTileThreads)
    permute_tile_kernel(const T* in, T* out, core::PermuteGeometry g, PermuteTileArgs p) {
  extern __shared__ __align__(16) unsigned char tiles[];
  __shared__ PermuteTileBox boxes[core::kPermuteMaxGroup];
  constexpr int kInFlight = core::permute_units_in_flight(sizeof(InUnit));
  const std::int64_t first = p.t.tiles * blockIdx.x / gridDim.x, last = p.t.tiles * (blockIdx.x + 1) / gridDim.x;
  for (std::int64_t t0 = first; t0 < last; t0 += p.t.group) {
    const int here = permute_step_boxes(g, p, t0, last, boxes);
    __syncthreads();
    {
      InUnit v[kInFlight];
      int at[kInFlight];
      permute_step_loads<T, InUnit, kInFlight>(in, g, p, boxes, here, v, at);
      permute_fill_tiles<InUnit, kInFlight>(tiles, p, v, at);
    }
    __syncthreads();
    if constexpr (sizeof(T) == 1 && sizeof(OutUnit) >= 4) {
      if (p.word_gathers)
        permute_step_stores_bytes<OutUnit>(out, g, p, boxes, here, tiles);
      else
        permute_step_stores<T, OutUnit>(out, g, p, boxes, here, tiles);
    } else {
      permute_step_stores<T, OutUnit>(out, g, p, boxes, here, tiles);
    }
    __syncthreads();
  }
}

// Runs of extent_a elements that stay innermost. The output is packed, so the runs follow one
// another there: for each index of the outer slice dimensions (all but the innermost in output
// order, whose n1 runs lie n1_stride elements apart in the input), the output is one contiguous
// span of n1 x extent_a elements, gathered from n1 runs of the input. Blocks of kPermuteRunBlock
// threads: blockIdx.y walks the outer indices, blockIdx.x pieces of kPermuteRunBlock x
// kPermuteRunUnroll elements of the span. Index is 32-bit where the span fits (a 32-bit division
// per element instead of a 64-bit one).
template <typename T, typename Index>
__global__ void __launch_bounds__(kPermuteRunBlock)
    permute_runs_kernel(const T* in, T* out, core::PermuteGeometry g, std::int64_t outers, Index span,
                        std::int64_t n1_stride) {
  constexpr Index kPiece = kPermuteRunBlock * kPermuteRunUnroll;
  const Index run = static_cast<Index>(g.extent_a);
  for (std::int64_t o = blockIdx.y; o < outers; o += gridDim.y) {
    std::int64_t in_at = 0, out_at = 0;  // out_at unused: the output spans are back to back
    permute_slice_offsets(g, g.slice_dims - 1, o, in_at, out_at);
    const T* src = in + in_at;
    T* dst = out + o * static_cast<std::int64_t>(span);
    for (Index first = static_cast<Index>(blockIdx.x) * kPiece + threadIdx.x; first < span;
         first += static_cast<Index>(gridDim.x) * kPiece) {
      T v[kPermuteRunUnroll];
#pragma unroll
      for (int k = 0; k < kPermuteRunUnroll; ++k) {
        const Index t = first + k * kPermuteRunBlock, r = t / run, j = t - r * run;
        if (t < span) v[k] = src[static_cast<std::int64_t>(r) * n1_stride + j];
      }
#pragma unroll
      for (int k = 0; k < kPermuteRunUnroll; ++k) {
        const Index t = first + k * kPermuteRunBlock;
        if (t < span) dst[t] = v[k];
      }
    }
  }
}

}  // namespace xpose::gpu
