// Device utilities for callers that hold no GPU header: query, buffers, copies, event timing.
// With no GPU build or no device, every call returns StatusCode::no_device (device_count() is 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose {

struct DeviceInfo {
  std::string vendor;        // "NVIDIA" or "AMD"
  std::string name;          // "NVIDIA H200"
  std::string arch;          // "sm_90", "gfx90a"
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_memory_bytes = 0;
  int memory_bus_width_bits = 0;
  int memory_clock_khz = 0;          // 0 where the runtime no longer reports it
  double theoretical_gbps = 0.0;     // from bus width and clock; 0 when unknown
  int runtime_version = 0;
  int driver_version = 0;
};

// Number of usable GPUs; 0 when none, when the driver is missing, or in a CPU-only build.
int device_count();
Status device_info(DeviceInfo& info);
// True when this build of xpose contains the GPU backend (even if no device is present).
bool gpu_backend_built();

// Owning device allocation.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  Status allocate(std::size_t bytes);
  void reset();
  void* data() const { return ptr_; }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

Status copy_host_to_device(void* dst, const void* src, std::size_t bytes);
Status copy_device_to_host(void* dst, const void* src, std::size_t bytes);
// Asynchronous device-to-device copy on `stream` (the memcpy baseline the bench compares with).
Status copy_device_to_device(void* dst, const void* src, std::size_t bytes, StreamHandle stream = nullptr);
// Host-to-host copy over as many threads as the CPU backend's transpose of as many bytes takes (the
// memcpy baseline the bench compares the CPU backend with).
void copy_host_to_host(void* dst, const void* src, std::size_t bytes);
// Sets every byte of [dst, dst + bytes) to `value` (used to poison outputs).
Status fill_device_bytes(void* dst, unsigned char value, std::size_t bytes, StreamHandle stream = nullptr);
Status synchronize_device();
// Queues a kernel that keeps `stream` busy for about `microseconds`, so that work enqueued behind it
// runs back to back however slowly the host enqueues it (benchmarks: time the GPU, not the launches).
Status hold_stream(double microseconds, StreamHandle stream = nullptr);
// Errors a kernel raised since the last check (launch errors are caught by execute itself).
Status last_device_error();
// Open and close the range a profiler collects when started with collection off
// (ncu --profile-from-start off, nsys --capture-range=cudaProfilerApi). Harmless without a profiler.
Status profiler_start();
Status profiler_stop();

// An owning stream that does not synchronise with the legacy default stream.
class DeviceStream {
 public:
  DeviceStream() = default;
  ~DeviceStream();
  DeviceStream(DeviceStream&& other) noexcept;
  DeviceStream& operator=(DeviceStream&& other) noexcept;
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;

  Status create();
  StreamHandle handle() const { return stream_; }

 private:
  StreamHandle stream_ = nullptr;
};

// A pair of GPU events around work on a stream; elapsed_ms waits for the stop event.
class EventPair {
 public:
  EventPair() = default;
  ~EventPair();
  EventPair(EventPair&& other) noexcept;
  EventPair& operator=(EventPair&& other) noexcept;
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  Status create();
  Status record_start(StreamHandle stream = nullptr);
  Status record_stop(StreamHandle stream = nullptr);
  Status elapsed_ms(float& ms) const;

 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

}  // namespace xpose
