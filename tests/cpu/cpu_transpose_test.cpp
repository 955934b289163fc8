// CPU backend: the reference against hand-computed answers, the blocked transpose against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

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
  // Around the tile edges (16 to 256 elements, by element size) and the 16-byte blocks inside them.
  for (auto [r, c] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {15, 17}, {16, 16}, {17, 15}, {127, 129}, {128, 128}, {129, 127}, {255, 257}, {256, 256}, {257, 255}})
    v.push_back({dtype, r, c});
  v.push_back({dtype, 300, 290, 2, 301, 304, 0, 0});  // output rows 16-byte aligned for every element size
  return v;
}

// Outputs of 16 MiB or more go out through streaming stores where every output row piece of a
// tile can start on a 64-byte line (ld_out 1088 is 17 lines for every element size; a first tile of
// fewer rows brings the pieces onto the lines where the base pointer is off them); with ld_out 1037
// rows are never a whole number of lines apart and plain stores write them. Odd extents throughout.
xpose::TransposeDesc big_case(DType dtype, std::int64_t ld_out) {
  const std::int64_t rows = 1029, esize = static_cast<std::int64_t>(xpose::dtype_size(dtype));
  const std::int64_t cols = (std::int64_t{16} << 20) / (esize * rows) + 3;
  return {dtype, rows, cols, 1, 0, ld_out, 0, 0};
}

void expect_every_shape_matches(DType dtype) {
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

TEST_P(CpuBlocked, MatchesReferenceOnEveryShape) { expect_every_shape_matches(GetParam()); }

// Tiles of elements under 16 bytes take pairs of blocks in AVX2 registers where the CPU has AVX2; the
// 16-byte path that every other x86-64 CPU runs is checked here too, with the pairs switched off.
TEST_P(CpuBlocked, MatchesReferenceOnEveryShapeWithoutAvx2) {
  ASSERT_EQ(setenv("XPOSE_CPU_AVX2", "0", 1), 0);
  expect_every_shape_matches(GetParam());
  unsetenv("XPOSE_CPU_AVX2");
}

// The blocked transpose moves bytes with unaligned loads, and stores that need alignment only where
// it holds: base pointers shifted off the 16-byte grid and off the 64-byte lines (by 1, 3 or 5 times
// the element alignment the library asks for; by 16) change nothing in the result, and no byte outside
// the output's elements is written.
TEST_P(CpuBlocked, MatchesReferenceFromShiftedPointersAndWhenStreaming) {
  const DType dtype = GetParam();
  const std::size_t a = std::min<std::size_t>(xpose::dtype_size(dtype), 8);  // element alignment
  struct Case {
    xpose::TransposeDesc desc;
    std::size_t in_shift, out_shift;
  };
  const std::vector<Case> cases = {
      {{dtype, 257, 255}, a, 3 * a},
      {{dtype, 300, 290, 2, 301, 304, 0, 0}, 3 * a, 16},  // 304 x 4 to 16 bytes: whole lines apart
      {big_case(dtype, 1088), 0, 0},
      {big_case(dtype, 1088), 0, 16},
      {big_case(dtype, 1088), 5 * a, a},  // c128: 8 bytes off the lines, no lead fits, plain stores
      {big_case(dtype, 1037), 3 * a, 0},
      // Input rows and matrices whole lines apart (320 elements): the tiles' columns start with a
      // lead that brings the later ones onto the input's lines, wider than the matrix in the last.
      {{dtype, 300, 290, 2, 320, 304, 300 * 320, 0}, 5 * a, 16},
      {{dtype, 300, 290, 2, 320, 304, 300 * 320, 0}, 16, 0},
      {{dtype, 70, 3, 1, 320, 0, 0, 0}, 5 * a, 0},
  };
  for (const Case& k : cases) {
    const xpose::TransposeDesc& d = k.desc;
    const auto in = random_bytes(input_bytes(d) + k.in_shift, 7);
    const std::vector<unsigned char> in_payload(in.begin() + static_cast<std::ptrdiff_t>(k.in_shift), in.end());
    const auto want = expected_transpose(d, in_payload);
    std::vector<unsigned char> got(output_bytes(d) + k.out_shift + 16, kPoison);
    const xpose::Status s = xpose::transpose(d, in.data() + k.in_shift, got.data() + k.out_shift, nullptr,
                                             {Backend::cpu, Algorithm::cpu_blocked});
    ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
    const std::vector<unsigned char> got_payload(got.begin() + static_cast<std::ptrdiff_t>(k.out_shift),
                                                 got.end() - 16);
    EXPECT_EQ(first_mismatch(got_payload, want, xpose::dtype_size(dtype)), -1)
        << describe(d) << " shifted by " << k.in_shift << " / " << k.out_shift << " bytes";
    for (std::size_t i = 0; i < k.out_shift; ++i) ASSERT_EQ(got[i], kPoison) << "byte " << i << " before the output";
    for (std::size_t i = got.size() - 16; i < got.size(); ++i)
      ASSERT_EQ(got[i], kPoison) << "byte " << i << " after the output";
  }
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, CpuBlocked,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const auto& info) { return std::string(xpose::dtype_name(info.param)); });

}  // namespace
