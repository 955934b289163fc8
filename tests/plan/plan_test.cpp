// The planner on the CPU: backend and algorithm choice, resolved strides, printable plans.
#include <gtest/gtest.h>

#include <sstream>

#include "test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;

TEST(Plan, AutomaticPicksCpuBlockedWithoutDevice) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present: automatic planning picks it";
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 100, 200}).ok());
  EXPECT_EQ(plan.backend(), Backend::cpu);
  EXPECT_EQ(plan.algorithm(), Algorithm::cpu_blocked);
}

// On the CPU backend there is one kernel to choose: the measured planner plans as make_plan does
// and runs the plan once, so `out` holds the transpose as after a measured choice.
TEST(Plan, MeasuredPlanOnTheCpuBackendMeasuresNothing) {
  const xpose::TransposeDesc d{DType::bf16, 37, 61, 2};
  const auto in = xpose_test::random_values(d.dtype, xpose_test::input_bytes(d), 5);
  std::vector<unsigned char> out(xpose_test::output_bytes(d), xpose_test::kPoison);
  xpose::Plan plan;
  xpose::MeasuredPlanReport report;
  report.from_cache = true;
  const xpose::Status s =
      xpose::make_measured_plan(plan, d, in.data(), out.data(), nullptr, {Backend::cpu}, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(plan.algorithm(), Algorithm::cpu_blocked);
  EXPECT_FALSE(report.from_cache);
  EXPECT_TRUE(report.candidates.empty());
  EXPECT_EQ(xpose_test::first_mismatch(out, xpose_test::expected_transpose(d, in), 2), -1);
}

TEST(Plan, MeasuredPlanRefusesBadInputBeforeWriting) {
  std::vector<unsigned char> buf(4096, xpose_test::kPoison);
  xpose::Plan plan;
  EXPECT_EQ(xpose::make_measured_plan(plan, {DType::f32, 16, 16}, buf.data(), buf.data() + 64, nullptr, {Backend::cpu})
                .code(),
            xpose::StatusCode::overlap);
  EXPECT_EQ(xpose::make_measured_plan(plan, {DType::f32, 0, 16}, buf.data(), buf.data() + 2048, nullptr, {Backend::cpu})
                .code(),
            xpose::StatusCode::invalid_argument);
  EXPECT_FALSE(plan.valid());
  EXPECT_EQ(buf, std::vector<unsigned char>(4096, xpose_test::kPoison));
}

TEST(Plan, ResolvesPackedStrides) {
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 100, 200, 3}, {Backend::cpu, Algorithm::cpu_reference}).ok());
  EXPECT_EQ(plan.desc().ld_in, 200);
  EXPECT_EQ(plan.desc().ld_out, 100);
  EXPECT_EQ(plan.desc().batch_stride_in, 100 * 200);
  EXPECT_EQ(plan.desc().batch_stride_out, 200 * 100);
}

TEST(Plan, PrintsAlgorithmAndTile) {
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f64, 10, 10}, {Backend::cpu, Algorithm::cpu_blocked}).ok());
  std::ostringstream os;
  os << plan;
  EXPECT_EQ(os.str(), "cpu_blocked<32x32>");
  // The CPU tile is 256 bytes of output row per tile (128 for 4-byte elements), by element size.
  for (auto [dtype, tile] : std::vector<std::pair<DType, const char*>>{
           {DType::u8, "cpu_blocked<256x256>"}, {DType::bf16, "cpu_blocked<128x128>"},
           {DType::f32, "cpu_blocked<32x32>"}, {DType::c128, "cpu_blocked<16x16>"}}) {
    ASSERT_TRUE(xpose::make_plan(plan, {dtype, 10, 10}, {Backend::cpu, Algorithm::cpu_blocked}).ok());
    EXPECT_EQ(plan.to_string(), tile);
  }
  EXPECT_EQ(xpose::Plan().to_string(), "<empty plan>");
}

TEST(Plan, NamesRoundTrip) {
  for (const char* name : {"auto", "copy", "naive_read", "naive_write", "tiled", "tiled_padded", "geam",
                           "cpu_reference", "cpu_blocked"}) {
    Algorithm a;
    ASSERT_TRUE(xpose::parse_algorithm(name, a)) << name;
    EXPECT_STREQ(xpose::algorithm_name(a), name);
  }
  Algorithm a;
  EXPECT_FALSE(xpose::parse_algorithm("fastest", a));
}

TEST(Dtype, NamesAndSizes) {
  const std::pair<const char*, std::size_t> expected[] = {
      {"i8", 1},  {"u8", 1},  {"f8e4m3", 1}, {"f8e5m2", 1}, {"f16", 2},  {"bf16", 2}, {"i16", 2},
      {"f32", 4}, {"i32", 4}, {"f64", 8},    {"i64", 8},    {"c64", 8},  {"c128", 16}};
  for (auto [name, size] : expected) {
    DType d;
    ASSERT_TRUE(xpose::parse_dtype(name, d)) << name;
    EXPECT_EQ(xpose::dtype_size(d), size) << name;
    EXPECT_STREQ(xpose::dtype_name(d), name);
  }
  DType d;
  EXPECT_FALSE(xpose::parse_dtype("q7", d));
}

}  // namespace
