// The built `xpose profile`: exit 2 and one stderr line without ncu or a GPU or with bad arguments;
// a table and JSON from a recorded capture on any machine; a live run where a GPU and ncu exist.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "ncu_runner.hpp"
#include "xpose/xpose.hpp"

namespace {

using xpose_cli_test::count_lines;
using xpose_cli_test::run_cli;
using xpose_cli_test::slurp;

const std::string kFixture = std::string(XPOSE_FIXTURE_DIR) + "/ncu_raw_synthetic.csv";

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/xpose_profile_" + std::to_string(::getpid()) + "_" + name;
}

void expect_one_line_error(const xpose_cli_test::CliResult& r, const std::string& mentions) {
  EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << "stderr: " << r.err;
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
}

class ProfileBadArguments : public ::testing::TestWithParam<const char*> {};

TEST_P(ProfileBadArguments, ExitTwoWithOneLine) {
  const auto r = run_cli(GetParam());
  EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << "stderr: " << r.err;
  EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Cli, ProfileBadArguments,
                         ::testing::Values("profile --bogus", "profile --shape 0x4", "profile --shape 3x",
                                           "profile --dtype q7", "profile --kernels cpu_blocked",
                                           "profile --kernels tiled,,copy", "profile --kernels fastest",
                                           "profile --from-csv /nonexistent/capture.csv",
                                           "profile --from-csv /etc/hostname", "run-kernel --kernel cpu_reference",
                                           "run-kernel --shape 0x0", "run-kernel --dtype q7"));

TEST(ProfileCli, MissingNcuIsExitTwoWithOneLine) {
  expect_one_line_error(run_cli("profile --ncu /nonexistent/ncu"), "/nonexistent/ncu");
  expect_one_line_error(run_cli("profile", "XPOSE_NCU=/nonexistent/ncu"), "XPOSE_NCU");
}

TEST(ProfileCli, NoGpuIsExitTwoWithOneLine) {
  if (xpose::device_count() > 0) GTEST_SKIP() << "a GPU is present";
  // An executable stand-in for ncu, so that the missing GPU is what stops the run.
  const std::string fake = temp_path("fake_ncu");
  std::ofstream(fake) << "#!/bin/sh\nexit 0\n";
  ::chmod(fake.c_str(), 0755);
  expect_one_line_error(run_cli("profile --ncu " + fake), "GPU");
  expect_one_line_error(run_cli("profile --shape 64x64 --kernels tiled", "XPOSE_NCU=" + fake), "GPU");
  expect_one_line_error(run_cli("run-kernel --kernel tiled --shape 64x64"), "GPU");
  std::remove(fake.c_str());
}

TEST(ProfileCli, HelpListsProfileButNotTheInternalRunKernel) {
  const auto r = run_cli("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("profile"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("run-kernel"), std::string::npos) << r.out;
  const auto p = run_cli("profile --help");
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_NE(p.out.find("--kernels"), std::string::npos) << p.out;
}

TEST(ProfileCli, RecordedCaptureGivesTheTableAndJson) {
  const std::string json_path = temp_path("table.json");
  const auto r = run_cli("profile --from-csv " + kFixture + " --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* text : {"1024 x 1024 f64", "naive_write", "tiled_padded", "[2 launches, summed]", "983040"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;

  const auto j = nlohmann::json::parse(slurp(json_path));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["tool"], "xpose profile");
  EXPECT_TRUE(j.contains("git_commit"));
  EXPECT_TRUE(j.contains("timestamp_utc"));
  EXPECT_TRUE(j["argv"].is_array());
  EXPECT_EQ(j["device"]["name"], "SYNTHETIC H100-like");
  EXPECT_EQ(j["rows"], 1024);
  EXPECT_EQ(j["dtype"], "f64");
  ASSERT_EQ(j["records"].size(), 6u);
  EXPECT_EQ(j["records"][5]["kernel"], "geam");
  EXPECT_EQ(j["records"][5]["launches"], 2);
  EXPECT_DOUBLE_EQ(j["records"][1]["store_sectors_per_request"].get<double>(), 32.0);
  std::remove(json_path.c_str());
}

// On a machine with a GPU and ncu: the real thing, small, two kernels.
TEST(ProfileCli, LiveRunWhereGpuAndNcuExist) {
  if (xpose::device_count() == 0) GTEST_SKIP() << "no GPU device found on this machine";
  std::string ncu, error;
  if (!xpose_cli::locate_ncu(xpose_cli::default_ncu_search(""), ncu, error)) GTEST_SKIP() << error;
  const std::string json_path = temp_path("live.json"), raw_path = temp_path("live_raw.csv");
  const auto r = run_cli("profile --shape 512x384 --dtype f32 --kernels naive_read,tiled_padded --json " +
                         json_path + " --save-raw " + raw_path);
  ASSERT_EQ(r.exit_code, 0) << r.err << "\n" << r.out;
  const auto j = nlohmann::json::parse(slurp(json_path));
  ASSERT_EQ(j["records"].size(), 2u);
  for (const auto& rec : j["records"]) {
    EXPECT_EQ(rec["verification"], "PASSED") << rec.dump();
    EXPECT_GT(rec["time_us"].get<double>(), 0.0) << rec.dump();
    EXPECT_GT(rec["load_sectors_per_request"].get<double>(), 0.0) << rec.dump();
  }
  // Strided 4-byte stores: each lands in its own sector.
  EXPECT_GT(j["records"][0]["store_sectors_per_request"].get<double>(), 16.0);
  // The saved capture rebuilds the same table without a GPU.
  const auto again = run_cli("profile --from-csv " + raw_path);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("tiled_padded"), std::string::npos) << again.out;
  std::remove(json_path.c_str());
  std::remove(raw_path.c_str());
}

}  // namespace
