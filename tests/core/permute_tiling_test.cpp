// The GPU tile kernel's shapes for permutation slices: every choice is valid for its geometry and
// the pointers' alignment (accesses that divide the rows and respect the alignment, tiles inside
// the slices, shared memory within the kernel's budget), and a few shapes by hand.
#include <gtest/gtest.h>

#include <string>

#include "../permute_cases.hpp"
#include "core/permute_shape.hpp"
#include "core/permute_tiling.hpp"

namespace {

using xpose::DType;
using xpose::PermuteDesc;
using xpose::core::PermuteGeometry;
using xpose::core::PermuteTiling;

PermuteGeometry slices_of(const PermuteDesc& d) {
  return xpose::core::permute_geometry(xpose::core::normalise_permute(d));
}

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

void expect_valid(const PermuteGeometry& g, int alignment, const std::string& what) {
  const PermuteTiling t = xpose::core::choose_permute_tiling(g, alignment);
  const int e = g.esize;
  SCOPED_TRACE(what + ", alignment " + std::to_string(alignment));
  if (t.element_tile != 0) {  // square tiles of single elements: large slices of 4 bytes or more
    EXPECT_GE(e, 4);
    EXPECT_GE(std::min(g.extent_a, g.extent_b), 64);
    EXPECT_EQ(t.element_tile, e == 16 ? 32 : 64);
    EXPECT_EQ(t.tiles, ((g.extent_a + t.element_tile - 1) / t.element_tile) *
                           ((g.extent_b + t.element_tile - 1) / t.element_tile) * g.slices);
    return;
  }
  for (int unit : {t.in_unit, t.out_unit}) {
    EXPECT_TRUE(power_of_two(unit) && unit >= e && unit <= 16) << unit;
    EXPECT_TRUE(unit == e || unit <= alignment) << unit << " wider than an element needs the alignment";
  }
  EXPECT_EQ((t.in_span ? g.extent_a * g.extent_b : g.extent_a) * e % t.in_unit, 0);
  EXPECT_EQ((t.out_span ? g.extent_a * g.extent_b : g.extent_b) * e % t.out_unit, 0);
  EXPECT_GE(t.tile_a, 1);
  EXPECT_LE(t.tile_a, g.extent_a);
  EXPECT_GE(t.tile_b, 1);
  EXPECT_LE(t.tile_b, g.extent_b);
  EXPECT_TRUE(power_of_two(t.lanes_b));
  if (!t.out_span) EXPECT_EQ(t.tile_b * e / t.out_unit % t.lanes_b, 0);
  EXPECT_GE(t.group, 1);
  EXPECT_LE(t.group, xpose::core::kPermuteMaxGroup);
  EXPECT_LE(t.group, t.tiles);
  EXPECT_GE(t.pitch, t.tile_a * e);
  if (t.in_span) {
    EXPECT_EQ(t.pitch, t.tile_a * e) << "an input span's units run across rows";
    EXPECT_EQ(t.tile_a, g.extent_a);
    EXPECT_EQ(g.in_stride_b, g.extent_a);
  } else {
    EXPECT_EQ(t.pitch % std::max(4, e), 0) << "shared rows aligned for word stores and element reads";
  }
  if (t.out_span) {
    EXPECT_EQ(t.tile_b, g.extent_b);
    EXPECT_EQ(g.out_stride_a, g.extent_b);
  }
  // Units divide every tile's share of a span (whole tiles and the last, cut short).
  const std::int64_t in_span_elements = t.in_span ? t.tile_a * t.tile_b : t.tile_a;
  const std::int64_t out_span_elements = t.out_span ? t.tile_a * t.tile_b : t.tile_b;
  EXPECT_EQ(in_span_elements * e % t.in_unit, 0);
  EXPECT_EQ(out_span_elements * e % t.out_unit, 0);
  EXPECT_EQ(t.tile_stride % 16, 0);
  EXPECT_GE(t.tile_stride, t.tile_b * t.pitch);
  EXPECT_LE(t.shared_bytes(), xpose::core::kPermuteMaxSharedBytes);
  EXPECT_LE(t.group * t.tile_a * t.tile_b * e,
            xpose::core::kPermuteTileThreads * xpose::core::permute_units_in_flight(t.in_unit) * t.in_unit)
      << "a step's loads fit one round of accesses in flight";
  EXPECT_EQ(t.tiles_a, (g.extent_a + t.tile_a - 1) / t.tile_a);
  EXPECT_EQ(t.tiles_b, (g.extent_b + t.tile_b - 1) / t.tile_b);
  EXPECT_EQ(t.tiles, t.tiles_a * t.tiles_b * g.slices);
}

TEST(PermuteTiling, ValidForEveryCaseElementSizeAndAlignment) {
  for (DType t : {DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128}) {
    std::vector<PermuteDesc> cases = xpose_test::routed_permutes(t);
    const std::vector<PermuteDesc> random = xpose_test::random_permutes(t, 7, 200);
    cases.insert(cases.end(), random.begin(), random.end());
    cases.push_back({t, {3, 100000, 2}, {0, 2, 1}});  // rows of 2, long columns: the shared budget binds
    cases.push_back({t, {5, 2, 100000}, {0, 2, 1}});
    for (const PermuteDesc& d : cases) {
      const PermuteGeometry g = slices_of(d);
      if (g.same_inner) continue;
      for (int alignment : {1, 2, 4, 8, 16})
        if (alignment >= std::min<int>(xpose::dtype_size(t), 8))
          expect_valid(g, alignment, xpose_test::describe(d));
    }
  }
}

TEST(PermuteTiling, LargeSlicesOfWideElementsTakeElementTiles) {
  const PermuteTiling f32 = xpose::core::choose_permute_tiling(slices_of({DType::f32, {256, 8, 256}, {2, 1, 0}}), 16);
  EXPECT_EQ(f32.element_tile, 64);
  const PermuteTiling c128 = xpose::core::choose_permute_tiling(slices_of({DType::c128, {64, 8, 64}, {2, 1, 0}}), 16);
  EXPECT_EQ(c128.element_tile, 32);
  // One side under 64: vector tiles.
  const PermuteTiling narrow = xpose::core::choose_permute_tiling(slices_of({DType::f32, {256, 8, 63}, {2, 1, 0}}), 16);
  EXPECT_EQ(narrow.element_tile, 0);
}

TEST(PermuteTiling, SquareSlicesTakeSquareTilesOfVectors) {
  // f32 slices of 48 x 48: 16-byte accesses both ways, 48 x 48 tiles, one a step.
  const PermuteTiling f32 = xpose::core::choose_permute_tiling(slices_of({DType::f32, {48, 8, 48}, {2, 1, 0}}), 16);
  EXPECT_EQ(f32.element_tile, 0);
  EXPECT_EQ(f32.tile_a, 48);
  EXPECT_EQ(f32.tile_b, 48);
  EXPECT_EQ(f32.in_unit, 16);
  EXPECT_EQ(f32.out_unit, 16);
  EXPECT_EQ(f32.group, 1);
  EXPECT_EQ(f32.lanes_b, 2) << "two 16-byte stores fill a sector";
  // u8: 128 x 128 tiles (16 KiB); on pointers aligned to 4 bytes, 4-byte accesses.
  const PermuteGeometry u8 = slices_of({DType::u8, {512, 4, 512}, {2, 1, 0}});
  const PermuteTiling u8_16 = xpose::core::choose_permute_tiling(u8, 16);
  EXPECT_EQ(u8_16.tile_a, 128);
  EXPECT_EQ(u8_16.tile_b, 128);
  EXPECT_EQ(u8_16.in_unit, 16);
  const PermuteTiling u8_4 = xpose::core::choose_permute_tiling(u8, 4);
  EXPECT_EQ(u8_4.in_unit, 4);
  EXPECT_EQ(u8_4.out_unit, 4);
}

TEST(PermuteTiling, NarrowSlicesGoManyToAStepAsSpans) {
  // Pixel shuffle (r = 2, width 70): slices of 70 x 2, whole slices as tiles, 29 of 560 bytes a
  // step. Input rows of 280 bytes take 8-byte loads; the output rows of 8 bytes lie back to back,
  // so each tile's output is one span of 560 bytes, stored 16 bytes at a time.
  const PermuteGeometry g = slices_of({DType::f32, {2, 3, 2, 2, 40, 70}, {0, 1, 4, 2, 5, 3}});
  ASSERT_FALSE(g.same_inner);
  const PermuteTiling t = xpose::core::choose_permute_tiling(g, 16);
  EXPECT_EQ(t.tile_a, 70);
  EXPECT_EQ(t.tile_b, 2);
  EXPECT_EQ(t.in_unit, 8);
  EXPECT_FALSE(t.in_span);
  EXPECT_EQ(t.out_unit, 16);
  EXPECT_TRUE(t.out_span);
  EXPECT_EQ(t.group, 29);
  // Its inverse: input rows of 2 elements back to back, one input span per tile.
  const PermuteTiling inverse =
      xpose::core::choose_permute_tiling(slices_of({DType::f32, {2, 3, 40, 2, 70, 2}, {0, 1, 3, 5, 2, 4}}), 16);
  EXPECT_EQ(inverse.tile_a, 2);
  EXPECT_TRUE(inverse.in_span);
  EXPECT_EQ(inverse.in_unit, 16);
  EXPECT_EQ(inverse.pitch, 8);
  // No span where the pointers allow no wider access than the rows already take.
  const PermuteTiling narrow = xpose::core::choose_permute_tiling(g, 8);
  EXPECT_FALSE(narrow.out_span);
  EXPECT_EQ(narrow.out_unit, 8);
}

TEST(PermuteTiling, PitchHasNoMoreBankConflictsThanUnpadded) {
  for (DType type : {DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128}) {
    const PermuteGeometry g = slices_of({type, {40, 6, 300}, {2, 1, 0}});
    const PermuteTiling t = xpose::core::choose_permute_tiling(g, 16);
    PermuteTiling unpadded = t;
    const int step = std::max(4, g.esize);
    unpadded.pitch = static_cast<int>((t.tile_a * g.esize + step - 1) / step * step);
    unpadded.tile_stride = static_cast<int>((t.tile_b * unpadded.pitch + 15) / 16 * 16);
    EXPECT_LE(xpose::core::permute_tile_bank_cost(t, g.esize), xpose::core::permute_tile_bank_cost(unpadded, g.esize))
        << xpose::dtype_name(type);
  }
  // 32 x 128 f32 tiles (slices of 32 x 200): a pitch of 528 bytes (132 words) lets the two b-units
  // of each store pair read from opposite halves of the banks, conflict-free, and keeps 16-byte
  // units whole in shared memory: 4 wavefronts to store a warp's units, 4 to gather them; per
  // KiB, 8 + 8.
  PermuteTiling f32 = xpose::core::choose_permute_tiling(slices_of({DType::f32, {32, 8, 200}, {2, 1, 0}}), 16);
  ASSERT_EQ(f32.element_tile, 0);
  EXPECT_EQ(f32.tile_b, 32);
  EXPECT_EQ(f32.tile_a, 128);
  EXPECT_EQ(f32.pitch, 528);
  EXPECT_DOUBLE_EQ(xpose::core::permute_tile_bank_cost(f32, 4), 16.0);
}

}  // namespace
