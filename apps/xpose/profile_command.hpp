// `xpose profile`: every kernel once under Nsight Compute, and one table that says why each is as
// fast as it is (DRAM bytes against the ideal, sectors per request, bank conflicts, % of peak).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace xpose_cli {

struct ProfileArgs {
  std::string shape = "8192x8192";
  std::string dtype = "f64";
  std::string kernels = "ladder,geam";  // names, "auto", "ladder" (5 rungs), "all" (ladder + geam + auto)
  std::string json_path;
  std::string ncu_path;         // empty: $XPOSE_NCU, PATH, the CUDA toolkit
  std::string save_raw_path;    // store ncu's own output, one capture per kernel (test fixtures)
  std::string from_csv_path;    // build the table from such a file instead of running ncu
  std::uint64_t seed = 20261122;
};

CLI::App* add_profile_command(CLI::App& app, ProfileArgs& args);

// 0 ok, 1 a kernel's result failed verification, 2 bad input, no GPU, no ncu, or ncu failed
// (one line on stderr).
int run_profile(const ProfileArgs& args, const std::vector<std::string>& argv);

}  // namespace xpose_cli
