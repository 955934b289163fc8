// The second half of an in-place transpose of an m x n matrix whose sides share a factor g (m = p g,
// n = q g), after each g x g block has been transposed in its own place: the rows' pieces of g
// elements hold the right elements in the wrong places. Piece (I, y, J), the J-th piece of row I g + y,
// belongs at piece I of row J g + y of the n x m output. Both orders number the same places, so the
// move is a permutation of pieces, followed along segments of its cycles that run at the same time
// (CPU threads, GPU blocks): short cycles whole, long ones cut, each cut segment's first piece saved
// in scratch first so that no segment waits for another.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/shuffle_maps.hpp"

namespace xpose::plan {

struct PieceMap {
  std::int64_t p = 1, q = 1, g = 1;
  Div64 by_p, by_g;
  constexpr std::int64_t count() const { return p * g * q; }
  // The piece that belongs at place t = (J g + y) p + I, which lies at (I g + y) q + J.
  constexpr std::int64_t source(std::int64_t t) const {
    const std::int64_t rest = quot(t, by_p), i = t - rest * p;
    const std::int64_t j = quot(rest, by_g), y = rest - j * g;
    return (i * g + y) * q + j;
  }
};

PieceMap make_piece_map(std::int64_t rows, std::int64_t cols);

// At most this many pieces a matrix, where a plan would take them: it walks every piece's cycle on the
// host (10-20 ns a piece on the development VM; f64 67108864 x 2, 67 million pieces, took 1.7 s and a
// 41 MB segment table for the GPU).
constexpr std::int64_t kPieceMaxCount = std::int64_t{1} << 25;

// The permutation's cycles of two pieces or more, each named by one of its places.
struct PieceCycle {
  std::int64_t first, length;
};
std::vector<PieceCycle> piece_cycles(const PieceMap& map);

// The cycles as segments that can run at the same time, in two groups. First the cycles longer than
// `held_length` pieces (every cycle where it is 0), cut into segments of at most max_steps places:
// segment s starts at place `first` and fills `steps` places in turn, each with the piece from the
// next place of the cycle, its last place with the piece saved for segment `next` (the cycle's next
// segment, or for its last segment the cycle's first), every such segment's first piece saved before
// any segment moves. Then the other cycles whole, `next` -1: the segment holds its own first piece
// for its last place.
struct PieceSegment {
  std::int64_t first;
  std::int32_t steps, next;
};
struct PieceSegments {
  std::vector<PieceSegment> segments;
  std::int64_t saved = 0;  // segments[0, saved) have their first piece saved
};
PieceSegments piece_segments(const std::vector<PieceCycle>& cycles, const PieceMap& map, std::int64_t max_steps,
                             std::int64_t held_length);

}  // namespace xpose::plan
