// Runs one permutation case of `xpose bench --permute`: the memcpy baseline, then each asked-for
// plan verified against the CPU oracle and timed.
#pragma once

#include <vector>

#include "bench_record.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {

struct PermuteCaseSettings {
  xpose::Backend backend = xpose::Backend::cpu;
  xpose::PermuteDesc desc;
  std::vector<xpose::Algorithm> kernels;  // automatic (the library's plan) and/or cpu_reference
  int warmup = 1, iters = 20;
  std::uint64_t seed = 0;
  std::int64_t l2_bytes = 0;  // the device's L2: small cases rotate buffers to stay out of it
};

// "bf16 [8x16x512x64] perm 0,2,1,3"
std::string permute_label(const xpose::PermuteDesc& desc);

// Appends the memcpy baseline and one record per kernel (named "auto" or "cpu_reference"). A
// non-ok Status means the case could not run (a refused descriptor, allocation, device error).
xpose::Status run_permute_case(const PermuteCaseSettings& settings, std::vector<BenchRecord>& records);

}  // namespace xpose_cli
