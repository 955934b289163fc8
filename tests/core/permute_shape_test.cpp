// The reduction of permutations (dropped and merged dimensions), their routes and the general
// kernels' geometry, by hand; and the refusals of bad descriptors.
#include <gtest/gtest.h>

#include <vector>

#include "core/permute_shape.hpp"

namespace {

using xpose::DType;
using xpose::PermuteDesc;
using xpose::PermuteRoute;
using xpose::core::normalise_permute;
using xpose::core::PermuteShape;

std::vector<std::int64_t> extents_of(const PermuteShape& s) { return {s.extents, s.extents + s.rank}; }
std::vector<int> perm_of(const PermuteShape& s) { return {s.perm, s.perm + s.rank}; }

TEST(PermuteShape, MergesDimensionsThatStayTogether) {
  const PermuteShape s = normalise_permute({DType::f32, {2, 3, 4, 5}, {0, 2, 3, 1}});  // NCHW -> NHWC
  EXPECT_EQ(extents_of(s), (std::vector<std::int64_t>{2, 3, 20}));
  EXPECT_EQ(perm_of(s), (std::vector<int>{0, 2, 1}));
  const PermuteShape t = normalise_permute({DType::f32, {2, 3, 4, 5}, {2, 3, 0, 1}});
  EXPECT_EQ(extents_of(t), (std::vector<std::int64_t>{6, 20}));
  EXPECT_EQ(perm_of(t), (std::vector<int>{1, 0}));
}

TEST(PermuteShape, DropsExtentsOfOne) {
  const PermuteShape s = normalise_permute({DType::u8, {1, 5, 1, 7}, {3, 2, 1, 0}});
  EXPECT_EQ(extents_of(s), (std::vector<std::int64_t>{5, 7}));
  EXPECT_EQ(perm_of(s), (std::vector<int>{1, 0}));
  const PermuteShape ones = normalise_permute({DType::u8, {1, 1, 1}, {2, 0, 1}});
  EXPECT_EQ(extents_of(ones), (std::vector<std::int64_t>{1}));
  // Dropping the 1 leaves 3 and 4 adjacent and in order: one dimension.
  const PermuteShape joined = normalise_permute({DType::u8, {3, 1, 4}, {0, 2, 1}});
  EXPECT_EQ(extents_of(joined), (std::vector<std::int64_t>{12}));
}

TEST(PermuteShape, IdentityIsOneDimension) {
  const PermuteShape s = normalise_permute({DType::f64, {2, 3, 4}, {0, 1, 2}});
  EXPECT_EQ(extents_of(s), (std::vector<std::int64_t>{24}));
  EXPECT_EQ(xpose::core::route_permute(s, 16).route, PermuteRoute::copy);
}

TEST(PermuteShape, KeepsWhatCannotMerge) {
  const PermuteShape s = normalise_permute({DType::f32, {2, 3, 4}, {2, 1, 0}});
  EXPECT_EQ(extents_of(s), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(perm_of(s), (std::vector<int>{2, 1, 0}));
  const PermuteShape t = normalise_permute({DType::f32, {2, 3, 4, 5, 6}, {3, 4, 0, 2, 1}});
  EXPECT_EQ(extents_of(t), (std::vector<std::int64_t>{2, 3, 4, 30}));
  EXPECT_EQ(perm_of(t), (std::vector<int>{3, 0, 2, 1}));
}

TEST(PermuteRoute, BatchedTransposeOfTheMiddleDimensions) {
  const auto r = xpose::core::route_permute(normalise_permute({DType::bf16, {8, 3, 4, 5}, {0, 2, 3, 1}}), 16);
  ASSERT_EQ(r.route, PermuteRoute::transpose);
  EXPECT_EQ(r.transpose.dtype, DType::bf16);
  EXPECT_EQ(r.transpose.batch, 8);
  EXPECT_EQ(r.transpose.rows, 3);
  EXPECT_EQ(r.transpose.cols, 20);
}

TEST(PermuteRoute, InnermostDimensionRidesInWiderElements) {
  // [B, H, S, 4] -> [B, S, H, 4] of bf16: a transpose of 8-byte elements where the pointers allow.
  const PermuteShape s = normalise_permute({DType::bf16, {2, 12, 77, 4}, {0, 2, 1, 3}});
  const auto wide = xpose::core::route_permute(s, 16);
  ASSERT_EQ(wide.route, PermuteRoute::transpose);
  EXPECT_EQ(wide.transpose.dtype, DType::i64);
  EXPECT_EQ(wide.transpose.batch, 2);
  EXPECT_EQ(wide.transpose.rows, 12);
  EXPECT_EQ(wide.transpose.cols, 77);
  EXPECT_EQ(xpose::core::route_permute(s, 4).route, PermuteRoute::general);  // 4-byte pointers: not as i64
  // 64 bf16 are 128 bytes: no element that wide, so the general kernels' runs.
  const PermuteShape big = normalise_permute({DType::bf16, {2, 12, 77, 64}, {0, 2, 1, 3}});
  EXPECT_EQ(xpose::core::route_permute(big, 16).route, PermuteRoute::general);
  // 3 f32 are 12 bytes: no element of that size either.
  const PermuteShape odd = normalise_permute({DType::f32, {5, 7, 3}, {1, 0, 2}});
  EXPECT_EQ(xpose::core::route_permute(odd, 16).route, PermuteRoute::general);
}

TEST(PermuteGeometry, SlicesOfTheTwoInnermostDimensions) {
  // [2, 3, 4] -> [4, 3, 2]: slices of input dim 2 (a, 4) against input dim 0 (b, 2), sliced by dim 1.
  const auto g = xpose::core::permute_geometry(normalise_permute({DType::f32, {2, 3, 4}, {2, 1, 0}}));
  EXPECT_FALSE(g.same_inner);
  EXPECT_EQ(g.extent_a, 4);
  EXPECT_EQ(g.extent_b, 2);
  EXPECT_EQ(g.in_stride_b, 12);
  EXPECT_EQ(g.out_stride_a, 6);
  ASSERT_EQ(g.slice_dims, 1);
  EXPECT_EQ(g.slice_extent[0], 3);
  EXPECT_EQ(g.slice_in_stride[0], 4);
  EXPECT_EQ(g.slice_out_stride[0], 2);
  EXPECT_EQ(g.slices, 3);
}

TEST(PermuteGeometry, RunsThatStayInnermostWidenWithTheAlignment) {
  // [2, 3, 5, 8] -> [5, 3, 2, 8] of bf16: runs of 16 bytes, 30 of them.
  const auto g = xpose::core::permute_geometry(normalise_permute({DType::bf16, {2, 3, 5, 8}, {2, 1, 0, 3}}));
  ASSERT_TRUE(g.same_inner);
  EXPECT_EQ(g.extent_a, 8);
  EXPECT_EQ(g.slices, 30);
  const auto w = xpose::core::widen_runs(g, 16);
  EXPECT_EQ(w.esize, 16);
  EXPECT_EQ(w.extent_a, 1);
  for (int i = 0; i < g.slice_dims; ++i) {
    EXPECT_EQ(w.slice_in_stride[i] * 16, g.slice_in_stride[i] * 2) << i;
    EXPECT_EQ(w.slice_out_stride[i] * 16, g.slice_out_stride[i] * 2) << i;
  }
  EXPECT_EQ(xpose::core::widen_runs(g, 4).esize, 4);  // the pointers' alignment caps the unit
  EXPECT_EQ(xpose::core::widen_runs(g, 2).esize, 2);
}

TEST(PermuteDescValidation, RefusesBadDescriptors) {
  const std::vector<std::pair<PermuteDesc, const char*>> bad = {
      {{DType::f32, {}, {}}, "1 to 8 dimensions"},
      {{DType::f32, {1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8}}, "1 to 8 dimensions"},
      {{DType::f32, {2, 3}, {0}}, "perm has 1 entries"},
      {{DType::f32, {2, 3}, {1, 1}}, "each dimension"},
      {{DType::f32, {2, 3}, {0, 2}}, "each dimension"},
      {{DType::f32, {2, 3}, {-1, 0}}, "each dimension"},
      {{DType::f32, {2, 0}, {1, 0}}, "extent 1 must be >= 1"},
      {{DType::f32, {std::int64_t{1} << 40, std::int64_t{1} << 30}, {1, 0}}, "overflow"},
  };
  for (const auto& [desc, message] : bad) {
    const xpose::Status s = xpose::core::validate_permute_desc(desc);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(message), std::string::npos) << s.message();
  }
  EXPECT_TRUE(xpose::core::validate_permute_desc({DType::c128, {3, 1, 2}, {1, 2, 0}}).ok());
}

}  // namespace
