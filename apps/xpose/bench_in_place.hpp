// Runs one in-place case of `xpose bench --in-place`: memcpy of the matrices' bytes, then the
// library's in-place plan verified against the CPU oracle and timed.
#pragma once

#include <string>
#include <vector>

#include "bench_record.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {

struct InPlaceCaseSettings {
  xpose::Backend backend = xpose::Backend::cpu;
  xpose::TransposeDesc desc;  // ld_out and batch_stride_out 0 (the input's, or packed rows for non-square)
  std::string label;
  int warmup = 1, iters = 20;
  std::uint64_t seed = 0;
  std::int64_t l2_bytes = 0;  // the device's L2: small cases rotate buffers to stay out of it
};

// Appends the memcpy baseline and the record of the in-place plan (kernel "in_place"). A non-ok
// Status means the case could not run (a refused descriptor, allocation, device error).
xpose::Status run_in_place_case(const InPlaceCaseSettings& settings, std::vector<BenchRecord>& records);

}  // namespace xpose_cli
