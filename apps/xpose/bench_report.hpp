// Output of `xpose bench`: the printed tables, the summary, JSON and CSV files.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {

struct RunContext {
  std::vector<std::string> argv;
  std::string backend;       // "cuda" or "cpu"
  bool have_device = false;
  xpose::DeviceInfo device;  // valid when have_device
  int warmup = 0, iters = 0;
};

// The heading printed once per shape, in the tutorials' words.
void print_case_header(std::ostream& os, const BenchRecord& first);
// One line per record of a case.
void print_case_rows(std::ostream& os, const std::vector<BenchRecord>& records, std::size_t first);
// Time, speedup over the slowest naive rung, bandwidth and % of memcpy at the largest case.
void print_summary(std::ostream& os, const RunContext& ctx, const std::vector<BenchRecord>& records);

xpose::Status write_json(const std::string& path, const RunContext& ctx, const std::vector<BenchRecord>& records);
xpose::Status write_csv(const std::string& path, const std::vector<BenchRecord>& records);

}  // namespace xpose_cli
