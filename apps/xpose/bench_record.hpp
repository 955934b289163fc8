// One measured row of `xpose bench`: a kernel on a shape, its time, bandwidth and verification.
#pragma once

#include <cstdint>
#include <string>

namespace xpose_cli {

struct BenchRecord {
  std::string case_label;    // "f32 8192x8192", "bf16 64x2048x2048", "u8 8192x8192 ld 8200"
  std::string kernel;        // algorithm name, or "memcpy" for the baseline
  std::string plan;          // the plan as printed by xpose::Plan
  std::string dtype;
  std::int64_t rows = 0, cols = 0, batch = 1;
  std::int64_t ld_in = 0, ld_out = 0, batch_stride_in = 0, batch_stride_out = 0;
  std::int64_t offset_in = 0, offset_out = 0;  // elements from each allocation's start to the kernels' pointers
  double bytes_moved = 0;    // useful bytes read + written
  double time_us = 0;        // median over the timed runs, per call
  double gbps = 0;           // bytes_moved / time
  double copy_gbps = 0;      // memcpy of the same bytes, same run
  double pct_of_copy = 0;
  int runs = 0;              // timed runs (each an event pair)
  int calls_per_run = 0;     // calls inside one run (> 1 when buffers rotate to defeat the L2)
  std::string verification;  // PASSED, FAILED, SKIPPED, or "-" for the memcpy baseline
  std::string note;          // why a kernel was skipped, or where verification failed
};

}  // namespace xpose_cli
