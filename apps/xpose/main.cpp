// The xpose command line: subcommands over the public API; errors are one line and exit code 2.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_command.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  CLI::App app{"xpose: GPU matrix transpose as fast as copying the same bytes"};
  app.require_subcommand(1);
  xpose_cli::BenchArgs bench_args;
  CLI::App* bench = xpose_cli::add_bench_command(app, bench_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help(bench->parsed() ? "bench" : "");
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (message.empty()) message = "missing subcommand (try: xpose bench, or --help)";
    std::cerr << "xpose: error: " << message << "\n";
    return 2;
  }
  try {
    if (bench->parsed()) return xpose_cli::run_bench(bench_args, args);
  } catch (const std::exception& e) {  // e.g. out of host memory for a huge --shape
    std::cerr << "xpose: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
