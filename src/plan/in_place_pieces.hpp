// The GPU's in-place transpose of non-square matrices whose sides share a large factor g (m = p g,
// n = q g): the g x g blocks transposed in place by the square kernels, then the rows' pieces of g
// elements moved along the segments of plan/piece_cycles.hpp, a block of threads each.
#pragma once

#include <cstdint>

#include "plan/in_place.hpp"
#include "plan/piece_cycles.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::plan {

// Pieces of at least this many bytes (a block's move of a piece is one step of its segment, which
// waits for its loads).
constexpr std::int64_t kMinGpuPieceBytes = 256;
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
// Threads of the pieces' kernels: one access unit each, up to this many (each then loops).
constexpr int kPieceMaxThreads = 256;

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
  PieceSegments segments;       // the plan keeps a device copy
  std::int64_t held_bytes = 0;  // dynamic shared memory of the move: one piece (cycles held whole)
  std::int64_t saved_bytes() const {
    return segments.saved * map.g * static_cast<std::int64_t>(dtype_size(blocks.dtype));
  }
};

// Fills `config` and returns true for a resolved non-square descriptor (packed rows) whose sides
// share a factor of at least kMinGpuPieceBytes of elements (and, in a batch, matrices of at least
// kPieceBatchMatrixBytes), with pointers aligned to `alignment` bytes and `shared_limit` bytes of
// shared memory a block; false where the shuffles take it.
bool choose_in_place_pieces(const TransposeDesc& resolved_desc, int alignment, std::int64_t shared_limit,
                            PiecesConfig& config);

}  // namespace xpose::plan
