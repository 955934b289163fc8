// In-place transposes on the CPU: the oracle by hand, the oracle, the blocked tile pairs (square) and
// the row and column shuffles (non-square) against plain loops on every case, and the refusals
// (nothing written).
#include <gtest/gtest.h>

#include "in_place_cases.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::TransposeDesc;
using namespace xpose_test;

TEST(CpuInPlaceReference, ThreeByThreeByHand) {
  std::int32_t m[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(xpose::transpose_in_place({DType::i32, 3, 3}, m, nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  const std::int32_t want[9] = {0, 3, 6, 1, 4, 7, 2, 5, 8};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(m[i], want[i]) << "element " << i;
}

TEST(CpuInPlaceReference, LeavesTheGapsBetweenRowsByHand) {
  // 2 x 2 with rows 3 apart: the third element of each row is not the matrix's.
  std::int16_t m[6] = {1, 2, -1, 3, 4, -2};
  ASSERT_TRUE(xpose::transpose_in_place({DType::i16, 2, 2, 1, 3, 0, 0, 0}, m, nullptr,
                                        {Backend::cpu, Algorithm::cpu_reference})
                  .ok());
  const std::int16_t want[6] = {1, 3, -1, 2, 4, -2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m[i], want[i]) << "element " << i;
}

TEST(CpuInPlaceReference, TwoByThreeByHand) {
  // 2 x 3 becomes 3 x 2 in the same six elements.
  std::int32_t m[6] = {0, 1, 2, 3, 4, 5};
  ASSERT_TRUE(xpose::transpose_in_place({DType::i32, 2, 3}, m, nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  const std::int32_t want[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m[i], want[i]) << "element " << i;
}

class CpuInPlace : public ::testing::TestWithParam<std::tuple<DType, Algorithm>> {};

// Every case from a buffer `shift` bytes into its allocation (which moves the blocked tiles' rows
// off the lines), with the bytes after it poisoned: they must stay so.
TEST_P(CpuInPlace, MatchesPlainLoopsOnEveryCase) {
  const auto [dtype, algorithm] = GetParam();
  const std::size_t a = std::min<std::size_t>(xpose::dtype_size(dtype), 8);
  std::vector<TransposeDesc> cases = in_place_cases(dtype);
  for (const TransposeDesc& d : in_place_non_square_cases(dtype)) cases.push_back(d);
  cases.push_back({dtype, 4000, 8});                     // tall, blocks of 8 (square_blocks_fit)
  cases.push_back({dtype, 4000, 8, 2, 0, 0, 32005, 0});  // the same in a batch with a gap
  for (const TransposeDesc& d : cases) {
    for (const std::size_t shift : {std::size_t{0}, a}) {
      const std::size_t bytes = input_bytes(d);
      const std::vector<unsigned char> data = random_values(dtype, bytes, 0x1a + bytes);
      const std::vector<unsigned char> want = expected_in_place(d, data);
      std::vector<unsigned char> buf(shift + bytes + 64, kPoison);
      std::copy(data.begin(), data.end(), buf.begin() + static_cast<std::ptrdiff_t>(shift));
      const xpose::Status s = xpose::transpose_in_place(d, buf.data() + shift, nullptr, {Backend::cpu, algorithm});
      ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
      const std::vector<unsigned char> got(buf.begin() + static_cast<std::ptrdiff_t>(shift),
                                           buf.begin() + static_cast<std::ptrdiff_t>(shift + bytes));
      EXPECT_EQ(first_mismatch(got, want, xpose::dtype_size(dtype)), -1)
          << describe(d) << " shifted by " << shift << " (" << xpose::algorithm_name(algorithm) << ")";
      for (std::size_t i = 0; i < shift; ++i) ASSERT_EQ(buf[i], kPoison) << "byte " << i << " before the data";
      for (std::size_t i = shift + bytes; i < buf.size(); ++i)
        ASSERT_EQ(buf[i], kPoison) << "byte " << i << " after the data";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    ElementSizes, CpuInPlace,
    ::testing::Combine(::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                       ::testing::Values(Algorithm::automatic, Algorithm::cpu_reference)),
    [](const auto& info) {
      return std::string(xpose::dtype_name(std::get<0>(info.param))) + "_" +
             (std::get<1>(info.param) == Algorithm::automatic ? "blocked" : "reference");
    });

TEST(CpuInPlace, PlanNamesTheTilePairs) {
  xpose::InPlacePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 100, 100}, {Backend::cpu}).ok());
  EXPECT_EQ(plan.to_string(), "in_place<32x32 tile pairs> (cpu)");
  EXPECT_EQ(plan.desc().ld_out, 100);
  EXPECT_EQ(plan.backend(), Backend::cpu);
}

TEST(CpuInPlace, PlanNamesTheWayNonSquareMatricesGo) {
  xpose::InPlacePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 100, 30}, {Backend::cpu}).ok());
  EXPECT_EQ(plan.to_string(), "in_place<row and column shuffles> (cpu)");
  EXPECT_EQ(plan.desc().ld_in, 30);
  EXPECT_EQ(plan.desc().ld_out, 100);  // 30 x 100, packed
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 100, 30}, {Backend::cpu, Algorithm::cpu_reference}).ok());
  EXPECT_EQ(plan.to_string(), "in_place<cpu_reference copy> (cpu)");
  // Sides sharing a factor of 32 elements or 256 bytes or more take square blocks and pieces; less,
  // the shuffles. Tall matrices (the columns divide the rows) take them from blocks of 8; wide ones not.
  const struct {
    TransposeDesc desc;
    const char* plan;
  } ways[] = {
      {{DType::u8, 600, 900}, "in_place<300x300 blocks, then pieces> (cpu)"},
      {{DType::f32, 64, 96}, "in_place<32x32 blocks, then pieces> (cpu)"},
      {{DType::c128, 32, 48}, "in_place<16x16 blocks, then pieces> (cpu)"},
      {{DType::f64, 32, 48}, "in_place<row and column shuffles> (cpu)"},
      {{DType::u8, 4000, 8}, "in_place<8x8 blocks, then pieces> (cpu)"},
      {{DType::u8, 8, 4000}, "in_place<row and column shuffles> (cpu)"},
      {{DType::u8, 4000, 4}, "in_place<row and column shuffles> (cpu)"},
  };
  for (const auto& w : ways) {
    ASSERT_TRUE(xpose::make_plan(plan, w.desc, {Backend::cpu}).ok()) << describe(w.desc);
    EXPECT_EQ(plan.to_string(), w.plan);
  }
}

// Each refusal returns its message and leaves the data as it was.
TEST(CpuInPlace, RefusesBadInputAndWritesNothing) {
  std::vector<std::int32_t> m(64 * 64);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<std::int32_t>(i * 2654435761u);
  const std::vector<std::int32_t> before = m;
  struct Bad {
    TransposeDesc desc;
    xpose::PlanOptions options;
    const char* says;
  };
  const std::vector<Bad> bad = {
      {{DType::i32, 32, 16, 1, 20, 0, 0, 0}, {Backend::cpu}, "non-square matrix needs packed rows (ld_in 20"},
      {{DType::i32, 32, 16, 1, 0, 40, 0, 0}, {Backend::cpu}, "ld_out (40) must be 0 or 32, the output's packed rows"},
      {{DType::i32, 32, 32, 1, 64, 40, 0, 0}, {Backend::cpu}, "ld_out (40) must be 0 or ld_in (64)"},
      {{DType::i32, 16, 16, 2, 0, 0, 256, 300}, {Backend::cpu}, "batch_stride_out (300) must be 0 or batch_stride_in"},
      {{DType::i32, 16, 16, 2, 0, 0, 100, 0}, {Backend::cpu}, "batches would overlap"},
      {{DType::i32, 16, 16, 1, 8, 0, 0, 0}, {Backend::cpu}, "ld_in (8) must be >= cols"},
      {{DType::i32, 0, 0}, {Backend::cpu}, "rows must be >= 1"},
      {{DType::i32, 16, 16}, {Backend::cpu, Algorithm::tiled_vec}, "automatic algorithm or cpu_reference"},
      {{DType::i32, 16, 16}, {Backend::cuda, Algorithm::cpu_reference}, "does not run on the cuda backend"},
      {{DType::i32, 16, 16}, {Backend::cpu, Algorithm::automatic, 3}, "power of two"},
  };
  for (const Bad& b : bad) {
    const xpose::Status s = xpose::transpose_in_place(b.desc, m.data(), nullptr, b.options);
    EXPECT_FALSE(s.ok()) << b.says;
    EXPECT_NE(s.message().find(b.says), std::string::npos) << s.message();
  }
  EXPECT_FALSE(xpose::transpose_in_place({DType::i32, 4, 4}, nullptr, nullptr, {Backend::cpu}).ok());
  const xpose::Status odd = xpose::transpose_in_place(
      {DType::i32, 4, 4}, reinterpret_cast<unsigned char*>(m.data()) + 2, nullptr, {Backend::cpu});
  EXPECT_NE(odd.message().find("aligned to 4 bytes"), std::string::npos) << odd.message();
  xpose::InPlacePlan empty;
  EXPECT_NE(xpose::execute(empty, m.data()).message().find("plan is empty"), std::string::npos);
  EXPECT_EQ(m, before);
}

}  // namespace
