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

// A chunk's four words to shared memory in the order rot, rot + 1, ... (mod 4), each to its own place
// `words[i]`: rotating the order by the chunk's index / 8 puts the 32 lanes of a row's chunks in 32
// different banks per store. The chunk is rotated in registers (selects); picking its words by a
// runtime index compiled to branches around every store (on an H200, f32 8191x8193 in
// tiled_unaligned: 110 M -> 96 M instructions, 0.911 -> 0.930 of memcpy).
__device__ __forceinline__ void store_words_rotated(std::uint32_t* words, const uint4& v, int rot) {
  const uint4 half = (rot & 1) ? make_uint4(v.y, v.z, v.w, v.x) : v;
  const uint4 w = (rot & 2) ? make_uint4(half.z, half.w, half.x, half.y) : half;  // w.x: word rot
  words[rot & 3] = w.x;
  words[(rot + 1) & 3] = w.y;
  words[(rot + 2) & 3] = w.z;
  words[(rot + 3) & 3] = w.w;
}

}  // namespace xpose::gpu
