// Bad input: every refusal returns a non-ok Status with a message, and the output is left untouched.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::StatusCode;
using namespace xpose_test;

const xpose::PlanOptions kCpu{Backend::cpu, Algorithm::cpu_blocked};

// Runs a transpose that must be refused with `code`; checks the message and that `out` is unchanged.
void expect_refused(const xpose::TransposeDesc& d, const void* in, std::vector<unsigned char>& out, void* out_ptr,
                    StatusCode code, const xpose::PlanOptions& options = kCpu) {
  const std::vector<unsigned char> before = out;
  const xpose::Status s = xpose::transpose(d, in, out_ptr, nullptr, options);
  EXPECT_EQ(s.code(), code) << describe(d) << ": " << s.message();
  EXPECT_FALSE(s.message().empty());
  EXPECT_NE(s.message(), "ok");
  EXPECT_EQ(out, before) << "output changed by a refused call";
}

struct BadDesc {
  const char* name;
  xpose::TransposeDesc desc;
};

class RefusedDescriptor : public ::testing::TestWithParam<BadDesc> {};

TEST_P(RefusedDescriptor, IsInvalidArgumentAndWritesNothing) {
  const auto in = random_bytes(4096, 3);
  std::vector<unsigned char> out(4096, kPoison);
  expect_refused(GetParam().desc, in.data(), out, out.data(), StatusCode::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(
    Validation, RefusedDescriptor,
    ::testing::Values(BadDesc{"zero_rows", {DType::f32, 0, 5}}, BadDesc{"zero_cols", {DType::f32, 5, 0}},
                      BadDesc{"negative_rows", {DType::f32, -3, 4}}, BadDesc{"negative_cols", {DType::f32, 4, -3}},
                      BadDesc{"zero_batch", {DType::f32, 4, 4, 0}},
                      BadDesc{"ld_in_below_cols", {DType::f32, 4, 8, 1, 7, 0}},
                      BadDesc{"ld_out_below_rows", {DType::f32, 8, 4, 1, 0, 7}},
                      BadDesc{"negative_ld", {DType::f32, 4, 4, 1, -4, 0}},
                      BadDesc{"overlapping_input_batches", {DType::f32, 4, 4, 2, 0, 0, 15, 0}},
                      BadDesc{"overlapping_output_batches", {DType::f32, 4, 4, 2, 0, 0, 0, 15}},
                      BadDesc{"offsets_overflow", {DType::f64, 1LL << 40, 1LL << 40}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Refused, UnsupportedDtype) {
  const auto in = random_bytes(64, 3);
  std::vector<unsigned char> out(64, kPoison);
  expect_refused({static_cast<DType>(99), 2, 2}, in.data(), out, out.data(), StatusCode::unsupported);
}

TEST(Refused, NullInput) {
  std::vector<unsigned char> out(64, kPoison);
  expect_refused({DType::f32, 4, 4}, nullptr, out, out.data(), StatusCode::invalid_argument);
}

TEST(Refused, NullOutput) {
  const auto in = random_bytes(64, 3);
  std::vector<unsigned char> out(64, kPoison);
  expect_refused({DType::f32, 4, 4}, in.data(), out, nullptr, StatusCode::invalid_argument);
}

TEST(Refused, SameBufferForInputAndOutput) {
  std::vector<unsigned char> buf = random_bytes(64, 3);
  const std::vector<unsigned char> before = buf;
  const xpose::Status s = xpose::transpose({DType::f32, 4, 4}, buf.data(), buf.data(), nullptr, kCpu);
  EXPECT_EQ(s.code(), StatusCode::overlap) << s.message();
  EXPECT_EQ(buf, before);
}

TEST(Refused, OverlappingBuffers) {
  std::vector<unsigned char> buf = random_bytes(256, 3);
  const std::vector<unsigned char> before = buf;
  // 4x4 f32 is 64 bytes: output starting 32 bytes into the input overlaps it.
  const xpose::Status s = xpose::transpose({DType::f32, 4, 4}, buf.data(), buf.data() + 32, nullptr, kCpu);
  EXPECT_EQ(s.code(), StatusCode::overlap) << s.message();
  EXPECT_EQ(buf, before);
}

TEST(Accepted, AdjacentButDisjointBuffers) {
  std::vector<unsigned char> buf = random_bytes(128, 3);
  EXPECT_TRUE(xpose::transpose({DType::f32, 4, 4}, buf.data(), buf.data() + 64, nullptr, kCpu).ok());
}

TEST(Refused, MisalignedPointer) {
  std::vector<std::uint64_t> in(8), out(9, 0xA5A5A5A5A5A5A5A5ULL);
  std::vector<unsigned char> out_bytes(reinterpret_cast<unsigned char*>(out.data()),
                                       reinterpret_cast<unsigned char*>(out.data()) + 72);
  const xpose::Status s = xpose::transpose({DType::f64, 2, 4}, in.data(),
                                           reinterpret_cast<unsigned char*>(out.data()) + 4, nullptr, kCpu);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.message();
  EXPECT_EQ(0, std::memcmp(out.data(), out_bytes.data(), 72));
}

TEST(Refused, EmptyPlan) {
  xpose::Plan plan;
  float in[4] = {}, out[4] = {};
  EXPECT_EQ(xpose::execute(plan, in, out).code(), StatusCode::invalid_argument);
}

TEST(Refused, GpuAlgorithmOnCpuBackend) {
  xpose::Plan plan;
  const xpose::Status s = xpose::make_plan(plan, {DType::f32, 4, 4}, {Backend::cpu, Algorithm::tiled});
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.message();
  EXPECT_FALSE(plan.valid()) << "a refused make_plan must leave the plan as it was";
}

TEST(Refused, GpuBackendWithoutDevice) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present; the no-device refusal cannot be shown here";
  const auto in = random_bytes(64, 3);
  std::vector<unsigned char> out(64, kPoison);
  expect_refused({DType::f32, 4, 4}, in.data(), out, out.data(), StatusCode::no_device,
                 {Backend::cuda, Algorithm::tiled_padded});
}

TEST(Status, EveryCodeHasAName) {
  for (int c = 0; c <= static_cast<int>(StatusCode::internal); ++c)
    EXPECT_STRNE(xpose::status_code_name(static_cast<StatusCode>(c)), "unknown");
}

}  // namespace
