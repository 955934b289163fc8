// Reading aligned 16-byte chunks of an input whose rows start anywhere, without touching a byte
// outside the caller's buffer.
#pragma once

#include <cstdint>

namespace xpose::gpu {

// One aligned 16-byte chunk of the input; where it reaches outside [lo, hi) (the matrix's first and
// last bytes) only the bytes of [need_lo, need_hi) are read, one at a time.
__device__ __forceinline__ uint4 load_chunk(const unsigned char* chunk, const unsigned char* lo,
                                            const unsigned char* hi, const unsigned char* need_lo,
                                            const unsigned char* need_hi) {
  if (chunk >= lo && chunk + 16 <= hi) return *reinterpret_cast<const uint4*>(chunk);
  std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
  for (int q = 0; q < 16; ++q)
    if (chunk + q >= need_lo && chunk + q < need_hi) w[q / 4] |= static_cast<std::uint32_t>(chunk[q]) << (8 * (q % 4));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// Word i of a chunk.
__device__ __forceinline__ std::uint32_t word_of(const uint4& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

}  // namespace xpose::gpu
