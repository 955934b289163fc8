// The benchmark suite (`xpose bench --suite`): its cases and its one summary table.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {

struct SuiteCase {
  std::string label;
  xpose::TransposeDesc desc;
  bool small = false;  // launch-latency bound: judged by time against memcpy, not bandwidth
};

// Every suite shape for f64, f32, bf16, u8 and c128.
std::vector<SuiteCase> suite_cases();

// One row per case: plan, GB/s, ratio to same-run memcpy, ratio to cuBLAS geam where it has the type.
void print_suite_table(std::ostream& os, const std::string& device_name, const std::vector<BenchRecord>& records);

}  // namespace xpose_cli
