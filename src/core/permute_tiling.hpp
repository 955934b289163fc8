// How the GPU's tile kernel moves a permutation's 2-D slices (the input's innermost dimension a
// against the output's innermost b): tile sides, the widths of its global accesses, how many tiles
// a block takes per step, and the layout of its shared-memory tiles. Host code, so that the
// choices are tested without a GPU.
#pragma once

#include <cstdint>

#include "core/permute_shape.hpp"

namespace xpose::core {

// Threads per block of the tile kernel, and the most bytes of tiles it moves per step.
constexpr int kPermuteTileThreads = 256;
constexpr int kPermuteStepBytes = 16384;
// At most this many tiles per step (small slices are taken many to a step).
constexpr int kPermuteMaxGroup = 64;
// Shared memory a block may use (below the 48 KiB that needs no opt-in).
constexpr int kPermuteMaxSharedBytes = 32768;

// Accesses of `unit_bytes` a thread issues together per step (16 of 1, 2 or 4 bytes, 8 of 8 bytes,
// 4 of 16 bytes). A step's loads fit in one round of them: the kernel loads no more.
constexpr int permute_units_in_flight(int unit_bytes) { return unit_bytes >= 16 ? 4 : unit_bytes >= 8 ? 8 : 16; }

struct PermuteTiling {
  // Large slices of 4- to 16-byte elements (both sides 64 or more) take square tiles of single
  // elements of this side (64, 32 for 16-byte elements), which measured faster there; 0: the
  // vector tiles below.
  int element_tile = 0;
  std::int64_t tile_a = 1, tile_b = 1;  // elements along a (input rows) and b (output rows)
  int in_unit = 1;                      // bytes per global load
  int out_unit = 1;                     // bytes per global store
  // A side whose rows lie back to back in its tensor and which the tile covers whole (in: b right
  // outside a in the input and tile_a = extent_a; out: a right outside b in the output and tile_b
  // = extent_b) is moved as one contiguous span per tile, where that allows wider units than its
  // rows do; units then run across rows.
  bool in_span = false, out_span = false;
  int lanes_b = 1;  // store units side by side along b in a warp, the rest of its lanes along a
  int group = 1;    // tiles per block step
  int pitch = 1;    // bytes between the rows of a tile in shared memory
  int tile_stride = 1;  // bytes between tiles in shared memory
  std::int64_t tiles_a = 1, tiles_b = 1, tiles = 1;  // tiles per slice side, and in all
  int alignment = 1;        // the pointers' (as the plan promises)
  bool wide_index = false;  // tile numbers reach 2^31: the kernel decodes them by 64-bit divisions
  int shared_bytes() const { return group * tile_stride; }
};

// For a geometry that is not same_inner, and pointers aligned to `alignment` bytes (a power of two).
PermuteTiling choose_permute_tiling(const PermuteGeometry& geometry, int alignment);

// Bytes per store of a loaded unit into shared memory: the whole unit where its place keeps it
// aligned (spans, or a pitch that is a multiple of it), else 4-byte words (narrower units whole).
int permute_tile_store_bytes(const PermuteTiling& tiling);

// Shared-memory wavefronts per KiB moved, for one warp's first instructions of each phase: its
// stores of loaded units into the tiles and its gathers of elements for the global stores. The
// padding of the rows is chosen by it (a conflict-free instruction over 4-byte words takes one).
double permute_tile_bank_cost(const PermuteTiling& tiling, int esize);

}  // namespace xpose::core
