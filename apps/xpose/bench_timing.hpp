// The bench's timing and buffers, shared by its transpose and permutation cases: GPU runs queued
// behind a held stream with rotating buffer pairs, CPU runs timed one by one, medians.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {

constexpr unsigned char kPoison = 0xA5;  // outputs are filled with this before every verified run

// Index of the first differing byte's element, or -1.
std::int64_t first_mismatch(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                            std::size_t esize);

// One call of the timed work on buffer pair `call_index`.
using Call = std::function<xpose::Status(int call_index)>;

// Buffer pairs to rotate through so that the calls between two uses of a pair touch about 3x the
// L2: a repeated small case would otherwise measure the cache, not the memory (1 on the CPU).
int rotating_pairs(bool gpu, std::int64_t l2_bytes, std::size_t in_bytes, std::size_t out_bytes);

// Calls in one timed GPU run.
int calls_per_run(int pairs);

// Per-call median in microseconds of `iters` timed runs, after `warmup` passes over all `pairs`
// buffer pairs (GPU: events on `stream`), or of `iters` calls (CPU: the host clock).
xpose::Status time_gpu(int warmup, int iters, int pairs, xpose::StreamHandle stream, const Call& call,
                       double& median_us);
xpose::Status time_cpu(int warmup, int iters, const Call& call, double& median_us);

// How a case's calls are timed: on the GPU, queued on `stream` over `pairs` buffer pairs
// (time_gpu); on the CPU, one by one (time_cpu).
struct CaseTiming {
  bool gpu = false;
  int warmup = 1, iters = 1, pairs = 1;
  xpose::StreamHandle stream = nullptr;
  xpose::Status operator()(const Call& call, double& median_us) const;
};

// A matrix case's record before any run: `label`, the resolved descriptor's layout, and the useful
// bytes moved (every element read and written once).
BenchRecord matrix_record(const std::string& label, const xpose::TransposeDesc& resolved_desc, int runs,
                          int calls_per_run);

// rec.gbps from rec.time_us, and rec.pct_of_copy against `copy_gbps`.
void set_rates(BenchRecord& rec, double copy_gbps);

// rec.verification from the first element where `got` and `want` differ, with a note naming it
// (and `repro`, where given, the command that reproduces it).
void verify_record(BenchRecord& rec, const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                   std::size_t esize, const std::string& repro);

// Input/output buffers on one backend; several pairs when rotating past the L2. The kernels get
// pointers `in_offset` / `out_offset` bytes past each allocation's start (a cudaMalloc or malloc
// alignment); the memcpy baseline copies between the starts themselves.
class Buffers {
 public:
  Buffers(bool gpu, int pairs, std::size_t in_bytes, std::size_t out_bytes, std::size_t in_offset = 0,
          std::size_t out_offset = 0)
      : gpu_(gpu), pairs_(pairs), in_bytes_(in_bytes), out_bytes_(out_bytes), in_offset_(in_offset),
        out_offset_(out_offset) {}

  xpose::Status allocate(const std::vector<unsigned char>& input) {
    if (!gpu_) {
      host_in_.assign(in_offset_, 0);
      host_in_.insert(host_in_.end(), input.begin(), input.end());
      host_out_.assign(out_offset_ + out_bytes_, kPoison);
      return xpose::Status::ok_status();
    }
    dev_in_.resize(pairs_);
    dev_out_.resize(pairs_);
    for (int k = 0; k < pairs_; ++k) {
      XPOSE_RETURN_IF_ERROR(dev_in_[k].allocate(in_offset_ + in_bytes_));
      XPOSE_RETURN_IF_ERROR(dev_out_[k].allocate(out_offset_ + out_bytes_));
      XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(static_cast<unsigned char*>(dev_in_[k].data()) + in_offset_,
                                                        input.data(), in_bytes_));
    }
    return xpose::Status::ok_status();
  }
  int pairs() const { return pairs_; }
  const void* in(int k) const { return static_cast<const unsigned char*>(in_start(k)) + in_offset_; }
  void* out(int k) { return static_cast<unsigned char*>(out_start(k)) + out_offset_; }
  // The allocations' starts, which the memcpy baseline copies between.
  const void* in_start(int k) const {
    return gpu_ ? dev_in_[k].data() : static_cast<const void*>(host_in_.data());
  }
  void* out_start(int k) { return gpu_ ? dev_out_[k].data() : static_cast<void*>(host_out_.data()); }

  xpose::Status poison_first_output() {
    if (!gpu_) {
      std::fill(host_out_.begin(), host_out_.end(), kPoison);
      return xpose::Status::ok_status();
    }
    return xpose::fill_device_bytes(out(0), kPoison, out_bytes_);
  }
  // The first output as bytes on the host (waits for the GPU).
  xpose::Status read_first_output(std::vector<unsigned char>& bytes) {
    if (!gpu_) {
      bytes.assign(host_out_.begin() + static_cast<std::ptrdiff_t>(out_offset_), host_out_.end());
      return xpose::Status::ok_status();
    }
    bytes.resize(out_bytes_);
    XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
    return xpose::copy_device_to_host(bytes.data(), out(0), out_bytes_);
  }

 private:
  bool gpu_;
  int pairs_;
  std::size_t in_bytes_, out_bytes_, in_offset_, out_offset_;
  std::vector<xpose::DeviceBuffer> dev_in_, dev_out_;
  std::vector<unsigned char> host_in_, host_out_;
};

// The ceiling every ratio is against: memcpy of the case's useful bytes (half of rec.bytes_moved) from
// each pair's input to its output, in this process, timed as `timing` says. `rec` (with the case's
// fields set) gets its name, time and rates.
xpose::Status time_memcpy_baseline(const CaseTiming& timing, Buffers& buffers, BenchRecord& rec);

}  // namespace xpose_cli
