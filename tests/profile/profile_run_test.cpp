// One ncu run over `xpose run-kernel` read back: measured, skipped, failed verification, and failures.
#include <gtest/gtest.h>

#include <string>

#include "profile_run.hpp"

namespace xpose_cli {
namespace {

const ProfileCase kCase{"f64", 64, 32, 8, 0};

std::string marker(const std::string& rest) {
  return std::string(kRunKernelMarker) + "kernel=tiled | shape=64x32 | dtype=f64 | device=Test GPU | " + rest + "\n";
}

// What ncu prints for one profiled launch of a 64x32 f64 transpose (16 KiB each way).
std::string table(int launches) {
  std::string t =
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"byte\",\"nsecond\"\n";
  for (int i = 0; i < launches; ++i)
    t += "\"" + std::to_string(i) +
         "\",\"9\",\"xpose\",\"h\",\"k\",\"1\",\"7\",\"(32, 8, 1)\",\"(1, 2, 1)\",\"0\",\"9.0\",\"16,384\",\"16,384\","
         "\"2,000\"\n";
  return t;
}

ProcessResult result(int exit_code, const std::string& out, const std::string& err = "") {
  ProcessResult r;
  r.exit_code = exit_code;
  r.out = out;
  r.err = err;
  return r;
}

TEST(InterpretNcuRun, MeasuredRowWithPlanAndVerification) {
  const auto o = interpret_ncu_run(
      "tiled", result(0, "==PROF== Connected\n" + marker("plan=tiled<32x32> | verification=PASSED") + table(1)), kCase);
  ASSERT_EQ(o.kind, RunOutcome::Kind::measured) << o.error;
  EXPECT_EQ(o.launches, 1);
  EXPECT_EQ(o.record.kernel, "tiled");
  EXPECT_EQ(o.record.plan, "tiled<32x32>");
  EXPECT_EQ(o.record.verification, "PASSED");
  EXPECT_DOUBLE_EQ(*o.record.read_ratio, 1.0);
  EXPECT_DOUBLE_EQ(*o.record.time_us, 2.0);
  EXPECT_DOUBLE_EQ(*o.record.dram_gbps, 32768.0 / 2000.0);
}

TEST(InterpretNcuRun, SeveralLaunchesAreSummed) {
  const auto o = interpret_ncu_run("geam", result(0, table(3) + marker("plan=geam | verification=PASSED")), kCase);
  ASSERT_EQ(o.kind, RunOutcome::Kind::measured) << o.error;
  EXPECT_EQ(o.launches, 3);
  EXPECT_DOUBLE_EQ(*o.record.write_ratio, 3.0);
  EXPECT_DOUBLE_EQ(*o.record.time_us, 6.0);
}

TEST(InterpretNcuRun, FailedVerificationIsARowMarkedFailed) {
  const auto o = interpret_ncu_run("tiled", result(1, marker("plan=p | verification=FAILED") + table(1)), kCase);
  ASSERT_EQ(o.kind, RunOutcome::Kind::measured) << o.error;
  EXPECT_EQ(o.record.verification, "FAILED");
}

TEST(InterpretNcuRun, KernelThatCannotServeTheCaseIsSkipped) {
  const auto o = interpret_ncu_run(
      "geam", result(0, marker("skipped=cuBLAS geam has no f16") + "==WARNING== No kernels were profiled.\n"), kCase);
  ASSERT_EQ(o.kind, RunOutcome::Kind::skipped) << o.error;
  EXPECT_TRUE(o.record.skipped);
  EXPECT_EQ(o.record.note, "cuBLAS geam has no f16");
}

TEST(InterpretNcuRun, FailuresSayWhyInOneLine) {
  struct Case {
    ProcessResult run;
    std::string want;
  };
  const Case cases[] = {
      {result(1, "==PROF== Connected\n", "==ERROR== Failed to find metric dram__bytes_read.sum\nmore\n"),
       "==ERROR== Failed to find metric dram__bytes_read.sum"},
      {result(2, "", "xpose run-kernel: error: no GPU device found\n"), "xpose run-kernel: error: no GPU device found"},
      {result(0, marker("plan=p | verification=PASSED") + "==WARNING== No kernels were profiled.\n"),
       "==WARNING== No kernels were profiled."},
      {result(0, marker("plan=p | verification=PASSED") + table(0)), "ncu profiled no kernel launch"},
      {result(0, "program output only\n"), "no raw-page table"},
      {result(139, marker("plan=p | verification=PASSED") + table(1)), "ncu exited with status 139"},
  };
  for (const Case& c : cases) {
    const auto o = interpret_ncu_run("tiled", c.run, kCase);
    EXPECT_EQ(o.kind, RunOutcome::Kind::failed) << c.want;
    EXPECT_NE(o.error.find(c.want), std::string::npos) << "got: " << o.error;
    EXPECT_EQ(o.error.find('\n'), std::string::npos) << o.error;
  }
}

}  // namespace
}  // namespace xpose_cli
