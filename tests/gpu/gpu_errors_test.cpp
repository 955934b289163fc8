// GPU-path refusals: host pointers, overlapping device buffers; nothing is written.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::StatusCode;
using namespace xpose_test;

TEST(GpuRefused, HostPointerGivenToGpuPath) {
  XPOSE_SKIP_WITHOUT_GPU();
  std::vector<float> host_in(16, 1.0f);
  xpose::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(64).ok());
  ASSERT_TRUE(xpose::fill_device_bytes(out.data(), kPoison, 64).ok());
  const xpose::Status s =
      xpose::transpose({DType::f32, 4, 4}, host_in.data(), out.data(), nullptr, {Backend::cuda, Algorithm::tiled_padded});
  EXPECT_EQ(s.code(), StatusCode::wrong_memory) << s.message();
  std::vector<unsigned char> after(64);
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), out.data(), 64).ok());
  EXPECT_EQ(after, std::vector<unsigned char>(64, kPoison));
}

TEST(GpuRefused, DevicePointerGivenToCpuPath) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::DeviceBuffer in;
  ASSERT_TRUE(in.allocate(64).ok());
  std::vector<unsigned char> out(64, kPoison);
  const xpose::Status s =
      xpose::transpose({DType::f32, 4, 4}, in.data(), out.data(), nullptr, {Backend::cpu, Algorithm::cpu_blocked});
  EXPECT_EQ(s.code(), StatusCode::wrong_memory) << s.message();
  EXPECT_EQ(out, std::vector<unsigned char>(64, kPoison));
}

TEST(GpuRefused, OverlappingDeviceBuffers) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(256).ok());
  const auto pattern = random_bytes(256, 9);
  ASSERT_TRUE(xpose::copy_host_to_device(buf.data(), pattern.data(), 256).ok());
  auto* base = static_cast<unsigned char*>(buf.data());
  for (Algorithm a : {Algorithm::naive_read, Algorithm::tiled_padded, Algorithm::vendor_geam}) {
    const xpose::Status s = xpose::transpose({DType::f32, 4, 4}, base, base + 32, nullptr, {Backend::cuda, a});
    EXPECT_EQ(s.code(), StatusCode::overlap) << xpose::algorithm_name(a) << ": " << s.message();
  }
  std::vector<unsigned char> after(256);
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), buf.data(), 256).ok());
  EXPECT_EQ(after, pattern);
}

TEST(GpuPlan, PrintsTheLaunchGeometry) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f64, 8192, 8192}, {Backend::cuda, Algorithm::tiled_padded}).ok());
  EXPECT_EQ(plan.to_string(), "tiled_padded<32x32,pad1,vec8B> block=(32,8) grid=(256,256,1)");
}

}  // namespace
