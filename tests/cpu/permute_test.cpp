// Permutations on the CPU: the oracle by hand, every route and random permutations against it, and
// the refusals (nothing written).
#include <gtest/gtest.h>

#include "permute_cases.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::PermuteDesc;
using xpose::PermuteRoute;
using namespace xpose_test;

constexpr std::size_t kGuard = 64;  // poisoned bytes after each output, which must stay poisoned

TEST(CpuPermuteReference, ThreeDimensionsByHand) {
  // in[2][3][2] = 0..11; out = in with dims (2, 0, 1): out[k][i][j] = in[i][j][k], shape [2][2][3].
  std::int32_t in[12];
  for (int i = 0; i < 12; ++i) in[i] = i;
  std::int32_t out[12];
  for (auto& v : out) v = -1;
  const PermuteDesc d{DType::i32, {2, 3, 2}, {2, 0, 1}};
  ASSERT_TRUE(xpose::permute(d, in, out, nullptr, {Backend::cpu, Algorithm::cpu_reference}).ok());
  const std::int32_t want[12] = {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], want[i]) << "element " << i;
}

// Runs `d` on the CPU backend from buffers `shift` bytes into their allocations and compares every
// byte with the oracle, and the guard after the output with the poison.
void expect_cpu_matches_reference(const PermuteDesc& d, std::size_t shift) {
  const std::size_t bytes = permute_bytes(d);
  std::vector<unsigned char> in_buf(bytes + shift), out_buf(bytes + shift + kGuard, kPoison);
  const std::vector<unsigned char> input = random_values(d.dtype, bytes, 0x77 + bytes);
  std::copy(input.begin(), input.end(), in_buf.begin() + static_cast<std::ptrdiff_t>(shift));
  const xpose::Status s = xpose::permute(d, in_buf.data() + shift, out_buf.data() + shift, nullptr, {Backend::cpu});
  ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
  const std::vector<unsigned char> want = expected_permute(d, input);
  const std::vector<unsigned char> got(out_buf.begin() + static_cast<std::ptrdiff_t>(shift),
                                       out_buf.begin() + static_cast<std::ptrdiff_t>(shift + bytes));
  EXPECT_EQ(first_mismatch(got, want, xpose::dtype_size(d.dtype)), -1) << describe(d) << " shifted by " << shift;
  for (std::size_t i = shift + bytes; i < out_buf.size(); ++i)
    ASSERT_EQ(out_buf[i], kPoison) << describe(d) << ": byte " << i - shift - bytes << " past the output written";
}

class CpuPermute : public ::testing::TestWithParam<DType> {};

TEST_P(CpuPermute, EveryRouteMatchesTheReference) {
  for (const PermuteDesc& d : routed_permutes(GetParam())) {
    ASSERT_NO_FATAL_FAILURE(expect_cpu_matches_reference(d, 0));
    // Shifted by one element: wider elements need more alignment than that, so routes change.
    const std::size_t one_element = std::min<std::size_t>(xpose::dtype_size(GetParam()), 8);
    ASSERT_NO_FATAL_FAILURE(expect_cpu_matches_reference(d, one_element));
  }
}

TEST_P(CpuPermute, RandomPermutationsMatchTheReference) {
  for (const PermuteDesc& d : random_permutes(GetParam(), kRandomPermuteSeed, 120))
    ASSERT_NO_FATAL_FAILURE(expect_cpu_matches_reference(d, 0)) << "seed " << kRandomPermuteSeed;
}

TEST_P(CpuPermute, TakesTheRouteItsShapeAllows) {
  const DType t = GetParam();
  const std::size_t e = xpose::dtype_size(t);
  const auto route_of = [&](const PermuteDesc& d, int alignment = 0) {
    xpose::PermutePlan plan;
    const xpose::Status s = xpose::make_plan(plan, d, {Backend::cpu, Algorithm::automatic, alignment});
    EXPECT_TRUE(s.ok()) << s.message();
    return s.ok() ? plan.route() : PermuteRoute::general;
  };
  EXPECT_EQ(route_of({t, {2, 3, 4}, {0, 1, 2}}), PermuteRoute::copy);
  EXPECT_EQ(route_of({t, {1, 5, 1, 7}, {3, 2, 1, 0}}), PermuteRoute::transpose);
  EXPECT_EQ(route_of({t, {2, 3, 4, 5}, {0, 2, 3, 1}}), PermuteRoute::transpose);
  EXPECT_EQ(route_of({t, {2, 5, 77, 4}, {0, 2, 1, 3}}), 4 * e <= 16 ? PermuteRoute::transpose : PermuteRoute::general);
  // Pointers aligned to one element only: a 4-element row needs more, so the general kernels run it.
  EXPECT_EQ(route_of({t, {2, 5, 77, 4}, {0, 2, 1, 3}}, static_cast<int>(e)), PermuteRoute::general);
  EXPECT_EQ(route_of({t, {37, 41, 43}, {2, 1, 0}}), PermuteRoute::general);
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, CpuPermute,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128));

TEST(CpuPermutePlan, PrintsTheReducedShapeAndRoute) {
  xpose::PermutePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, {8, 1, 16, 32}, {0, 3, 1, 2}}, {Backend::cpu}).ok());
  EXPECT_EQ(plan.to_string(), "permute[8x16x32 perm 0,2,1] transpose: cpu_blocked<32x32> (cpu)");
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, {2, 3, 4}, {2, 1, 0}}, {Backend::cpu}).ok());
  EXPECT_EQ(plan.to_string(), "permute[2x3x4 perm 2,1,0] general<slices 2x4, 3 slices> (cpu)");
  EXPECT_EQ(plan.bytes(), 96);
}

TEST(CpuPermuteRefused, BadInputWritesNothing) {
  std::vector<unsigned char> in = random_bytes(4096, 3), out(4096, kPoison);
  const auto refuse = [&](const PermuteDesc& d, const void* i, void* o, const xpose::PlanOptions& opt,
                          xpose::StatusCode code, const char* message) {
    const xpose::Status s = xpose::permute(d, i, o, nullptr, opt);
    EXPECT_EQ(s.code(), code) << describe(d) << ": " << s.message();
    EXPECT_NE(s.message().find(message), std::string::npos) << s.message();
    EXPECT_EQ(out, std::vector<unsigned char>(4096, kPoison)) << describe(d);
  };
  const xpose::PlanOptions cpu{Backend::cpu};
  refuse({DType::f32, {4, 4}, {1, 1}}, in.data(), out.data(), cpu, xpose::StatusCode::invalid_argument, "each dimension");
  refuse({DType::f32, {}, {}}, in.data(), out.data(), cpu, xpose::StatusCode::invalid_argument, "dimensions");
  refuse({DType::f32, {4, 4}, {1, 0}}, nullptr, out.data(), cpu, xpose::StatusCode::invalid_argument, "null");
  refuse({DType::f32, {4, 4}, {1, 0}}, in.data(), nullptr, cpu, xpose::StatusCode::invalid_argument, "null");
  refuse({DType::f32, {4, 4}, {1, 0}}, in.data() + 1, out.data(), cpu, xpose::StatusCode::invalid_argument, "aligned");
  refuse({DType::f32, {4, 4}, {1, 0}}, out.data(), out.data() + 32, cpu, xpose::StatusCode::overlap, "overlap");
  refuse({DType::f32, {4, 4}, {1, 0}}, out.data(), out.data(), cpu, xpose::StatusCode::overlap, "same buffer");
  refuse({DType::f32, {4, 4}, {1, 0}}, in.data(), out.data(), {Backend::cpu, Algorithm::tiled_vec},
         xpose::StatusCode::invalid_argument, "automatic algorithm or cpu_reference");
  refuse({DType::f32, {4, 4}, {1, 0}}, in.data(), out.data(), {Backend::cpu, Algorithm::automatic, 3},
         xpose::StatusCode::invalid_argument, "power of two");
  if (xpose::device_count() == 0)
    refuse({DType::f32, {4, 4}, {1, 0}}, in.data(), out.data(), {Backend::cuda}, xpose::StatusCode::no_device, "GPU");
}

// A plan made for 16-byte pointers may move wider elements (here u8 rows of 4 as 4-byte words):
// less aligned pointers are refused with the reason, and a plan made for them runs.
TEST(CpuPermuteRefused, PointersLessAlignedThanThePlan) {
  const PermuteDesc d{DType::u8, {5, 3, 4}, {1, 0, 2}};
  std::vector<unsigned char> in = random_bytes(64, 5), out(64, kPoison);
  xpose::PermutePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cpu}).ok());
  ASSERT_EQ(plan.route(), PermuteRoute::transpose);
  const xpose::Status s = xpose::execute(plan, in.data() + 1, out.data() + 1);
  EXPECT_EQ(s.code(), xpose::StatusCode::invalid_argument) << s.message();
  EXPECT_NE(s.message().find("plan was made for 16"), std::string::npos) << s.message();
  EXPECT_EQ(out, std::vector<unsigned char>(64, kPoison));
  ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cpu, Algorithm::automatic, 1}).ok());
  EXPECT_EQ(plan.route(), PermuteRoute::general);
  ASSERT_TRUE(xpose::execute(plan, in.data() + 1, out.data() + 1).ok());
  const std::vector<unsigned char> input(in.begin() + 1, in.begin() + 61);
  const std::vector<unsigned char> want = expected_permute(d, input);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + 1));
}

TEST(CpuPermuteRefused, EmptyPlan) {
  xpose::PermutePlan plan;
  std::vector<unsigned char> in(64), out(64, kPoison);
  EXPECT_EQ(xpose::execute(plan, in.data(), out.data()).code(), xpose::StatusCode::invalid_argument);
  EXPECT_EQ(plan.to_string(), "<empty plan>");
}

}  // namespace
