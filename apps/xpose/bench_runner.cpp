// Runs one benchmark case: buffers, the memcpy baseline, and verify-then-time for every kernel.
#include "bench_runner.hpp"

#include "random_input.hpp"

#include <algorithm>
#include <chrono>
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

constexpr unsigned char kPoison = 0xA5;  // outputs are filled with this before every verified run
constexpr int kMaxRotatingPairs = 2048;
constexpr int kMaxCallsPerRun = 256;

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

// Index of the first differing byte's element, or -1.
std::int64_t first_mismatch(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                            std::size_t esize) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return static_cast<std::int64_t>(i / esize);
  return -1;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Per-call median in microseconds of `iters` timed runs, after `warmup` passes over all `pairs`
// buffer pairs.
using Call = std::function<Status(int call_index)>;

double elapsed_us(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
}

// Calls in one timed run: the runtime's launch queue holds about a thousand launches and blocks the
// host when full, so longer runs would let the GPU drain the queue and wait on the host again.
int calls_per_run(int pairs) { return std::min(pairs, kMaxCallsPerRun); }

// Enqueueing a call takes the host microseconds, longer than a small transpose runs: timed as it
// comes, the GPU would idle between calls and the events would time the host. So each run is queued
// behind a kernel that holds the stream for twice the time a run takes to enqueue (plus 50 us); the
// calls then run back to back. A run whose enqueueing outlasted the hold is timed again with a
// hold twice as long. Run i takes the buffer pairs after run i - 1's, so every pair is cold in
// the L2 when its turn comes.
Status time_gpu(int warmup, int iters, int pairs, xpose::StreamHandle stream, const Call& call, double& median_us) {
  for (int w = 0; w < warmup; ++w)
    for (int k = 0; k < pairs; ++k) XPOSE_RETURN_IF_ERROR(call(k));
  const int calls = calls_per_run(pairs);
  XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < calls; ++k) XPOSE_RETURN_IF_ERROR(call(k));
  double hold_us = std::min(2.0 * elapsed_us(t0) + 50.0, 500000.0);
  XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
  xpose::EventPair events;
  XPOSE_RETURN_IF_ERROR(events.create());
  std::vector<double> us(iters);
  int next = calls % pairs;
  for (int i = 0; i < iters; ++i) {
    for (int attempt = 0;; ++attempt) {
      XPOSE_RETURN_IF_ERROR(xpose::hold_stream(hold_us, stream));
      const auto enqueued = std::chrono::steady_clock::now();
      XPOSE_RETURN_IF_ERROR(events.record_start(stream));
      for (int k = 0; k < calls; ++k) XPOSE_RETURN_IF_ERROR(call((next + k) % pairs));
      XPOSE_RETURN_IF_ERROR(events.record_stop(stream));
      const bool held = elapsed_us(enqueued) < hold_us;
      next = (next + calls) % pairs;
      float ms = 0;
      XPOSE_RETURN_IF_ERROR(events.elapsed_ms(ms));
      us[i] = 1000.0 * ms / calls;
      if (held || attempt == 3) break;
      hold_us = std::min(2.0 * hold_us, 500000.0);
    }
  }
  XPOSE_RETURN_IF_ERROR(xpose::last_device_error());
  median_us = median(us);
  return Status::ok_status();
}

Status time_cpu(int warmup, int iters, const Call& call, double& median_us) {
  for (int w = 0; w < warmup; ++w) XPOSE_RETURN_IF_ERROR(call(0));
  std::vector<double> us(iters);
  for (int i = 0; i < iters; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    XPOSE_RETURN_IF_ERROR(call(0));
    us[i] = elapsed_us(t0);
  }
  median_us = median(us);
  return Status::ok_status();
}

// Input/output buffers on one backend; several pairs when rotating past the L2.
class Buffers {
 public:
  Buffers(bool gpu, int pairs, std::size_t in_bytes, std::size_t out_bytes)
      : gpu_(gpu), pairs_(pairs), in_bytes_(in_bytes), out_bytes_(out_bytes) {}

  Status allocate(const std::vector<unsigned char>& input) {
    if (!gpu_) {
      host_in_ = input;
      host_out_.assign(out_bytes_, kPoison);
      return Status::ok_status();
    }
    dev_in_.resize(pairs_);
    dev_out_.resize(pairs_);
    for (int k = 0; k < pairs_; ++k) {
      XPOSE_RETURN_IF_ERROR(dev_in_[k].allocate(in_bytes_));
      XPOSE_RETURN_IF_ERROR(dev_out_[k].allocate(out_bytes_));
      XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(dev_in_[k].data(), input.data(), in_bytes_));
    }
    return Status::ok_status();
  }
  int pairs() const { return pairs_; }
  const void* in(int k) const { return gpu_ ? dev_in_[k].data() : static_cast<const void*>(host_in_.data()); }
  void* out(int k) { return gpu_ ? dev_out_[k].data() : static_cast<void*>(host_out_.data()); }

  Status poison_first_output() {
    if (!gpu_) {
      std::fill(host_out_.begin(), host_out_.end(), kPoison);
      return Status::ok_status();
    }
    return xpose::fill_device_bytes(dev_out_[0].data(), kPoison, out_bytes_);
  }
  // The first output as bytes on the host (waits for the GPU).
  Status read_first_output(std::vector<unsigned char>& bytes) {
    if (!gpu_) {
      bytes = host_out_;
      return Status::ok_status();
    }
    bytes.resize(out_bytes_);
    XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
    return xpose::copy_device_to_host(bytes.data(), dev_out_[0].data(), out_bytes_);
  }

 private:
  bool gpu_;
  int pairs_;
  std::size_t in_bytes_, out_bytes_;
  std::vector<xpose::DeviceBuffer> dev_in_, dev_out_;
  std::vector<unsigned char> host_in_, host_out_;
};

std::string repro_line(const CaseSettings& s, const std::string& kernel) {
  const xpose::TransposeDesc& d = s.desc;
  std::string line = std::string("xpose bench --backend ") + xpose::backend_name(s.backend) + " --dtype " +
                     xpose::dtype_name(d.dtype) + " --shape " + std::to_string(d.rows) + "x" + std::to_string(d.cols);
  if (d.batch > 1) line += " --batch " + std::to_string(d.batch);
  if (d.ld_in) line += " --ld-in " + std::to_string(d.ld_in);
  if (d.ld_out) line += " --ld-out " + std::to_string(d.ld_out);
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
  const double useful_bytes = static_cast<double>(d.batch * d.rows * d.cols) * esize;

  // Rotate buffer pairs so that the calls between two uses of a pair touch about 3x the L2: a
  // repeated small case would otherwise measure the cache, not the memory.
  int pairs = 1;
  if (gpu && s.l2_bytes > 0) {
    const double want = 3.0 * s.l2_bytes / static_cast<double>(in_bytes + out_bytes);
    pairs = static_cast<int>(std::clamp(want, 1.0, static_cast<double>(kMaxRotatingPairs)));
  }

  HostData host;
  XPOSE_RETURN_IF_ERROR(make_host_data(reference, in_bytes, out_bytes, s.seed, host));
  Buffers buffers(gpu, pairs, in_bytes, out_bytes);
  XPOSE_RETURN_IF_ERROR(buffers.allocate(host.input));

  BenchRecord base;
  base.case_label = s.label;
  base.dtype = xpose::dtype_name(d.dtype);
  base.rows = d.rows;
  base.cols = d.cols;
  base.batch = d.batch;
  base.ld_in = d.ld_in;
  base.ld_out = d.ld_out;
  base.batch_stride_in = d.batch_stride_in;
  base.batch_stride_out = d.batch_stride_out;
  base.bytes_moved = 2.0 * useful_bytes;
  base.runs = s.iters;
  base.calls_per_run = gpu ? calls_per_run(buffers.pairs()) : 1;

  // Timed work goes to a stream of its own, as a library user's would.
  xpose::DeviceStream stream;
  if (gpu) XPOSE_RETURN_IF_ERROR(stream.create());
  const auto timed = [&](const Call& call, double& us) {
    return gpu ? time_gpu(s.warmup, s.iters, buffers.pairs(), stream.handle(), call, us)
               : time_cpu(s.warmup, s.iters, call, us);
  };

  // The ceiling: memcpy of the same useful bytes, in this process, timed the same way.
  BenchRecord copy_rec = base;
  copy_rec.kernel = "memcpy";
  copy_rec.plan = gpu ? "device-to-device copy" : "std::memcpy, threads as cpu_blocked";
  copy_rec.verification = "-";
  const auto bytes = static_cast<std::size_t>(useful_bytes);
  XPOSE_RETURN_IF_ERROR(timed(
      [&](int k) -> Status {
        if (gpu) return xpose::copy_device_to_device(buffers.out(k), buffers.in(k), bytes, stream.handle());
        xpose::copy_host_to_host(buffers.out(k), buffers.in(k), bytes);
        return Status::ok_status();
      },
      copy_rec.time_us));
  copy_rec.gbps = copy_rec.bytes_moved / (copy_rec.time_us * 1e3);
  copy_rec.copy_gbps = copy_rec.gbps;
  copy_rec.pct_of_copy = 100.0;
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
    const std::int64_t bad = first_mismatch(got, want, esize);
    rec.verification = bad < 0 ? "PASSED" : "FAILED";
    if (bad >= 0) rec.note = "first mismatch at output element " + std::to_string(bad) + "; reproduce: " + repro;
    XPOSE_RETURN_IF_ERROR(
        timed([&](int k) { return xpose::execute(plan, buffers.in(k), buffers.out(k), stream.handle()); },
              rec.time_us));
    rec.gbps = rec.bytes_moved / (rec.time_us * 1e3);
    rec.pct_of_copy = 100.0 * rec.gbps / copy_rec.gbps;
    return Status::ok_status();
  };

  for (Algorithm a : s.kernels) {
    BenchRecord rec = base;
    rec.kernel = xpose::algorithm_name(a);
    rec.copy_gbps = copy_rec.gbps;
    xpose::Plan plan;
    const Status planned = xpose::make_plan(plan, raw, {s.backend, a});
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
