// The xpose command line: subcommands over the public API; errors are one line and exit code 2.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_command.hpp"
#include "profile_command.hpp"
#include "run_kernel_command.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  CLI::App app{"xpose: GPU matrix transpose as fast as copying the same bytes"};
  app.require_subcommand(1);
  xpose_cli::BenchArgs bench_args;
  CLI::App* bench = xpose_cli::add_bench_command(app, bench_args);
  xpose_cli::ProfileArgs profile_args;
  CLI::App* profile = xpose_cli::add_profile_command(app, profile_args);
  xpose_cli::RunKernelArgs run_kernel_args;
  CLI::App* run_kernel = xpose_cli::add_run_kernel_command(app, run_kernel_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help(bench->parsed() ? "bench" : profile->parsed() ? "profile" : "");
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (message.empty()) message = "missing subcommand (try: xpose bench, xpose profile, or --help)";
    std::cerr << "xpose: error: " << message << "\n";
    return 2;
  }
  try {
    if (bench->parsed()) return xpose_cli::run_bench(bench_args, args);
    if (profile->parsed()) return xpose_cli::run_profile(profile_args, args);
    if (run_kernel->parsed()) return xpose_cli::run_kernel(run_kernel_args);
  } catch (const std::exception& e) {  // e.g. out of host memory for a huge --shape
    std::cerr << "xpose: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
