// `xpose run-kernel` (hidden): one execute() of one kernel between profiler start and stop, the
// process `xpose profile` runs under Nsight Compute.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace xpose_cli {

struct RunKernelArgs {
  std::string kernel = "tiled_padded";
  std::string shape = "8192x8192";
  std::string dtype = "f64";
  std::uint64_t seed = 20261122;
  bool no_verify = false;
};

// Adds the hidden `run-kernel` subcommand to `app`.
CLI::App* add_run_kernel_command(CLI::App& app, RunKernelArgs& args);

// Runs it: 0 ok, 1 the result failed verification, 2 bad input or a device error (one stderr line).
// On success stdout ends with one kRunKernelMarker line saying what ran.
int run_kernel(const RunKernelArgs& args);

}  // namespace xpose_cli
