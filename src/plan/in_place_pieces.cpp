// Planning the GPU's square-blocks in-place transpose: the blocks' square plan, the pieces' access
// width and threads, and the segments of the pieces' cycles.
#include "plan/in_place_pieces.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace xpose::plan {
namespace {

// The largest power of two, at most 16, dividing `alignment` and every nonzero offset.
int common_alignment(int alignment, std::int64_t a, std::int64_t b) {
  int v = 16;
  while (v > 1 && (alignment % v != 0 || a % v != 0 || b % v != 0)) v /= 2;
  return v;
}

}  // namespace

bool choose_in_place_pieces(const TransposeDesc& d, int alignment, std::int64_t shared_limit, PiecesConfig& c,
                            const PiecesChoice& choice) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.rows == d.cols || d.rows == 1 || d.cols == 1) return false;
  const PieceMap map = make_piece_map(d.rows, d.cols);
  const std::int64_t piece = map.g * e;
  if (map.g < 2 || piece < choice.min_piece_bytes || map.count() > kPieceMaxCount) return false;
  if (d.batch > 1 && d.rows * d.cols * e < kPieceBatchMatrixBytes) return false;
  c = PiecesConfig{};
  c.map = map;
  // Every matrix, and every row of blocks, starts at an offset that keeps this alignment.
  const std::int64_t matrices = d.batch > 1 ? d.batch_stride_in * e : 0;
  const int block_alignment = common_alignment(alignment, matrices, map.p > 1 ? map.g * d.cols * e : 0);
  // Tall (q = 1): every block at once (launched a row at a time, 64 x 1024^2 blocks of u8 ran 1.35x
  // the shuffles' time).
  c.block_launches = map.q == 1 ? 1 : map.p;
  c.blocks = map.q == 1 ? TransposeDesc{d.dtype, map.g, map.g, map.p, map.g, map.g, map.g * map.g, map.g * map.g}
                        : TransposeDesc{d.dtype, map.g, map.g, map.q, d.cols, d.cols, map.g, map.g};
  c.block_config = choose_in_place(c.blocks, block_alignment);
  if (c.block_launches > 1 && c.block_config.kernel == InPlaceKernel::small_squares) {
    // Small blocks go in one launch too, a row of blocks a group.
    c.blocks.batch = map.p * map.q;
    c.block_config = choose_in_place(c.blocks, block_alignment);
    c.block_config.group_count = map.q;
    c.block_config.group_stride = map.g * d.cols;
    c.block_launches = 1;
  }
  const std::int64_t least = c.block_launches > 1                ? kPieceOneLaunchBytes
                             : c.block_config.group_count > 0 ? kMinGroupedPieceBytes
                                                              : kMinGpuPieceBytes;
  if (piece < least && !choice.any_size) return false;
  c.unit_bytes = common_alignment(alignment, matrices, piece);
  const std::int64_t units = piece / c.unit_bytes;
  if (units >= 32 || !choice.grouped) {
    c.threads = c.group_threads = static_cast<int>(std::min<std::int64_t>(kPieceMaxThreads, (units + 31) / 32 * 32));
  } else {
    c.group_threads = 1;
    while (c.group_threads < units) c.group_threads *= 2;
    c.threads = kPieceGroupedThreads;
  }
  const std::int64_t groups = c.threads / c.group_threads;
  // Cycles of up to kPieceSegmentSteps pieces whole, their first piece held in shared memory where
  // every group's fits; the others cut.
  const std::int64_t held_length = piece * groups <= shared_limit ? kPieceSegmentSteps : 0;
  const std::vector<PieceCycle> cycles = piece_cycles(map);
  std::int64_t cut_pieces = 0;
  for (const PieceCycle& cycle : cycles)
    if (cycle.length > held_length) cut_pieces += cycle.length;
  std::int64_t steps = std::clamp(cut_pieces * piece / kPieceBytesInFlight, kPieceSegmentMinSteps, kPieceSegmentSteps);
  // Longer segments where the saved pieces would pass kPieceSavedMaxBytes; the shuffles where no
  // length keeps them under it (many long cycles of large pieces). The segments' indices are 32-bit.
  for (;;) {
    if (cut_pieces / steps + static_cast<std::int64_t>(cycles.size()) > std::numeric_limits<std::int32_t>::max())
      return false;
    c.segments = piece_segments(cycles, map, steps, held_length);
    if (c.saved_bytes() <= kPieceSavedMaxBytes) break;
    if (steps >= cut_pieces) return false;
    steps *= 2;
  }
  c.held_bytes = c.segments.saved < static_cast<std::int64_t>(c.segments.segments.size()) ? piece * groups : 0;
  return true;
}

}  // namespace xpose::plan
