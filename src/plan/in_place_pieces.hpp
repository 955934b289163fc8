// The GPU's in-place transpose of non-square matrices whose sides share a large factor g (m = p g,
// n = q g): the g x g blocks transposed in place by the square kernels, then the rows' pieces of g
// elements moved along the segments of plan/piece_cycles.hpp, a block of threads each.
#pragma once

#include <cstdint>

#include "plan/in_place.hpp"
#include "plan/piece_cycles.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::plan {

// Pieces of at least kMinGpuPieceBytes in a tall or a wide matrix (one row or one column of blocks),
// of kMinGroupedPieceBytes where the blocks are small squares in groups (a launch takes every row of
// blocks), and of kPieceOneLaunchBytes where the blocks take a launch a row of blocks (the tile
// pairs). Measured on an H200 against the shuffles (of memcpy, blocks as small squares;
// bench/results/h200_2026-11-29p_in_place_small_squares.txt, tall, 32-256 MiB): u8 4194304x16 (16-byte
// pieces) 0.247 / 0.079, 1048576x32 0.36 / 0.063; bf16 4194304x8 0.207 / 0.128; f32 4194304x4 0.243 /
// 0.159, 1048576x32 0.367 / 0.146; f64 8388608x2 0.183 / 0.156, 1048576x4 0.392 / 0.201; c128
// 1048576x2 0.307 / 0.226. In groups (`h200_2026-11-29p_in_place_grouped_blocks.txt`, 16-64 MiB):
// bf16 4094x8190 (4-byte pieces) 0.034 / 0.178, f64 4094x2046 (16) 0.130 / 0.277; f32 4088x4096 (32)
// 0.224 / 0.214, c128 2046x1022 (32) 0.327 / 0.292, u8 8176x8192 (16 bytes of 16) 0.110 / 0.093,
// 8128x8192 (64) 0.248 / 0.099, bf16 8160x8192 (64) 0.276 / 0.123; f64 2040x2048 (64) level at 0.34,
// and c128 1020x1024 (64) 0.312 / 0.351. Before the small squares (the tile pairs moved each block
// alone), blocks under 16 elements lost to the shuffles (f32 1048576x8 0.018 against 0.161;
// `h200_2026-11-29p_in_place_piece_groups_first.txt`).
constexpr std::int64_t kMinGpuPieceBytes = 16, kMinGroupedPieceBytes = 32, kPieceOneLaunchBytes = 256;
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

// A one-call transpose (a plan made, used once and dropped) takes blocks and pieces only with pieces
// of at least kOneCallMinPieceBytes where the shuffles can run: planning walks every piece's cycle on
// the host (10-20 ns a piece on the development VM: u8 1048576 x 32, a million pieces of 32 bytes,
// 19 ms) and uploads the segments, where the pieces save the GPU about 2 ps a byte against the
// shuffles (about 0.4 against 0.15 of memcpy on an H200). A plan made once and reused takes them
// wherever they run faster.
constexpr std::int64_t kOneCallMinPieceBytes = 8 << 10;

// How choose_in_place_pieces may choose, besides its measured rule.
struct PiecesChoice {
  std::int64_t min_piece_bytes = 0;  // smaller pieces take the shuffles (one call: kOneCallMinPieceBytes)
  bool grouped = true;               // false, for measuring: one segment a block at every size
  bool any_size = false;             // for measuring: pieces of any size (g >= 2) in every kind of shape
};

// Fills `config` and returns true for a resolved non-square descriptor (packed rows) whose sides
// share a factor large enough (above; and, in a batch, matrices of at least kPieceBatchMatrixBytes),
// with pointers aligned to `alignment` bytes and `shared_limit` bytes of shared memory a block; false
// where the shuffles take it. The size rules are checked before the cycles are walked.
bool choose_in_place_pieces(const TransposeDesc& resolved_desc, int alignment, std::int64_t shared_limit,
                            PiecesConfig& config, const PiecesChoice& choice = PiecesChoice{});

}  // namespace xpose::plan
