// make_measured_plan on the GPU: whatever candidate wins, the output is the transpose, element by
// element against the CPU reference on poisoned buffers; the choice is remembered per shape class;
// bad input is refused before anything is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "gpu_test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::StatusCode;
using namespace xpose_test;

struct MeasuredCase {
  xpose::TransposeDesc desc;
  std::size_t shift;  // bytes past a 256-byte aligned allocation, for both buffers
};

class MeasuredPlan : public ::testing::TestWithParam<MeasuredCase> {};

// Poisons `out`, runs `step` (which writes it), and checks every output byte.
void expect_transpose(const xpose::TransposeDesc& d, const unsigned char* out,
                      const std::function<xpose::Status()>& step, const std::string& what) {
  const std::size_t bytes = output_bytes(d);
  ASSERT_TRUE(xpose::fill_device_bytes(const_cast<unsigned char*>(out), kPoison, bytes).ok());
  const xpose::Status s = step();
  ASSERT_TRUE(s.ok()) << what << ": " << s.message();
  ASSERT_TRUE(xpose::synchronize_device().ok());
  std::vector<unsigned char> got(bytes);
  ASSERT_TRUE(xpose::copy_device_to_host(got.data(), out, bytes).ok());
  const std::int64_t bad = first_mismatch(got, case_data(d).expected_transpose, xpose::dtype_size(d.dtype));
  EXPECT_EQ(bad, -1) << what << ", " << describe(d) << ": first wrong output element " << bad;
}

TEST_P(MeasuredPlan, WritesTheTransposeAndRemembersTheChoice) {
  XPOSE_SKIP_WITHOUT_GPU();
  // Variables rather than structured bindings, which C++17 lambdas cannot capture (clang refuses).
  const xpose::TransposeDesc d = GetParam().desc;
  const std::size_t shift = GetParam().shift;
  const CaseData& data = case_data(d);
  xpose::DeviceBuffer in_buf, out_buf;
  ASSERT_TRUE(in_buf.allocate(data.input.size() + shift).ok());
  ASSERT_TRUE(out_buf.allocate(output_bytes(d) + shift).ok());
  const auto* in = static_cast<const unsigned char*>(in_buf.data()) + shift;
  auto* out = static_cast<unsigned char*>(out_buf.data()) + shift;
  ASSERT_TRUE(xpose::copy_host_to_device(const_cast<unsigned char*>(in), data.input.data(), data.input.size()).ok());

  xpose::clear_measured_plans();
  xpose::Plan plan;
  xpose::MeasuredPlanReport report;
  expect_transpose(d, out, [&] { return xpose::make_measured_plan(plan, d, in, out, nullptr, {}, &report); },
                   "measuring");
  ASSERT_TRUE(plan.valid());
  EXPECT_EQ(plan.backend(), Backend::cuda);
  EXPECT_FALSE(report.from_cache);
  ASSERT_FALSE(report.candidates.empty());
  EXPECT_GT(report.candidates.front().us, 0.0) << "the heuristic choice runs: " << report.candidates.front().error;
  bool chosen_listed = false;
  for (const auto& c : report.candidates) chosen_listed |= c.plan == plan.to_string() && c.us > 0;
  EXPECT_TRUE(chosen_listed) << plan.to_string() << " was not among the timed candidates";

  // The plan runs again as any plan does, and the shape class is now planned without timing.
  expect_transpose(d, out, [&] { return xpose::execute(plan, in, out); }, "executing the measured plan");
  xpose::Plan again;
  expect_transpose(d, out, [&] { return xpose::make_measured_plan(again, d, in, out, nullptr, {}, &report); },
                   "planning from the cache");
  EXPECT_TRUE(report.from_cache);
  EXPECT_EQ(again.to_string(), plan.to_string());
}

// Each case's input and output together pass 64 MiB, more than the L2 of an H100 or H200, so the
// candidates are timed (smaller ones keep the heuristic choice untimed: FitsInTheL2 below).
std::vector<MeasuredCase> measured_cases() {
  xpose::TransposeDesc batched{DType::bf16, 2400, 2500, 3};
  batched.ld_in = 2504;
  batched.ld_out = 2408;
  xpose::TransposeDesc ld_f32{DType::f32, 3001, 3003};
  ld_f32.ld_in = 3008;
  ld_f32.ld_out = 3004;
  return {
      {{DType::u8, 6001, 6003}, 0},       {{DType::u8, 6144, 6144}, 0},   {batched, 0},
      {ld_f32, 0},                        {{DType::f32, 2201, 2049, 2}, 4}, {{DType::f64, 3, 1600000}, 0},
      {{DType::f64, 1600001, 7}, 8},      {{DType::c128, 1501, 1502}, 0},  {{DType::u8, 5000, 7001}, 1},
      {{DType::bf16, 4096, 4100}, 2},
  };
}

std::string case_name(const ::testing::TestParamInfo<MeasuredCase>& info) {
  const auto& d = info.param.desc;
  return std::string(xpose::dtype_name(d.dtype)) + "_" + std::to_string(d.batch) + "x" + std::to_string(d.rows) + "x" +
         std::to_string(d.cols) + (d.ld_in ? "_ld" + std::to_string(d.ld_in) : "") + "_shift" +
         std::to_string(info.param.shift);
}

INSTANTIATE_TEST_SUITE_P(Cases, MeasuredPlan, ::testing::ValuesIn(measured_cases()), case_name);

// Measured plans of `d` with the input aligned and the output 0, then `shift` bytes past an aligned
// pointer, with no plan cached before: each is planned afresh (the shifted output a shape class of its
// own, not served the aligned one's choice), its first timed candidate is make_plan's plan for those
// pointers (which `check_heuristic` also checks, given the shift), and the output is the transpose, as
// measured and executed again.
template <typename CheckHeuristic>
void expect_shifted_output_class(const xpose::TransposeDesc& d, std::size_t shift,
                                 const CheckHeuristic& check_heuristic) {
  const CaseData& data = case_data(d);
  xpose::DeviceBuffer in_buf, out_buf;
  ASSERT_TRUE(in_buf.allocate(data.input.size()).ok());
  ASSERT_TRUE(out_buf.allocate(output_bytes(d) + 16).ok());
  const auto* in = static_cast<const unsigned char*>(in_buf.data());
  ASSERT_TRUE(xpose::copy_host_to_device(const_cast<unsigned char*>(in), data.input.data(), data.input.size()).ok());
  xpose::clear_measured_plans();
  for (const std::size_t s : {std::size_t{0}, shift}) {
    auto* out = static_cast<unsigned char*>(out_buf.data()) + s;
    const std::string what = "output " + std::to_string(s) + " bytes on";
    xpose::PlanOptions options{Backend::cuda};
    options.alignment = s == 0 ? 16 : static_cast<int>(std::min<std::size_t>(16, s & (~s + 1)));
    options.in_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % xpose::kPointerOffsetGrid);
    options.out_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(out) % xpose::kPointerOffsetGrid);
    xpose::Plan heuristic, plan;
    ASSERT_TRUE(xpose::make_plan(heuristic, d, options).ok()) << what;
    check_heuristic(s, heuristic, what);
    xpose::MeasuredPlanReport report;
    expect_transpose(d, out, [&] { return xpose::make_measured_plan(plan, d, in, out, nullptr, {}, &report); }, what);
    EXPECT_FALSE(report.from_cache) << what;
    ASSERT_FALSE(report.candidates.empty()) << what;
    EXPECT_EQ(report.candidates.front().plan, heuristic.to_string()) << what;
    expect_transpose(d, out, [&] { return xpose::execute(plan, in, out); }, what + ", executing the measured plan");
  }
}

// An output 16 bytes into a sector is a shape class of its own: the heuristic choice timed first is the
// plan make_plan takes for those pointers (tiled_vec, where gather gives way), the choice made for an
// aligned output is not reused, and the output is the transpose either way.
TEST(MeasuredPlan, OutputInsideASectorIsAClassOfItsOwn) {
  XPOSE_SKIP_WITHOUT_GPU();
  const xpose::TransposeDesc d{DType::c128, 40, 40, 2621};  // 64 MiB each side, past the L2
  expect_shifted_output_class(d, 16, [](std::size_t shift, const xpose::Plan& heuristic, const std::string& what) {
    EXPECT_EQ(heuristic.algorithm(), shift == 0 ? Algorithm::gather : Algorithm::tiled_vec) << what;
  });
}

// u8 matrices with the output one byte off the 16-byte grid and the input on it take tiled_unaligned's
// line tiles, which need only the input aligned: a class of its own (each pointer's alignment is part of
// the key), not served the aligned pointers' cached choice; its first candidate is make_plan's plan for
// those pointers, and the output is the transpose.
TEST(MeasuredPlan, OnePointerOffTheGridIsAClassOfItsOwn) {
  XPOSE_SKIP_WITHOUT_GPU();
  const xpose::TransposeDesc d{DType::u8, 512, 512, 256};  // 64 MiB each side, past the L2
  expect_shifted_output_class(d, 1, [](std::size_t shift, const xpose::Plan& heuristic, const std::string& what) {
    if (shift == 0) return;
    EXPECT_EQ(heuristic.algorithm(), Algorithm::tiled_unaligned) << what;
    EXPECT_EQ(heuristic.config().tile_rows, 224) << what << ": the line tiles";
  });
}

// Few rows of u8 with the output one byte off and packed output rows one tile tall take tiled_vec's
// shifted-output tiles: the measured planner times that plan first (as it does a led one), keyed on the
// pointers, and the output is the transpose.
TEST(MeasuredPlan, ShiftedOutputRunsAreTimedFirst) {
  XPOSE_SKIP_WITHOUT_GPU();
  const xpose::TransposeDesc d{DType::u8, 64, 1048576};  // 64 MiB each side, past the L2
  expect_shifted_output_class(d, 1, [](std::size_t shift, const xpose::Plan& heuristic, const std::string& what) {
    EXPECT_EQ(heuristic.algorithm(), Algorithm::tiled_vec) << what;
    EXPECT_EQ(heuristic.config().shifted_output, shift != 0) << what;
  });
}

TEST(MeasuredPlan, FitsInTheL2) {
  XPOSE_SKIP_WITHOUT_GPU();
  const xpose::TransposeDesc d{DType::u8, 500, 700};
  const CaseData& data = case_data(d);
  xpose::DeviceBuffer in, out;
  ASSERT_TRUE(in.allocate(data.input.size()).ok());
  ASSERT_TRUE(out.allocate(output_bytes(d)).ok());
  ASSERT_TRUE(xpose::copy_host_to_device(in.data(), data.input.data(), data.input.size()).ok());
  xpose::Plan plan, heuristic;
  xpose::MeasuredPlanReport report;
  auto* out_ptr = static_cast<unsigned char*>(out.data());
  const auto plan_it = [&] { return xpose::make_measured_plan(plan, d, in.data(), out_ptr, nullptr, {}, &report); };
  expect_transpose(d, out_ptr, plan_it, "planning a matrix that fits in the L2");
  ASSERT_TRUE(xpose::make_plan(heuristic, d).ok());
  EXPECT_EQ(plan.to_string(), heuristic.to_string());
  ASSERT_EQ(report.candidates.size(), 1u);
  EXPECT_LT(report.candidates.front().us, 0.0) << "not timed";
  EXPECT_FALSE(report.candidates.front().error.empty());
}

TEST(MeasuredPlanRefused, OverlappingBuffersWriteNothing) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(4096).ok());
  const auto pattern = random_bytes(4096, 11);
  ASSERT_TRUE(xpose::copy_host_to_device(buf.data(), pattern.data(), pattern.size()).ok());
  auto* base = static_cast<unsigned char*>(buf.data());
  xpose::Plan plan;
  const xpose::Status s = xpose::make_measured_plan(plan, {DType::f32, 16, 16}, base, base + 512);
  EXPECT_EQ(s.code(), StatusCode::overlap) << s.message();
  EXPECT_FALSE(plan.valid());
  std::vector<unsigned char> after(pattern.size());
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), buf.data(), after.size()).ok());
  EXPECT_EQ(after, pattern);
}

TEST(MeasuredPlanRefused, HostPointerWritesNothing) {
  XPOSE_SKIP_WITHOUT_GPU();
  std::vector<float> host_in(256, 1.0f);
  xpose::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(1024).ok());
  ASSERT_TRUE(xpose::fill_device_bytes(out.data(), kPoison, 1024).ok());
  xpose::Plan plan;
  const xpose::Status s =
      xpose::make_measured_plan(plan, {DType::f32, 16, 16}, host_in.data(), out.data(), nullptr, {Backend::cuda});
  EXPECT_EQ(s.code(), StatusCode::wrong_memory) << s.message();
  std::vector<unsigned char> after(1024);
  ASSERT_TRUE(xpose::copy_device_to_host(after.data(), out.data(), 1024).ok());
  EXPECT_EQ(after, std::vector<unsigned char>(1024, kPoison));
}

}  // namespace
