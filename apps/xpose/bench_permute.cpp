// One permutation case of `xpose bench`: memcpy of the same bytes, then each plan verified against
// the CPU oracle (the reference plan's loops on the descriptor as given) and timed.
#include "bench_permute.hpp"

#include <string>

#include "bench_timing.hpp"
#include "random_input.hpp"

namespace xpose_cli {

using xpose::Algorithm;
using xpose::Status;

std::string permute_label(const xpose::PermuteDesc& d) {
  std::string s = std::string(xpose::dtype_name(d.dtype)) + " [";
  for (std::size_t i = 0; i < d.extents.size(); ++i) s += (i ? "x" : "") + std::to_string(d.extents[i]);
  s += "] perm ";
  for (std::size_t i = 0; i < d.perm.size(); ++i) s += (i ? "," : "") + std::to_string(d.perm[i]);
  return s;
}

Status run_permute_case(const PermuteCaseSettings& s, std::vector<BenchRecord>& records) {
  const bool gpu = s.backend == xpose::Backend::cuda;
  xpose::PermutePlan reference;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(reference, s.desc, {xpose::Backend::cpu, Algorithm::cpu_reference}));
  const auto bytes = static_cast<std::size_t>(reference.bytes());
  const std::size_t esize = xpose::dtype_size(s.desc.dtype);

  const std::vector<unsigned char> input = random_values(s.desc.dtype, bytes, s.seed);
  std::vector<unsigned char> expected(bytes, kPoison);
  XPOSE_RETURN_IF_ERROR(xpose::execute(reference, input.data(), expected.data()));
  Buffers buffers(gpu, rotating_pairs(gpu, s.l2_bytes, bytes, bytes), bytes, bytes);
  XPOSE_RETURN_IF_ERROR(buffers.allocate(input));

  BenchRecord base;
  base.case_label = permute_label(s.desc);
  base.dtype = xpose::dtype_name(s.desc.dtype);
  base.rows = 1;
  base.cols = static_cast<std::int64_t>(bytes / esize);
  base.bytes_moved = 2.0 * static_cast<double>(bytes);
  base.runs = s.iters;
  base.calls_per_run = gpu ? calls_per_run(buffers.pairs()) : 1;

  xpose::DeviceStream stream;
  if (gpu) XPOSE_RETURN_IF_ERROR(stream.create());
  const CaseTiming timed{gpu, s.warmup, s.iters, buffers.pairs(), stream.handle()};

  BenchRecord copy_rec = base;
  XPOSE_RETURN_IF_ERROR(time_memcpy_baseline(timed, buffers, copy_rec));
  records.push_back(copy_rec);

  for (Algorithm a : s.kernels) {
    BenchRecord rec = base;
    rec.kernel = a == Algorithm::automatic ? "auto" : xpose::algorithm_name(a);
    rec.copy_gbps = copy_rec.gbps;
    xpose::PermutePlan plan;
    XPOSE_RETURN_IF_ERROR(xpose::make_plan(plan, s.desc, {s.backend, a}));
    rec.plan = plan.to_string();
    XPOSE_RETURN_IF_ERROR(buffers.poison_first_output());
    XPOSE_RETURN_IF_ERROR(xpose::execute(plan, buffers.in(0), buffers.out(0), stream.handle()));
    std::vector<unsigned char> got;
    XPOSE_RETURN_IF_ERROR(buffers.read_first_output(got));
    verify_record(rec, got, expected, esize, "");
    XPOSE_RETURN_IF_ERROR(
        timed([&](int k) { return xpose::execute(plan, buffers.in(k), buffers.out(k), stream.handle()); },
              rec.time_us));
    set_rates(rec, copy_rec.gbps);
    records.push_back(rec);
  }
  return Status::ok_status();
}

}  // namespace xpose_cli
