// small_batch's shared-memory bank choices (small_batch.cuh): the swizzle bits of its tile and the
// slope of its rotated store reads, from a count of the wavefronts its store-phase reads take.
#pragma once

#include <cstdint>

#include "xpose/descriptor.hpp"

namespace xpose::plan {

// The swizzle's bits for lanes `lane_stride` bytes apart (16 / E rows, one read step): the stride's
// lowest set bit - for a power of two its log2, so that lanes 1..7 XOR their chunk by 1..7 - and at
// least 8 for other strides (multiples of 128 bytes). A count of the banks one read step touches
// (bench/small_batch_banks.py: 32 lanes, every matrix of at most 16 KiB, columns a multiple of 8)
// puts that at 4 wavefronts against 32 unswizzled, the fewest of bits 7 to 10 everywhere.
int small_batch_swizzle_bits(std::int64_t lane_stride);

// Wavefronts of the store phase's tile reads over a block's first `warps` warps, the tile packed
// from a 16-byte boundary, plain (bits 0) or swizzled by `bits`: lane l of a warp builds output
// vector l (16 / e elements, read down the input column and on into the next), reading element
// (s + slope * l) mod 16 / e at step s; each step costs the most distinct 4-byte words any one bank
// is asked for.
std::int64_t small_batch_read_wavefronts(std::int64_t rows, std::int64_t cols, int e, int bits, int slope, int warps);

// The slope small_batch's lanes rotate their reads by, on a plain tile (0: in order, on the tile
// small_batch_swizzled picks): for packed batches of 1- and 2-byte matrices of at least 16 / e rows,
// the slope with the fewest wavefronts where that is at most kRotationMaxShare percent of the
// in-order count - rotation_wrap_share for 1-byte matrices whose rows are not a multiple of 16, where
// the in-order kernel follows each vector into the next column byte by byte.
constexpr std::int64_t kRotationMaxShare = 75;
constexpr std::int64_t rotation_wrap_share(std::int64_t cols) { return (cols & (cols - 1)) == 0 ? 150 : 200; }
int small_batch_rotation(const TransposeDesc& resolved_desc);

}  // namespace xpose::plan
