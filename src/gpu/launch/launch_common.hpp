// Helpers every launcher shares: geometry from a descriptor, size dispatch, the post-launch check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "core/env.hpp"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/runtime.hpp"
#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"

namespace xpose::gpu {

// gridDim.y and gridDim.z stop at 65535; kernels loop over the rest.
constexpr std::int64_t kMaxGridYZ = 65535;

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

inline MatrixGeometry make_geometry(const TransposeDesc& d, std::int64_t tiles_y) {
  return MatrixGeometry{d.rows, d.cols, d.batch, d.ld_in, d.ld_out, d.batch_stride_in, d.batch_stride_out,
                        tiles_y};
}

// Fills grid and block for a kernel that runs grid_x tiles along x and walks tiles_y along y.
inline void set_grid(LaunchConfig& c, int block_x, int block_y, std::int64_t grid_x, std::int64_t tiles_y,
                     std::int64_t batch) {
  c.block_x = block_x;
  c.block_y = block_y;
  c.grid_x = grid_x;
  c.grid_y = std::min(tiles_y, kMaxGridYZ);
  c.grid_z = std::min(batch, kMaxGridYZ);
}

// One-dimensional blocks of block_x threads and a one-dimensional grid of grid_x blocks, each moving
// a tile of tile_rows x tile_cols elements in vector_bytes-byte accesses.
inline LaunchConfig linear_config(int tile_rows, int tile_cols, int vector_bytes, int block_x, std::int64_t grid_x) {
  LaunchConfig c{};
  c.tile_rows = tile_rows;
  c.tile_cols = tile_cols;
  c.vector_bytes = vector_bytes;
  c.block_x = block_x;
  c.block_y = 1;
  c.grid_x = grid_x;
  c.grid_y = c.grid_z = 1;
  return c;
}

inline dim3 grid_of(const LaunchConfig& c) {
  return dim3(static_cast<unsigned>(c.grid_x), static_cast<unsigned>(c.grid_y), static_cast<unsigned>(c.grid_z));
}
inline dim3 block_of(const LaunchConfig& c) { return dim3(c.block_x, c.block_y, 1); }

// Calls f(T{}) with T the storage type of `bytes`-sized elements.
template <typename F>
Status dispatch_element_size(std::size_t bytes, F&& f) {
  switch (bytes) {
    case 1: return f(typename ElementStorage<1>::type{});
    case 2: return f(typename ElementStorage<2>::type{});
    case 4: return f(typename ElementStorage<4>::type{});
    case 8: return f(typename ElementStorage<8>::type{});
    case 16: return f(typename ElementStorage<16>::type{});
    default: return Status(StatusCode::unsupported, "no kernel for " + std::to_string(bytes) + "-byte elements");
  }
}

inline bool debug_sync_enabled() {
  static const bool enabled = core::env_starts_with("XPOSE_DEBUG_SYNC", '1');
  return enabled;
}

// After every launch: report launch errors; with XPOSE_DEBUG_SYNC=1 also log the launch, wait for the
// kernel and report what it raised.
inline Status check_launch(const char* kernel, const LaunchConfig& c, std::size_t smem_bytes, rt::Stream stream) {
  XPOSE_GPU_TRY(rt::peek_at_last_error());
  if (debug_sync_enabled()) {
    std::fprintf(stderr, "xpose: launch %s<<<(%lld,%lld,%lld),(%d,%d),%zu,%p>>>\n", kernel,
                 static_cast<long long>(c.grid_x), static_cast<long long>(c.grid_y),
                 static_cast<long long>(c.grid_z), c.block_x, c.block_y, smem_bytes, static_cast<void*>(stream));
    XPOSE_GPU_TRY(rt::stream_synchronize(stream));
    XPOSE_GPU_TRY(rt::peek_at_last_error());
  }
  return Status::ok_status();
}

// rt::allow_dynamic_shared for at least `bytes`, asked only when a kernel needs more on this device
// than it was allowed before: the attribute call costs more than the launches of small transposes.
// The attribute is the kernel's maximum, so it is only ever raised: set to each launch's own size, a
// smaller launch would lower it and refuse a larger one after it.
template <typename Kernel>
Status allow_dynamic_shared_once(Kernel kernel, int bytes) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> allowed;  // (kernel, device) -> bytes allowed
  int device = 0;
  XPOSE_GPU_TRY(rt::get_device(&device));
  const auto key = std::make_pair(reinterpret_cast<const void*>(kernel), device);
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = allowed.find(key);
  if (it != allowed.end() && it->second >= bytes) return Status::ok_status();
  XPOSE_GPU_TRY(rt::allow_dynamic_shared(kernel, bytes));
  allowed[key] = bytes;
  return Status::ok_status();
}

}  // namespace xpose::gpu
