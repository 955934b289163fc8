// The public device utilities (xpose/device.hpp) and pointer checks, over the runtime layer.
#include <utility>

#include "gpu/gpu_backend.hpp"
#include "gpu/runtime.hpp"
#include "plan/gpu_planner.hpp"
#include "xpose/device.hpp"

namespace xpose {
namespace {

// One thread that returns once `cycles` SM clock cycles have passed.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// SM clock cycles per microsecond: a spin of known length timed with events (the second one, the
// first also pays for loading the kernel); 0 when that fails.
double measure_spin_rate() {
  constexpr long long kCycles = 4000000;
  EventPair events;
  float ms = 0.0f;
  bool ok = events.create().ok();
  for (int i = 0; i < 2 && ok; ++i) {
    ok = events.record_start().ok();
    spin_kernel<<<1, 1>>>(kCycles);
    ok = ok && rt::get_last_error() == rt::kSuccess && events.record_stop().ok() && events.elapsed_ms(ms).ok();
  }
  return ok && ms > 0.0f ? kCycles / (1000.0 * ms) : 0.0;
}

}  // namespace

bool gpu_backend_built() { return true; }

int device_count() {
  int n = 0;
  if (rt::get_device_count(&n) != rt::kSuccess) {
    (void)rt::get_last_error();  // no driver / no device: clear the sticky-free error and say none
    return 0;
  }
  return n;
}

Status device_info(DeviceInfo& info) {
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  int dev = 0;
  XPOSE_GPU_TRY(rt::get_device(&dev));
  rt::DeviceProp prop{};
  XPOSE_GPU_TRY(rt::get_device_properties(&prop, dev));
  DeviceInfo out;
  out.vendor = rt::kVendor;
  out.name = prop.name;
  out.arch = rt::arch_name(prop);
  out.sm_count = prop.multiProcessorCount;
  out.l2_bytes = prop.l2CacheSize;
  out.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  out.memory_bus_width_bits = prop.memoryBusWidth;
  out.memory_clock_khz = rt::memory_clock_khz(dev);
  // HBM/GDDR move data on both clock edges.
  out.theoretical_gbps = 2.0 * out.memory_clock_khz * 1e3 * (out.memory_bus_width_bits / 8.0) / 1e9;
  XPOSE_GPU_TRY(rt::runtime_version(&out.runtime_version));
  XPOSE_GPU_TRY(rt::driver_version(&out.driver_version));
  info = std::move(out);
  return Status::ok_status();
}

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Status DeviceBuffer::allocate(std::size_t bytes) {
  reset();
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  void* p = nullptr;
  XPOSE_GPU_TRY(rt::malloc_device(&p, bytes));
  ptr_ = p;
  bytes_ = bytes;
  return Status::ok_status();
}

void DeviceBuffer::reset() {
  if (ptr_ != nullptr) (void)rt::free_device(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

Status copy_host_to_device(void* dst, const void* src, std::size_t bytes) {
  XPOSE_GPU_TRY(rt::copy_h2d(dst, src, bytes));
  return Status::ok_status();
}

Status copy_device_to_host(void* dst, const void* src, std::size_t bytes) {
  XPOSE_GPU_TRY(rt::copy_d2h(dst, src, bytes));
  return Status::ok_status();
}

Status copy_device_to_device(void* dst, const void* src, std::size_t bytes, StreamHandle stream) {
  XPOSE_GPU_TRY(rt::copy_d2d_async(dst, src, bytes, static_cast<rt::Stream>(stream)));
  return Status::ok_status();
}

Status fill_device_bytes(void* dst, unsigned char value, std::size_t bytes, StreamHandle stream) {
  XPOSE_GPU_TRY(rt::memset_async(dst, value, bytes, static_cast<rt::Stream>(stream)));
  return Status::ok_status();
}

Status synchronize_device() {
  XPOSE_GPU_TRY(rt::device_synchronize());
  return Status::ok_status();
}

Status hold_stream(double microseconds, StreamHandle stream) {
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  static const double cycles_per_us = measure_spin_rate();
  if (cycles_per_us <= 0.0) return Status(StatusCode::internal, "could not time the stream-holding kernel");
  spin_kernel<<<1, 1, 0, static_cast<rt::Stream>(stream)>>>(static_cast<long long>(microseconds * cycles_per_us));
  XPOSE_GPU_TRY(rt::get_last_error());
  return Status::ok_status();
}

Status last_device_error() {
  XPOSE_GPU_TRY(rt::get_last_error());
  return Status::ok_status();
}

Status profiler_start() {
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  XPOSE_GPU_TRY(rt::profiler_start());
  return Status::ok_status();
}

Status profiler_stop() {
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  XPOSE_GPU_TRY(rt::profiler_stop());
  return Status::ok_status();
}

DeviceStream::~DeviceStream() {
  if (stream_) (void)rt::stream_destroy(static_cast<rt::Stream>(stream_));
}

DeviceStream::DeviceStream(DeviceStream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}

DeviceStream& DeviceStream::operator=(DeviceStream&& other) noexcept {
  std::swap(stream_, other.stream_);
  return *this;
}

Status DeviceStream::create() {
  if (device_count() == 0) return Status(StatusCode::no_device, "no GPU device found");
  rt::Stream st = nullptr;
  XPOSE_GPU_TRY(rt::stream_create(&st));
  if (stream_) (void)rt::stream_destroy(static_cast<rt::Stream>(stream_));
  stream_ = st;
  return Status::ok_status();
}

EventPair::~EventPair() {
  if (start_) (void)rt::event_destroy(static_cast<rt::Event>(start_));
  if (stop_) (void)rt::event_destroy(static_cast<rt::Event>(stop_));
}

EventPair::EventPair(EventPair&& other) noexcept
    : start_(std::exchange(other.start_, nullptr)), stop_(std::exchange(other.stop_, nullptr)) {}

EventPair& EventPair::operator=(EventPair&& other) noexcept {
  std::swap(start_, other.start_);
  std::swap(stop_, other.stop_);
  return *this;
}

Status EventPair::create() {
  rt::Event a = nullptr, b = nullptr;
  XPOSE_GPU_TRY(rt::event_create(&a));
  start_ = a;
  XPOSE_GPU_TRY(rt::event_create(&b));
  stop_ = b;
  return Status::ok_status();
}

Status EventPair::record_start(StreamHandle stream) {
  XPOSE_GPU_TRY(rt::event_record(static_cast<rt::Event>(start_), static_cast<rt::Stream>(stream)));
  return Status::ok_status();
}

Status EventPair::record_stop(StreamHandle stream) {
  XPOSE_GPU_TRY(rt::event_record(static_cast<rt::Event>(stop_), static_cast<rt::Stream>(stream)));
  return Status::ok_status();
}

Status EventPair::elapsed_ms(float& ms) const {
  XPOSE_GPU_TRY(rt::event_synchronize(static_cast<rt::Event>(stop_)));
  XPOSE_GPU_TRY(rt::event_elapsed_ms(&ms, static_cast<rt::Event>(start_), static_cast<rt::Event>(stop_)));
  return Status::ok_status();
}

namespace gpu {

int multiprocessor_count() {
  int dev = 0;
  return rt::get_device(&dev) == rt::kSuccess ? rt::multiprocessor_count(dev) : 0;
}

int current_device() {
  int dev = 0;
  return rt::get_device(&dev) == rt::kSuccess ? dev : -1;
}

std::int64_t small_batch_whole_matrix_bytes() {
  int dev = 0;
  if (rt::get_device(&dev) != rt::kSuccess) return plan::kSmallBatchMaxWholeMatrixBytes;
  return plan::small_batch_whole_matrix_bytes_for(rt::shared_per_block_optin(dev), rt::shared_per_multiprocessor(dev),
                                                  rt::shared_reserved_per_block(dev));
}

Status synchronize_stream(StreamHandle stream) {
  XPOSE_GPU_TRY(rt::stream_synchronize(static_cast<rt::Stream>(stream)));
  return Status::ok_status();
}

std::int64_t shared_per_block_limit() {
  int dev = 0;
  return rt::get_device(&dev) == rt::kSuccess ? rt::shared_per_block_optin(dev) : 0;
}

Status check_device_pointer(const void* ptr, const char* what) {
  if (rt::is_device_accessible(ptr)) return Status::ok_status();
  return Status(StatusCode::wrong_memory,
                std::string(what) + " pointer is not GPU device memory (a host pointer given to the GPU path?)");
}

bool is_device_only_pointer(const void* ptr) {
  return device_count() > 0 && rt::is_device_only(ptr);
}

}  // namespace gpu
}  // namespace xpose
