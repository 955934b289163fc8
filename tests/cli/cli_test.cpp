// The built `xpose` binary: bad arguments give exit 2 and one line on stderr; bench writes valid JSON.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "xpose/xpose.hpp"

#ifndef XPOSE_CLI_PATH
#error "XPOSE_CLI_PATH must name the built xpose binary"
#endif

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// XPOSE_CLI overrides the build-time path (for running the tests from a copied build tree).
std::string cli_path() {
  const char* env = std::getenv("XPOSE_CLI");
  return env != nullptr && env[0] != '\0' ? env : XPOSE_CLI_PATH;
}

// A file in the test temp directory named after this process (ctest runs cases in parallel).
std::string temp_file(const std::string& name) {
  return ::testing::TempDir() + "/xpose_" + name + "_" + std::to_string(::getpid());
}

Result run_cli(const std::string& args) {
  const std::string stem = temp_file("cli");
  const std::string out = stem + ".out", err = stem + ".err";
  const std::string cmd = cli_path() + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;  // -1: killed by a signal (a crash)
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

class BadArguments : public ::testing::TestWithParam<const char*> {};

TEST_P(BadArguments, ExitTwoWithOneLine) {
  const Result r = run_cli(GetParam());
  EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << "stderr: " << r.err;
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Cli, BadArguments,
                         ::testing::Values("bench --bogus", "bench --shape 0x5", "bench --shape 3x",
                                           "bench --shape -3x4", "bench --shape x4", "bench --shape 3x4x5",
                                           "bench --dtype q7", "bench --sizes abc", "bench --sizes 256,,512",
                                           "bench --sizes 0", "bench --iters 0", "bench --iters -5",
                                           "bench --warmup -1", "bench --iters abc", "bench --backend tpu",
                                           "bench --kernels fastest", "", "frobnicate",
                                           "bench --backend cpu --kernels tiled",
                                           "bench --backend cpu --sizes 8 --json /nonexistent-dir/x.json",
                                           "bench --permute 1,0", "bench --extents 4,4",
                                           "bench --extents 4,4 --permute 1,1", "bench --extents 4,0 --permute 1,0",
                                           "bench --extents 4,4 --permute 1,-1", "bench --extents 4,4 --permute 1,",
                                           "bench --extents 4,4 --permute 1,0,2", "bench --extents 4,4 --permute 9,0",
                                           "bench --extents 1,1,1,1,1,1,1,1,1 --permute 0,1,2,3,4,5,6,7,8",
                                           "bench --extents 4,4 --permute 1,0 --shape 4x4",
                                           "bench --extents 4,4 --permute 1,0 --kernels tiled_vec",
                                           "bench --extents 99999999999,99999999999 --permute 1,0",
                                           "bench --in-place --backend cpu --shape 10x20 --ld-in 30",
                                           "bench --in-place --suite", "bench --in-place --ld-out 70",
                                           "bench --in-place --backend cpu --sizes 64 --ld-in 32",
                                           "bench --in-place --backend cpu --sizes 64 --kernels tiled_vec",
                                           "bench --offset-in -1", "bench --offset-out 4097",
                                           "bench --suite --offset-in 1", "bench --in-place --offset-out 2",
                                           "bench --extents 4,4 --permute 1,0 --offset-in 3"));

TEST(Cli, CudaBackendWithoutDeviceIsExitTwo) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present";
  const Result r = run_cli("bench --backend cuda --sizes 64");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(Cli, HelpExitsZero) {
  const Result r = run_cli("bench --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--shape"), std::string::npos);
}

TEST(Cli, CpuBenchVerifiesAndWritesJson) {
  const std::string json_path = temp_file("bench") + ".json";
  const std::string csv_path = temp_file("bench") + ".csv";
  const Result r = run_cli("bench --backend cpu --shape 33x65 --shape 128x128 --dtype f32 --iters 3 --json " +
                           json_path + " --csv " + csv_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Verification: PASSED"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Performance Summary"), std::string::npos) << r.out;

  const auto j = nlohmann::json::parse(slurp(json_path));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_TRUE(j.contains("git_commit"));
  EXPECT_TRUE(j["argv"].is_array());
  int transposes = 0;
  for (const auto& rec : j["records"]) {
    for (const char* key : {"kernel", "dtype", "rows", "cols", "time_us", "gbps", "copy_gbps", "pct_of_copy", "verified"})
      EXPECT_TRUE(rec.contains(key)) << key;
    EXPECT_GT(rec["time_us"].get<double>(), 0.0);
    if (rec["kernel"] != "memcpy") {
      ++transposes;
      EXPECT_TRUE(rec["verified"].get<bool>()) << rec.dump();
    }
  }
  EXPECT_EQ(transposes, 4);  // cpu_reference and cpu_blocked on two shapes
  EXPECT_EQ(count_lines(slurp(csv_path)), 1 + 6);  // header + 3 records per shape
}

// --offset-in / --offset-out: the kernels get pointers past their allocations' starts, every result
// is verified there, and the records carry the offsets.
TEST(Cli, OffsetPointersVerifyAndAreRecorded) {
  const std::string json_path = temp_file("offsets") + ".json";
  const Result r = run_cli("bench --backend cpu --dtype bf16 --shape 67x130 --offset-in 3 --offset-out 5 --iters 2 "
                           "--kernels auto,cpu_reference --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json_path));
  int verified = 0;
  for (const auto& rec : j["records"]) {
    EXPECT_EQ(rec["offset_in"], 3) << rec.dump();
    EXPECT_EQ(rec["offset_out"], 5) << rec.dump();
    EXPECT_EQ(rec["case"], "bf16 67x130 in+3 out+5") << rec.dump();
    if (rec["kernel"] != "memcpy") verified += rec["verified"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(verified, 2);
}

// --permute: the memcpy baseline and the plans asked for, each verified, in the JSON.
TEST(Cli, PermutationVerifiesAndWritesJson) {
  const std::string json_path = temp_file("permute") + ".json";
  const Result r = run_cli("bench --backend cpu --dtype bf16 --extents 3,5,33,7 --permute 0,2,1,3 "
                           "--kernels auto,cpu_reference --iters 2 --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bf16 [3x5x33x7] perm 0,2,1,3"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json_path));
  std::vector<std::string> kernels;
  for (const auto& rec : j["records"]) {
    kernels.push_back(rec["kernel"]);
    EXPECT_EQ(rec["case"], "bf16 [3x5x33x7] perm 0,2,1,3");
    if (rec["kernel"] != "memcpy") EXPECT_TRUE(rec["verified"].get<bool>()) << rec.dump();
  }
  EXPECT_EQ(kernels, (std::vector<std::string>{"memcpy", "auto", "cpu_reference"}));
  EXPECT_EQ(j["records"][1]["plan"], "permute[3x5x33x7 perm 0,2,1,3] general<runs of 7 x 2B, 495 runs> (cpu)");
}

// --in-place: the memcpy baseline and the in-place plan, verified, on square shapes with a batch
// and a leading dimension, in the JSON.
TEST(Cli, InPlaceVerifiesAndWritesJson) {
  const std::string json_path = temp_file("in_place") + ".json";
  const Result r = run_cli("bench --backend cpu --in-place --dtype u8 --sizes 33,300 --batch 3 --ld-in 301 "
                           "--iters 2 --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Verification: PASSED"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json_path));
  EXPECT_EQ(j["records"][3]["case"], "u8 300x300 x3 ld 301 in place");
  std::vector<std::string> kernels;
  for (const auto& rec : j["records"]) {
    kernels.push_back(rec["kernel"]);
    if (rec["kernel"] != "memcpy") EXPECT_TRUE(rec["verified"].get<bool>()) << rec.dump();
  }
  EXPECT_EQ(kernels, (std::vector<std::string>{"memcpy", "in_place", "memcpy", "in_place"}));
  EXPECT_EQ(j["records"][1]["plan"], "in_place<256x256 tile pairs> (cpu)");
}

// --in-place with a non-square shape: the CPU's row and column shuffles, verified.
TEST(Cli, InPlaceTakesNonSquareShapesOnTheCpu) {
  const Result r = run_cli("bench --backend cpu --in-place --dtype f32 --shape 300x70 --batch 2 --iters 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Verification: PASSED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in_place<row and column shuffles> (cpu)"), std::string::npos) << r.out;
}

// --kernels tuned: the measured planner's choice, verified like any kernel (on the CPU backend it
// has one kernel to choose, and says so in the record's note).
TEST(Cli, TunedKernelIsVerifiedAndNamed) {
  const std::string json_path = temp_file("tuned") + ".json";
  const Result r =
      run_cli("bench --backend cpu --shape 33x65 --dtype bf16 --kernels auto,tuned --iters 2 --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json_path));
  int tuned = 0;
  for (const auto& rec : j["records"]) {
    if (rec["kernel"] != "tuned") continue;
    ++tuned;
    EXPECT_TRUE(rec["verified"].get<bool>()) << rec.dump();
    EXPECT_EQ(rec["plan"], "cpu_blocked<128x128>");
    EXPECT_NE(rec["note"].get<std::string>().find("nothing to measure"), std::string::npos) << rec.dump();
  }
  EXPECT_EQ(tuned, 1);
}

TEST(Cli, DefaultBenchFallsBackToCpuAndSaysSo) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present: the default bench runs on it";
  const Result r = run_cli("bench --sizes 64,96 --iters 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("No GPU found: running the CPU backend"), std::string::npos) << r.out;
}

}  // namespace
