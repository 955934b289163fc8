// The tile kernel's shape for a permutation's slices: see permute_tiling.hpp.
#include "core/permute_tiling.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace xpose::core {

namespace {

std::int64_t floor_pow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// The widest access of up to 16 bytes, whole elements, that divides both element counts (a row or
// a span, and the tensor's extent of it) and, where wider than an element, the pointers'
// alignment. In packed tensors every other stride is a multiple of such a row or span.
int unit_bytes(std::int64_t count, std::int64_t whole, int esize, int alignment) {
  int unit = esize;
  while (unit * 2 <= 16 && unit * 2 <= alignment && count * esize % (unit * 2) == 0 && whole * esize % (unit * 2) == 0)
    unit *= 2;
  return unit;
}

// Wavefronts of one shared-memory instruction: each active lane reads or writes `size` bytes at
// its address; lanes go through in phases of 128 bytes, and a phase takes as many wavefronts as
// the most distinct 4-byte words it touches in one bank.
int wavefronts(const std::vector<std::int64_t>& addresses, int size) {
  const std::size_t per_phase = size <= 4 ? 32 : static_cast<std::size_t>(128 / size);
  int total = 0;
  for (std::size_t first = 0; first < addresses.size(); first += per_phase) {
    std::map<int, std::set<std::int64_t>> words_by_bank;
    for (std::size_t l = first; l < std::min(addresses.size(), first + per_phase); ++l)
      for (int w = 0; w < std::max(size, 4) / 4; ++w) {
        const std::int64_t word = addresses[l] / 4 + w;
        words_by_bank[static_cast<int>(word % 32)].insert(word);
      }
    std::size_t most = 0;
    for (const auto& [bank, words] : words_by_bank) most = std::max(most, words.size());
    total += static_cast<int>(most);
  }
  return total;
}

}  // namespace

int permute_tile_store_bytes(const PermuteTiling& t) {
  return t.in_span || t.pitch % t.in_unit == 0 ? t.in_unit : std::min(t.in_unit, 4);
}

double permute_tile_bank_cost(const PermuteTiling& t, int esize) {
  // Loads: lanes take consecutive units of a tile's elements in input order, tile after tile.
  const std::int64_t per_in = t.in_unit / esize, tile_in_units = t.tile_a * t.tile_b / per_in;
  const int store_size = permute_tile_store_bytes(t);
  int store_cost = 0;
  for (int piece = 0; piece < t.in_unit / store_size; ++piece) {
    std::vector<std::int64_t> at;
    for (std::int64_t l = 0; l < 32 && l < t.group * tile_in_units; ++l) {
      const std::int64_t g = l / tile_in_units, i = l % tile_in_units * per_in;
      at.push_back(g * t.tile_stride + i / t.tile_a * t.pitch + i % t.tile_a * esize + piece * store_size);
    }
    store_cost += wavefronts(at, store_size);
  }
  // Gathers: a span's units in output order; else lanes_b units side by side along b, the other
  // lanes down a. Each unit reads its elements one at a time, b fastest.
  const std::int64_t per_out = t.out_unit / esize, tile_out_units = t.tile_a * t.tile_b / per_out;
  int gather_cost = 0;
  for (std::int64_t j = 0; j < per_out; ++j) {
    std::vector<std::int64_t> at;
    for (std::int64_t l = 0; l < 32 && l < t.group * tile_out_units; ++l) {
      const std::int64_t g = l / tile_out_units, r = l % tile_out_units;
      std::int64_t a, b;
      if (t.out_span) {
        a = (r * per_out + j) / t.tile_b;
        b = (r * per_out + j) % t.tile_b;
      } else {
        const std::int64_t q = r / t.lanes_b;
        a = q % t.tile_a;
        b = ((q / t.tile_a) * t.lanes_b + r % t.lanes_b) * per_out + j;
      }
      at.push_back(g * t.tile_stride + b * t.pitch + a * esize);
    }
    gather_cost += wavefronts(at, esize);
  }
  return 1024.0 * store_cost / (32.0 * t.in_unit) + 1024.0 * gather_cost / (32.0 * t.out_unit);
}

namespace {

// Everything that follows from the tile sides and the group: tile counts, units (spans where a
// side allows), store lanes, and the shared layout. Store lanes lie side by side along b until
// they cover a 32-byte sector of an output row; the rows take the padding (up to 32 bytes over
// the row rounded up to the shared accesses' alignment; none for an input span, whose units run
// across rows) with the fewest bank conflicts, the smallest where they tie.
void finish_tiling(PermuteTiling& t, const PermuteGeometry& g, int alignment) {
  const int e = g.esize;
  t.tiles_a = (g.extent_a + t.tile_a - 1) / t.tile_a;
  t.tiles_b = (g.extent_b + t.tile_b - 1) / t.tile_b;
  t.tiles = t.tiles_a * t.tiles_b * g.slices;
  t.group = static_cast<int>(std::min<std::int64_t>(t.group, t.tiles));
  t.in_unit = unit_bytes(g.extent_a, g.extent_a, e, alignment);
  t.out_unit = unit_bytes(g.extent_b, g.extent_b, e, alignment);
  // A span is a whole tile (tile_a x tile_b elements) in a tensor of extent_a x extent_b per slice.
  const int span_unit = unit_bytes(t.tile_a * t.tile_b, g.extent_a * g.extent_b, e, alignment);
  t.in_span = g.in_stride_b == g.extent_a && t.tile_a == g.extent_a && span_unit > t.in_unit;
  if (t.in_span) t.in_unit = span_unit;
  t.out_span = g.out_stride_a == g.extent_b && t.tile_b == g.extent_b && span_unit > t.out_unit;
  if (t.out_span) t.out_unit = span_unit;
  t.lanes_b = 1;
  if (!t.out_span) {
    const std::int64_t row_units_b = t.tile_b * e / t.out_unit;
    while (t.lanes_b * 2 * t.out_unit <= 32 && row_units_b % (t.lanes_b * 2) == 0) t.lanes_b *= 2;
  }
  const int step = t.in_span ? e : std::max(4, e);
  const int row = static_cast<int>((t.tile_a * e + step - 1) / step * step);
  double best = 0;
  for (int pad = 0; pad <= (t.in_span ? 0 : 32); pad += step) {
    PermuteTiling candidate = t;
    candidate.pitch = row + pad;
    candidate.tile_stride = static_cast<int>((candidate.tile_b * candidate.pitch + 15) / 16 * 16);
    const double cost = permute_tile_bank_cost(candidate, e);
    if (pad == 0 || cost < best) {
      best = cost;
      t.pitch = candidate.pitch;
      t.tile_stride = candidate.tile_stride;
    }
  }
}

}  // namespace

PermuteTiling choose_permute_tiling(const PermuteGeometry& g, int alignment) {
  const int e = g.esize;
  PermuteTiling t;
  t.alignment = alignment;
  if (e >= 4 && g.extent_a >= 64 && g.extent_b >= 64) {
    // H200, slices of 256 x 256: f32 0.92 of memcpy against 0.82 in vector tiles, f64 0.91
    // against 0.84, c128 0.91 against 0.84; odd sides (999, f32) 0.63 against 0.34.
    t.element_tile = e == 16 ? 32 : 64;
    t.tile_a = t.tile_b = t.element_tile;
    t.tiles_a = (g.extent_a + t.tile_a - 1) / t.tile_a;
    t.tiles_b = (g.extent_b + t.tile_b - 1) / t.tile_b;
    t.tiles = t.tiles_a * t.tiles_b * g.slices;
    t.in_unit = t.out_unit = e;
    return t;
  }
  // A step's loads fit in one round of a thread's accesses in flight, of the rows' units.
  const int row_unit = unit_bytes(g.extent_a, g.extent_a, e, alignment);
  const std::int64_t step_bytes =
      std::min(kPermuteStepBytes, kPermuteTileThreads * permute_units_in_flight(row_unit) * row_unit);
  // Square tiles of up to a step's bytes; a side cut short by its slice lets the other grow.
  std::int64_t side = 1;
  while (4 * side * side * e <= step_bytes) side *= 2;
  t.tile_a = std::min(g.extent_a, side);
  t.tile_b = std::min(g.extent_b, side);
  if (t.tile_b < side)
    t.tile_a = std::min(g.extent_a, floor_pow2(step_bytes / (t.tile_b * e)));
  else if (t.tile_a < side)
    t.tile_b = std::min(g.extent_b, floor_pow2(step_bytes / (t.tile_a * e)));
  t.group = static_cast<int>(std::clamp<std::int64_t>(step_bytes / (t.tile_a * t.tile_b * e), 1, kPermuteMaxGroup));
  finish_tiling(t, g, alignment);
  // Narrow rows padded can outgrow the shared memory: take fewer tiles a step, then shorter ones
  // (powers of two, which stay whole store units).
  while (t.shared_bytes() > kPermuteMaxSharedBytes) {
    if (t.group > 1) {
      t.group /= 2;
    } else {
      const std::int64_t shorter = floor_pow2(t.tile_b) / 2;
      if (shorter < t.out_unit / e) break;
      t.tile_b = shorter;
    }
    finish_tiling(t, g, alignment);
  }
  t.wide_index = t.tiles >= (std::int64_t{1} << 31);
  return t;
}

}  // namespace xpose::core
