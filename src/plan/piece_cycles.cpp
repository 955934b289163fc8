// The cycles of the pieces' permutation (plan/piece_cycles.hpp), found from one bit per piece, and
// their segments.
#include "plan/piece_cycles.hpp"

#include <algorithm>
#include <numeric>

namespace xpose::plan {

PieceMap make_piece_map(std::int64_t rows, std::int64_t cols) {
  PieceMap m;
  m.g = std::gcd(rows, cols);
  m.p = rows / m.g;
  m.q = cols / m.g;
  m.by_p = make_div64(m.p);
  m.by_g = make_div64(m.g);
  return m;
}

std::vector<PieceCycle> piece_cycles(const PieceMap& map) {
  std::vector<PieceCycle> cycles;
  std::vector<bool> seen(static_cast<std::size_t>(map.count()), false);
  for (std::int64_t s = 0; s < map.count(); ++s) {
    if (seen[static_cast<std::size_t>(s)]) continue;
    std::int64_t length = 0;
    for (std::int64_t t = s; !seen[static_cast<std::size_t>(t)]; t = map.source(t), ++length)
      seen[static_cast<std::size_t>(t)] = true;
    if (length > 1) cycles.push_back({s, length});
  }
  return cycles;
}

PieceSegments piece_segments(const std::vector<PieceCycle>& cycles, const PieceMap& map, std::int64_t max_steps,
                             std::int64_t held_length) {
  PieceSegments out;
  std::vector<PieceSegment>& segments = out.segments;
  for (const PieceCycle& c : cycles) {
    if (c.length <= held_length) continue;
    const auto first_segment = static_cast<std::int32_t>(segments.size());
    std::int64_t t = c.first;
    for (std::int64_t done = 0; done < c.length;) {
      const std::int64_t steps = std::min(max_steps, c.length - done);
      segments.push_back({t, static_cast<std::int32_t>(steps), static_cast<std::int32_t>(segments.size() + 1)});
      for (std::int64_t k = 0; k < steps; ++k) t = map.source(t);
      done += steps;
    }
    segments.back().next = first_segment;
  }
  out.saved = static_cast<std::int64_t>(segments.size());
  for (const PieceCycle& c : cycles)
    if (c.length <= held_length) segments.push_back({c.first, static_cast<std::int32_t>(c.length), -1});
  return out;
}

}  // namespace xpose::plan
