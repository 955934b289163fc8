// The bench's timing: GPU runs queued behind a held stream, CPU runs by the host clock.
#include "bench_timing.hpp"

#include <algorithm>
#include <chrono>

namespace xpose_cli {
namespace {

using xpose::Status;

constexpr int kMaxRotatingPairs = 2048;
constexpr int kMaxCallsPerRun = 256;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double elapsed_us(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

// Index of the first differing byte's element, or -1.
std::int64_t first_mismatch(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                            std::size_t esize) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return static_cast<std::int64_t>(i / esize);
  return -1;
}

int rotating_pairs(bool gpu, std::int64_t l2_bytes, std::size_t in_bytes, std::size_t out_bytes) {
  if (!gpu || l2_bytes <= 0) return 1;
  const double want = 3.0 * static_cast<double>(l2_bytes) / static_cast<double>(in_bytes + out_bytes);
  return static_cast<int>(std::clamp(want, 1.0, static_cast<double>(kMaxRotatingPairs)));
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

Status CaseTiming::operator()(const Call& call, double& median_us) const {
  return gpu ? time_gpu(warmup, iters, pairs, stream, call, median_us) : time_cpu(warmup, iters, call, median_us);
}

BenchRecord matrix_record(const std::string& label, const xpose::TransposeDesc& d, int runs, int calls_per_run) {
  BenchRecord rec;
  rec.case_label = label;
  rec.dtype = xpose::dtype_name(d.dtype);
  rec.rows = d.rows;
  rec.cols = d.cols;
  rec.batch = d.batch;
  rec.ld_in = d.ld_in;
  rec.ld_out = d.ld_out;
  rec.batch_stride_in = d.batch_stride_in;
  rec.batch_stride_out = d.batch_stride_out;
  const auto elements = static_cast<double>(d.batch * d.rows * d.cols);
  rec.bytes_moved = 2.0 * elements * static_cast<double>(xpose::dtype_size(d.dtype));
  rec.runs = runs;
  rec.calls_per_run = calls_per_run;
  return rec;
}

void set_rates(BenchRecord& rec, double copy_gbps) {
  rec.gbps = rec.bytes_moved / (rec.time_us * 1e3);
  rec.pct_of_copy = 100.0 * rec.gbps / copy_gbps;
}

void verify_record(BenchRecord& rec, const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                   std::size_t esize, const std::string& repro) {
  const std::int64_t bad = first_mismatch(got, want, esize);
  rec.verification = bad < 0 ? "PASSED" : "FAILED";
  if (bad >= 0)
    rec.note =
        "first mismatch at output element " + std::to_string(bad) + (repro.empty() ? "" : "; reproduce: " + repro);
}

Status time_memcpy_baseline(const CaseTiming& timing, Buffers& buffers, BenchRecord& rec) {
  const auto bytes = static_cast<std::size_t>(rec.bytes_moved / 2);  // read once, written once
  rec.kernel = "memcpy";
  rec.plan = timing.gpu ? "device-to-device copy" : "std::memcpy, threads as cpu_blocked";
  rec.verification = "-";
  XPOSE_RETURN_IF_ERROR(timing(
      [&](int k) -> Status {
        if (timing.gpu)
          return xpose::copy_device_to_device(buffers.out_start(k), buffers.in_start(k), bytes, timing.stream);
        xpose::copy_host_to_host(buffers.out_start(k), buffers.in_start(k), bytes);
        return Status::ok_status();
      },
      rec.time_us));
  rec.gbps = rec.bytes_moved / (rec.time_us * 1e3);
  rec.copy_gbps = rec.gbps;
  rec.pct_of_copy = 100.0;
  return Status::ok_status();
}

}  // namespace xpose_cli
