// `xpose bench`: the timed, verified comparison of the transpose kernels.
#pragma once

#include <string>
#include <vector>

#include "bench_options.hpp"

namespace CLI {
class App;
}

namespace xpose_cli {

// Adds the `bench` subcommand and its options to `app`; parsed values land in `args`.
CLI::App* add_bench_command(CLI::App& app, BenchArgs& args);

// Runs the bench; returns the process exit code (0 ok, 1 a verification failed, 2 bad input or
// an error that stopped the run). Errors are one line on stderr.
int run_bench(const BenchArgs& args, const std::vector<std::string>& argv);

}  // namespace xpose_cli
