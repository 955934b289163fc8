// Permutations on the GPU: every route and random permutations against the CPU oracle, from
// aligned and shifted pointers, and the refusals (nothing written).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/permute_shape.hpp"
#include "core/permute_tiling.hpp"
#include "gpu/gpu_backend.hpp"
#include "gpu_test_support.hpp"
#include "permute_cases.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::PermuteDesc;
using xpose::PermuteRoute;
using namespace xpose_test;

constexpr std::size_t kGuard = 256;  // poisoned bytes after the output, which must stay poisoned

// Runs `d` on the GPU from device buffers `shift` bytes into their allocations (the input ends
// where its allocation does) and compares every byte with the oracle, and the guard with the poison.
// `run` enqueues it and names what ran (default: a plan for the shift's alignment, executed).
using PermuteRunner =
    std::function<xpose::Status(const PermuteDesc&, int alignment, const void*, void*, std::string& what_ran)>;

xpose::Status run_plan(const PermuteDesc& d, int alignment, const void* in, void* out, std::string& what_ran) {
  xpose::PermutePlan plan;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::automatic, alignment}));
  what_ran = plan.to_string();
  return xpose::execute(plan, in, out);
}

void expect_gpu_matches_reference(const PermuteDesc& d, std::size_t shift, const PermuteRunner& run = run_plan) {
  const std::size_t bytes = permute_bytes(d);
  const std::vector<unsigned char> input = random_values(d.dtype, bytes, 0x99 + bytes);
  xpose::DeviceBuffer in, out;
  ASSERT_TRUE(in.allocate(bytes + shift).ok());
  ASSERT_TRUE(out.allocate(bytes + shift + kGuard).ok());
  auto* in_ptr = static_cast<unsigned char*>(in.data()) + shift;
  auto* out_ptr = static_cast<unsigned char*>(out.data()) + shift;
  ASSERT_TRUE(xpose::copy_host_to_device(in_ptr, input.data(), bytes).ok());
  ASSERT_TRUE(xpose::fill_device_bytes(out_ptr, kPoison, bytes + kGuard).ok());
  const int alignment = shift == 0 ? 16 : static_cast<int>(shift & (~shift + 1));
  std::string what_ran;
  const xpose::Status s = run(d, alignment, in_ptr, out_ptr, what_ran);
  ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
  ASSERT_TRUE(xpose::synchronize_device().ok()) << describe(d) << ": " << what_ran;
  std::vector<unsigned char> got(bytes + kGuard);
  ASSERT_TRUE(xpose::copy_device_to_host(got.data(), out_ptr, bytes + kGuard).ok());
  const std::vector<unsigned char> want = expected_permute(d, input);
  const std::vector<unsigned char> result(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(bytes));
  EXPECT_EQ(first_mismatch(result, want, xpose::dtype_size(d.dtype)), -1)
      << describe(d) << " shifted by " << shift << ": " << what_ran;
  for (std::size_t i = bytes; i < got.size(); ++i)
    ASSERT_EQ(got[i], kPoison) << describe(d) << ": byte " << i - bytes << " past the output written; " << what_ran;
}

class GpuPermute : public ::testing::TestWithParam<DType> {};

TEST_P(GpuPermute, EveryRouteMatchesTheReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const std::size_t one_element = std::min<std::size_t>(xpose::dtype_size(GetParam()), 8);
  for (const PermuteDesc& d : routed_permutes(GetParam()))
    for (std::size_t shift : {std::size_t{0}, one_element, std::size_t{8}})
      ASSERT_NO_FATAL_FAILURE(expect_gpu_matches_reference(d, shift));
}

TEST_P(GpuPermute, RandomPermutationsMatchTheReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  for (const PermuteDesc& d : random_permutes(GetParam(), kRandomPermuteSeed + 1, 120))
    ASSERT_NO_FATAL_FAILURE(expect_gpu_matches_reference(d, 0)) << "seed " << kRandomPermuteSeed + 1;
}

TEST_P(GpuPermute, LargeSlicesAndLongRuns) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  // Slices of a thousand tiles that end mid-tile, slices whose last tile ends inside a group of
  // four output rows (u8: 16-byte stores gathered as words), runs of 4100 elements gathered 50 to
  // an output span, a transpose once merged, and rank 8.
  for (const PermuteDesc& d : {PermuteDesc{t, {1100, 3, 1050}, {2, 1, 0}}, PermuteDesc{t, {64, 3, 1002}, {2, 1, 0}},
                               PermuteDesc{t, {3, 50, 4100}, {1, 0, 2}},
                               PermuteDesc{t, {33, 17, 2049}, {2, 0, 1}},
                               PermuteDesc{t, {2, 3, 4, 5, 6, 7, 8, 9}, {7, 1, 5, 3, 6, 0, 4, 2}}})
    ASSERT_NO_FATAL_FAILURE(expect_gpu_matches_reference(d, 0));
}

// Tile numbers of 2^31 and more are decoded by 64-bit divisions; no tensor that reaches them fits a
// test, so the same slices run with that decoding forced.
TEST_P(GpuPermute, TileNumbersDecodedWide) {
  XPOSE_SKIP_WITHOUT_GPU();
  const PermuteRunner wide = [](const PermuteDesc& d, int alignment, const void* in, void* out,
                                std::string& what_ran) {
    const xpose::core::PermuteGeometry g = xpose::core::permute_geometry(xpose::core::normalise_permute(d));
    if (g.same_inner) return xpose::Status(xpose::StatusCode::internal, "expected slices");
    xpose::core::PermuteTiling t = xpose::core::choose_permute_tiling(g, alignment);
    t.wide_index = true;
    what_ran = "vector tiles, tile numbers decoded wide";
    return xpose::gpu::launch_permute(g, t, in, out, nullptr);
  };
  const DType t = GetParam();
  for (const PermuteDesc& d : {PermuteDesc{t, {37, 41, 43}, {2, 1, 0}}, PermuteDesc{t, {3, 5, 7, 11, 13}, {4, 2, 0, 3, 1}},
                               PermuteDesc{t, {2, 3, 2, 2, 40, 70}, {0, 1, 4, 2, 5, 3}},
                               PermuteDesc{t, {50, 3, 1000}, {2, 1, 0}}})  // sides under 64: vector tiles
    ASSERT_NO_FATAL_FAILURE(expect_gpu_matches_reference(d, 0, wide));
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, GpuPermute,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128));

TEST(GpuPermuteRefused, HostPointerAndOverlap) {
  XPOSE_SKIP_WITHOUT_GPU();
  std::vector<float> host_in(64, 1.0f);
  xpose::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(1024).ok());
  ASSERT_TRUE(xpose::fill_device_bytes(buf.data(), kPoison, 1024).ok());
  const PermuteDesc d{DType::f32, {4, 4, 4}, {2, 1, 0}};
  xpose::Status s = xpose::permute(d, host_in.data(), buf.data(), nullptr, {Backend::cuda});
  EXPECT_EQ(s.code(), xpose::StatusCode::wrong_memory) << s.message();
  auto* base = static_cast<unsigned char*>(buf.data());
  s = xpose::permute(d, base, base + 128, nullptr, {Backend::cuda});
  EXPECT_EQ(s.code(), xpose::StatusCode::overlap) << s.message();
  std::vector<unsigned char> after(1024);
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), buf.data(), 1024).ok());
  EXPECT_EQ(after, std::vector<unsigned char>(1024, kPoison));
}

TEST(GpuPermuteRefused, PointersLessAlignedThanThePlan) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::DeviceBuffer in, out;
  ASSERT_TRUE(in.allocate(128).ok());
  ASSERT_TRUE(out.allocate(128).ok());
  ASSERT_TRUE(xpose::fill_device_bytes(out.data(), kPoison, 128).ok());
  xpose::PermutePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::u8, {5, 3, 4}, {1, 0, 2}}, {Backend::cuda}).ok());
  const xpose::Status s = xpose::execute(plan, static_cast<unsigned char*>(in.data()) + 1,
                                         static_cast<unsigned char*>(out.data()) + 1);
  EXPECT_EQ(s.code(), xpose::StatusCode::invalid_argument) << s.message();
  std::vector<unsigned char> after(128);
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), out.data(), 128).ok());
  EXPECT_EQ(after, std::vector<unsigned char>(128, kPoison));
}

}  // namespace
