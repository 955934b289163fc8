// Runs one benchmark case: buffers, the memcpy baseline, and verify-then-time for every kernel.
#include "bench_runner.hpp"

#include "bench_timing.hpp"
#include "random_input.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iomanip>
#include <random>
#include <sstream>

namespace xpose_cli {
namespace {

using xpose::Algorithm;
using xpose::Status;
using xpose::StatusCode;

struct HostData {
  std::vector<unsigned char> input, expected_transpose, expected_copy;
};

// Random input; expected outputs are poison wherever the kernel must not write. The transpose is
// computed by the library's CPU reference (plain loops), the copy by whole-row memcpy.
Status make_host_data(const xpose::Plan& reference, std::size_t in_bytes, std::size_t out_bytes,
                      std::uint64_t seed, HostData& h) {
  const xpose::TransposeDesc& d = reference.desc();
  const std::size_t esize = xpose::dtype_size(d.dtype);
  h.input = random_values(d.dtype, in_bytes, seed);
  h.expected_transpose.assign(out_bytes, kPoison);
  XPOSE_RETURN_IF_ERROR(xpose::execute(reference, h.input.data(), h.expected_transpose.data()));
  h.expected_copy.assign(in_bytes, kPoison);
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r) {
      const std::size_t at = static_cast<std::size_t>(b * d.batch_stride_in + r * d.ld_in) * esize;
      std::memcpy(h.expected_copy.data() + at, h.input.data() + at, static_cast<std::size_t>(d.cols) * esize);
    }
  return Status::ok_status();
}

std::string repro_line(const CaseSettings& s, const std::string& kernel) {
  const xpose::TransposeDesc& d = s.desc;
  std::string line = std::string("xpose bench --backend ") + xpose::backend_name(s.backend) + " --dtype " +
                     xpose::dtype_name(d.dtype) + " --shape " + std::to_string(d.rows) + "x" + std::to_string(d.cols);
  if (d.batch > 1) line += " --batch " + std::to_string(d.batch);
  if (d.ld_in) line += " --ld-in " + std::to_string(d.ld_in);
  if (d.ld_out) line += " --ld-out " + std::to_string(d.ld_out);
  if (s.offset_in) line += " --offset-in " + std::to_string(s.offset_in);
  if (s.offset_out) line += " --offset-out " + std::to_string(s.offset_out);
  return line + " --kernels " + kernel;
}

// How the measured planner chose: from its cache, or the heuristic choice against the fastest.
std::string measured_note(const xpose::MeasuredPlanReport& r) {
  if (r.from_cache) return "measured plan: shape class timed before, taken from the cache";
  if (r.candidates.empty()) return "measured plan: nothing to measure on this backend";
  double fastest = r.candidates.front().us;
  int timed = 0;
  for (const auto& c : r.candidates) {
    if (c.us < 0) continue;
    ++timed;
    fastest = std::min(fastest, c.us);
  }
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << "measured plan: " << timed << " of " << r.candidates.size()
     << " candidates timed; heuristic choice " << r.candidates.front().us << " us, fastest " << fastest << " us";
  return os.str();
}

// The alignment the kernels' pointers keep: what PlanOptions::alignment promises for them (0: the
// default 16 bytes, where neither pointer is moved off it).
int offsets_alignment(std::size_t in_offset_bytes, std::size_t out_offset_bytes) {
  int a = 16;
  while (a > 1 && ((in_offset_bytes | out_offset_bytes) % static_cast<std::size_t>(a)) != 0) a /= 2;
  return a == 16 ? 0 : a;
}

}  // namespace

Status run_case(const CaseSettings& s, std::vector<BenchRecord>& records) {
  const bool gpu = s.backend == xpose::Backend::cuda;
  const xpose::TransposeDesc& raw = s.desc;
  xpose::Plan reference;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(reference, raw, {xpose::Backend::cpu, Algorithm::cpu_reference}));
  const xpose::TransposeDesc& d = reference.desc();
  const std::size_t esize = xpose::dtype_size(d.dtype);
  const std::size_t in_bytes = static_cast<std::size_t>(xpose::input_span_elements(d)) * esize;
  const std::size_t out_bytes =
      std::max(in_bytes, static_cast<std::size_t>(xpose::output_span_elements(d)) * esize);

  const int pairs = rotating_pairs(gpu, s.l2_bytes, in_bytes, out_bytes);

  HostData host;
  XPOSE_RETURN_IF_ERROR(make_host_data(reference, in_bytes, out_bytes, s.seed, host));
  const auto in_offset = static_cast<std::size_t>(s.offset_in) * esize;
  const auto out_offset = static_cast<std::size_t>(s.offset_out) * esize;
  Buffers buffers(gpu, pairs, in_bytes, out_bytes, in_offset, out_offset);
  XPOSE_RETURN_IF_ERROR(buffers.allocate(host.input));
  const int alignment = offsets_alignment(in_offset, out_offset);

  BenchRecord base = matrix_record(s.label, d, s.iters, gpu ? calls_per_run(buffers.pairs()) : 1);
  base.offset_in = s.offset_in;
  base.offset_out = s.offset_out;

  // Timed work goes to a stream of its own, as a library user's would.
  xpose::DeviceStream stream;
  if (gpu) XPOSE_RETURN_IF_ERROR(stream.create());
  const CaseTiming timed{gpu, s.warmup, s.iters, buffers.pairs(), stream.handle()};

  BenchRecord copy_rec = base;
  XPOSE_RETURN_IF_ERROR(time_memcpy_baseline(timed, buffers, copy_rec));
  records.push_back(copy_rec);

  // Checks a plan's output (written by `run` into the poisoned first pair) against the CPU
  // transpose, then times the plan.
  const auto verify_and_time = [&](BenchRecord& rec, const xpose::Plan& plan, const std::function<Status()>& run,
                                   const std::string& repro) -> Status {
    XPOSE_RETURN_IF_ERROR(buffers.poison_first_output());
    XPOSE_RETURN_IF_ERROR(run());
    rec.plan = plan.to_string();
    std::vector<unsigned char> got;
    XPOSE_RETURN_IF_ERROR(buffers.read_first_output(got));
    const auto& want = plan.algorithm() == Algorithm::copy ? host.expected_copy : host.expected_transpose;
    got.resize(want.size());  // the copy baseline writes only the input's span
    verify_record(rec, got, want, esize, repro);
    XPOSE_RETURN_IF_ERROR(
        timed([&](int k) { return xpose::execute(plan, buffers.in(k), buffers.out(k), stream.handle()); },
              rec.time_us));
    set_rates(rec, copy_rec.gbps);
    return Status::ok_status();
  };

  for (Algorithm a : s.kernels) {
    BenchRecord rec = base;
    rec.kernel = xpose::algorithm_name(a);
    rec.copy_gbps = copy_rec.gbps;
    xpose::Plan plan;
    // Planned for the pointers the kernels get, as xpose::transpose would (their alignment and offsets).
    xpose::PlanOptions options{s.backend, a, alignment};
    options.in_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(buffers.in(0)) % xpose::kPointerOffsetGrid);
    options.out_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(buffers.out(0)) % xpose::kPointerOffsetGrid);
    const Status planned = xpose::make_plan(plan, raw, options);
    if (!planned.ok()) {
      rec.verification = "SKIPPED";
      rec.note = planned.message();
      records.push_back(rec);
      continue;
    }
    const auto run = [&] { return xpose::execute(plan, buffers.in(0), buffers.out(0)); };
    XPOSE_RETURN_IF_ERROR(verify_and_time(rec, plan, run, repro_line(s, xpose::algorithm_name(a))));
    records.push_back(rec);
  }

  if (s.measured) {
    // The measured planner's choice: planning times the candidates on the first pair and leaves the
    // transpose in its output, which is what gets verified.
    BenchRecord rec = base;
    rec.kernel = kMeasuredKernel;
    rec.copy_gbps = copy_rec.gbps;
    xpose::Plan plan;
    xpose::MeasuredPlanReport report;
    const xpose::PlanOptions options{s.backend, Algorithm::automatic};
    const auto run = [&] {
      return xpose::make_measured_plan(plan, raw, buffers.in(0), buffers.out(0), stream.handle(), options, &report);
    };
    XPOSE_RETURN_IF_ERROR(verify_and_time(rec, plan, run, repro_line(s, kMeasuredKernel)));
    if (rec.note.empty()) rec.note = measured_note(report);
    records.push_back(rec);
  }
  return Status::ok_status();
}

}  // namespace xpose_cli
