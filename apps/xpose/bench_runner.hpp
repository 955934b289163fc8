// Runs one benchmark case (a shape) on the GPU or the CPU: verify each kernel, then time it.
#pragma once

#include <vector>

#include "bench_options.hpp"
#include "bench_record.hpp"

namespace xpose_cli {

// The --kernels name of xpose::make_measured_plan's choice.
inline constexpr const char* kMeasuredKernel = "tuned";

struct CaseSettings {
  xpose::Backend backend = xpose::Backend::cpu;
  xpose::TransposeDesc desc;  // as the user gave it (0 strides = packed)
  std::string label;          // the case's name in tables ("f32 8192x8192 ld 8200")
  std::vector<xpose::Algorithm> kernels;
  bool measured = false;  // also the measured planner's choice, after `kernels`
  int warmup = 1, iters = 20;
  std::uint64_t seed = 0;
  std::int64_t l2_bytes = 0;  // the device's L2: smaller cases rotate buffers to stay out of it
  std::int64_t offset_in = 0, offset_out = 0;  // elements from each allocation's start to the kernels' pointers
};

// Appends the memcpy baseline and one record per kernel. A non-ok Status means the case could not
// run at all (allocation, device error); a kernel that fails verification is a record, not an error.
xpose::Status run_case(const CaseSettings& settings, std::vector<BenchRecord>& records);

}  // namespace xpose_cli
