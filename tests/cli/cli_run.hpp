// Running the built `xpose` binary from a test: exit code, stdout and stderr of one command line.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#ifndef XPOSE_CLI_PATH
#error "XPOSE_CLI_PATH must name the built xpose binary"
#endif

namespace xpose_cli_test {

struct CliResult {
  int exit_code = -1;  // -1: killed by a signal (a crash)
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// XPOSE_CLI overrides the build-time path (for running the tests from a copied build tree).
inline std::string cli_path() {
  const char* env = std::getenv("XPOSE_CLI");
  return env != nullptr && env[0] != '\0' ? env : XPOSE_CLI_PATH;
}

// Runs `env_prefix xpose args` through the shell; env_prefix sets variables ("XPOSE_NCU=/x").
inline CliResult run_cli(const std::string& args, const std::string& env_prefix = "") {
  // ctest runs cases in parallel processes: name the capture files after this one.
  const std::string stem = ::testing::TempDir() + "/xpose_cli_run_" + std::to_string(::getpid());
  const std::string out = stem + ".out", err = stem + ".err";
  const std::string cmd = env_prefix + (env_prefix.empty() ? "" : " ") + cli_path() + " " + args + " >" + out +
                          " 2>" + err;
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

}  // namespace xpose_cli_test
