// CPU backend: the reference against hand-computed answers, the blocked transpose against the reference.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using namespace xpose_test;

TEST(CpuReference, TransposesTwoByThreeByHand) {
  const float in[6] = {1, 2, 3, 4, 5, 6};  // [[1 2 3] [4 5 6]]
  float out[6] = {-1, -1, -1, -1, -1, -1};
  xpose::TransposeDesc d{DType::f32, 2, 3};
  ASSERT_TRUE(xpose::transpose(d, in, out, nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  const float want[6] = {1, 4, 2, 5, 3, 6};  // [[1 4] [2 5] [3 6]]
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << "element " << i;
}

TEST(CpuReference, HonoursLeadingDimensionsAndBatchStridesByHand) {
  // Two 2x2 matrices, input rows padded to 3, output rows padded to 4, batches 8 and 10 apart.
  const std::int16_t in[16] = {1, 2, 99, 3, 4, 99, 99, 99, 5, 6, 99, 7, 8, 99, 99, 99};
  std::int16_t out[20];
  for (auto& v : out) v = -7;
  xpose::TransposeDesc d{DType::i16, 2, 2, 2, 3, 4, 8, 10};
  ASSERT_TRUE(xpose::transpose(d, in, out, nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  const std::int16_t want[20] = {1, 3, -7, -7, 2, 4, -7, -7, -7, -7, 5, 7, -7, -7, 6, 8, -7, -7, -7, -7};
  for (int i = 0; i < 20; ++i) EXPECT_EQ(out[i], want[i]) << "element " << i;
}

TEST(CpuReference, MovesEveryByteOfSixteenByteElements) {
  std::vector<unsigned char> in = random_bytes(16 * 6, 1);
  std::vector<unsigned char> out(16 * 6, kPoison);
  xpose::TransposeDesc d{DType::c128, 2, 3};
  ASSERT_TRUE(xpose::transpose(d, in.data(), out.data(), nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(0, std::memcmp(&out[16 * (c * 2 + r)], &in[16 * (r * 3 + c)], 16)) << r << "," << c;
}

class CpuBlocked : public ::testing::TestWithParam<DType> {};

std::vector<xpose::TransposeDesc> blocked_cases(DType dtype) {
  std::vector<xpose::TransposeDesc> v;
  for (auto [r, c] : standard_shapes()) v.push_back({dtype, r, c});
  for (auto [r, c] : random_shapes(kRandomShapeSeed, 6)) v.push_back({dtype, r, c});
  v.push_back({dtype, 129, 67, 1, 70, 131, 0, 0});         // leading dimensions
  v.push_back({dtype, 65, 33, 3, 0, 0, 0, 0});             // batched, packed
  v.push_back({dtype, 40, 70, 3, 71, 41, 40 * 71 + 5, 70 * 41 + 9});  // batched with gaps
  v.push_back({dtype, 1100, 1200});                          // big enough to use threads
  return v;
}

TEST_P(CpuBlocked, MatchesReferenceOnEveryShape) {
  const DType dtype = GetParam();
  std::printf("random shapes from seed 0x%llx\n", static_cast<unsigned long long>(kRandomShapeSeed));
  for (const xpose::TransposeDesc& d : blocked_cases(dtype)) {
    const auto in = random_bytes(input_bytes(d), 42);
    const auto want = expected_transpose(d, in);
    std::vector<unsigned char> got(output_bytes(d), kPoison);
    const xpose::Status s =
        xpose::transpose(d, in.data(), got.data(), nullptr, {Backend::cpu, Algorithm::cpu_blocked});
    ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
    EXPECT_EQ(first_mismatch(got, want, xpose::dtype_size(dtype)), -1)
        << describe(d) << "; reproduce: " << repro(d, Algorithm::cpu_blocked, "cpu");
  }
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, CpuBlocked,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const auto& info) { return std::string(xpose::dtype_name(info.param)); });

}  // namespace
