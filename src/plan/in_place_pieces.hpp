// The GPU's in-place transpose of non-square matrices whose sides share a large factor g (m = p g,
// n = q g): the g x g blocks transposed in place by the square kernels, then the rows' pieces of g
// elements moved along the segments of plan/piece_cycles.hpp, a block of threads each.
#pragma once

#include <cstdint>

#include "plan/in_place.hpp"
#include "plan/piece_cycles.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::plan {

// Blocks of at least kMinGpuPieceElements, and pieces of at least kMinGpuPieceBytes unless the blocks
// hold kPieceWideBlockElements: a group's move of a piece is one step of its segment, which waits for
// its loads, and the square kernels move small blocks slowly. Pieces under kPieceOneLaunchBytes only
// where the blocks take one launch (a tall or a wide matrix; otherwise one per row of blocks). Measured
// on an H200 against the shuffles (of memcpy, tall and wide matrices of 64-256 MiB;
// bench/results/h200_2026-11-29p_in_place_piece_groups_first.txt): u8 g = 32 0.072 / 0.063, g = 64 0.174 /
// 0.060; bf16 g = 16 0.068 / 0.120, g = 32 0.167 / 0.099; f32 g = 16 0.056 / 0.158, g = 32 0.165 /
// 0.146; f64 g = 8 0.064 / 0.184, g = 16 0.193 / 0.171; c128 g = 8 0.102 / 0.204, g = 16 0.293 / 0.186.
constexpr std::int64_t kMinGpuPieceElements = 16, kPieceWideBlockElements = 32;
constexpr std::int64_t kMinGpuPieceBytes = 128;
constexpr std::int64_t kPieceOneLaunchBytes = 256;
// A cut segment moves at most kPieceSegmentSteps pieces, one after another, each step waiting for its
// loads; its first piece is saved first (scratch of 1 / steps of the pieces of long cycles). Fewer
// steps (down to kPieceSegmentMinSteps) where the segments' first steps together would move less than
// kPieceBytesInFlight. On an H200, 1000 x 3000 in segments of 16 kept DRAM 4% busy while u8's 188
// moved (1000-byte pieces); in 4s, u8 ran at 0.451 of memcpy against 0.339 and bf16 at 0.543 against
// 0.421, where c128 (16000-byte pieces) fell from 0.541 to 0.501 and f64 from 0.505 to 0.485.
constexpr std::int64_t kPieceSegmentSteps = 16, kPieceSegmentMinSteps = 4;
constexpr std::int64_t kPieceBytesInFlight = std::int64_t{4} << 20;
// Saved pieces stay within this many bytes: longer segments past kPieceSegmentSteps where they would
// not (matrices of about 1 GiB and more whose cycles are long), else the shuffles.
constexpr std::int64_t kPieceSavedMaxBytes = std::int64_t{64} << 20;
// Batches take blocks and pieces only where each matrix holds at least this much: the way takes four
// launches a matrix, where the shuffles take a batch in three.
constexpr std::int64_t kPieceBatchMatrixBytes = std::int64_t{16} << 20;
// Threads of the pieces' kernels: one access unit each, up to this many (each then loops). Pieces of
// fewer than 32 units take a power-of-two group of threads each, kPieceGroupedThreads to a block, so
// that a block keeps several segments' loads in flight. Measured on an H200 against one segment a
// block (of memcpy, two rounds alike; bench/results/h200_2026-11-29p_in_place_piece_groups_ab.txt):
// 256-byte pieces u8 0.390 / 0.303, bf16 0.327 / 0.253, f32 0.356 / 0.253, f64 0.393-0.400 / 0.280,
// c128 0.297 / 0.245; u8 64-byte pieces 0.176 / 0.095; pieces of 512 bytes and more as before.
constexpr int kPieceMaxThreads = 256;
constexpr int kPieceGroupedThreads = 128;

struct PiecesConfig {
  PieceMap map;
  // The g x g blocks as square matrices (resolved): a tall matrix's (q = 1) all at once, g^2 elements
  // apart; otherwise one row of blocks, g elements apart with rows n apart, launched p times, g n
  // elements apart.
  TransposeDesc blocks;
  std::int64_t block_launches = 1;
  InPlaceConfig block_config;   // choose_in_place's for `blocks`
  int unit_bytes = 1;           // the pieces' accesses
  int threads = 32;             // per block of the pieces' kernels
  int group_threads = 32;       // per segment: `threads`, or a power of two under 32
  PieceSegments segments;       // the plan keeps a device copy
  std::int64_t held_bytes = 0;  // dynamic shared memory of the move: one piece a group (cycles held whole)
  std::int64_t saved_bytes() const {
    return segments.saved * map.g * static_cast<std::int64_t>(dtype_size(blocks.dtype));
  }
};

// Fills `config` and returns true for a resolved non-square descriptor (packed rows) whose sides
// share a factor large enough (above; and, in a batch, matrices of at least kPieceBatchMatrixBytes),
// with pointers aligned to `alignment` bytes and `shared_limit` bytes of shared memory a block; false
// where the shuffles take it. For measuring: `grouped` false, one segment a block at every size;
// `any_factor`, blocks and pieces wherever the sides share a factor of 2 or more.
bool choose_in_place_pieces(const TransposeDesc& resolved_desc, int alignment, std::int64_t shared_limit,
                            PiecesConfig& config, bool grouped = true, bool any_factor = false);

}  // namespace xpose::plan
