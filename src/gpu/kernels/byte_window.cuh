// Cutting 16 bytes at any byte offset out of two neighbouring 16-byte chunks, and passing chunks
// between neighbouring lanes: how register kernels realign a stream whose pointer is off the
// 16-byte grid without a trip through shared memory.
#pragma once

#include <cstdint>

#include "gpu/runtime.hpp"

namespace xpose::gpu {

// Bytes [s, s + 16) of the 32 bytes hi:lo (lo first), 0 <= s <= 16: words picked by selects on the
// bits of s / 4 (an index into an array would go through local memory), then funnel shifts.
__device__ __forceinline__ uint4 byte_window(const uint4& lo, const uint4& hi, int s) {
  const std::uint32_t x[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const int q = s >> 2;
  std::uint32_t y[8], z[8], w[5];
#pragma unroll
  for (int i = 0; i < 8; ++i) y[i] = (q & 4) ? (i + 4 < 8 ? x[i + 4] : 0u) : x[i];
#pragma unroll
  for (int i = 0; i < 8; ++i) z[i] = (q & 2) ? (i + 2 < 8 ? y[i + 2] : 0u) : y[i];
#pragma unroll
  for (int i = 0; i < 5; ++i) w[i] = (q & 1) ? z[i + 1] : z[i];
  const unsigned bits = 8u * static_cast<unsigned>(s & 3);
  return make_uint4(__funnelshift_r(w[0], w[1], bits), __funnelshift_r(w[1], w[2], bits),
                    __funnelshift_r(w[2], w[3], bits), __funnelshift_r(w[3], w[4], bits));
}

// A chunk from the lane below / above within the group of 32 lanes (the lane's own at the group's end).
__device__ __forceinline__ uint4 shfl_chunk_up(const uint4& v) {
  return make_uint4(rt::shfl_up_in_32(v.x, 1), rt::shfl_up_in_32(v.y, 1), rt::shfl_up_in_32(v.z, 1),
                    rt::shfl_up_in_32(v.w, 1));
}
__device__ __forceinline__ uint4 shfl_chunk_down(const uint4& v) {
  return make_uint4(rt::shfl_down_in_32(v.x, 1), rt::shfl_down_in_32(v.y, 1), rt::shfl_down_in_32(v.z, 1),
                    rt::shfl_down_in_32(v.w, 1));
}

}  // namespace xpose::gpu
