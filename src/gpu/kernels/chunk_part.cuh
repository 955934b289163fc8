// Writing part of an aligned 16-byte chunk: the bytes a kernel owns where a chunk is cut by the
// matrix's edge. One store per naturally aligned piece (8, 4, 2 or 1 bytes; at most 7 for any cut)
// rather than one per element. Every output row of a 1-byte matrix of a few hundred rows starts and
// ends with such a chunk; byte by byte, u8 1032 x 255^2 wrote 4.80 M sectors where 256 x 255
// matrices write 2.10 M (ncu, H200), and in pieces it ran 0.47 -> 0.51 of memcpy, u8 745 x 300^2
// 0.47 -> 0.60, u8 500x134217 0.58 -> 0.68 (bench/results/h200_2026-11-25y_unaligned_edge_pieces.txt).
#pragma once

#include <cstdint>

namespace xpose::gpu {

// Word i (0-3) of a chunk, picked with selects (a runtime index into an array would go to local
// memory).
__device__ __forceinline__ std::uint32_t chunk_word(const uint4& v, int i) {
  const std::uint32_t even = (i & 2) ? v.z : v.x, odd = (i & 2) ? v.w : v.y;
  return (i & 1) ? odd : even;
}

// Bytes [at, at + size) of the chunk `v` to chunk + at; `at` is a multiple of `size` (1, 2, 4 or 8).
__device__ __forceinline__ void store_chunk_piece(unsigned char* chunk, const uint4& v, int at, int size) {
  if (size == 8) {
    *reinterpret_cast<uint2*>(chunk + at) = at == 0 ? make_uint2(v.x, v.y) : make_uint2(v.z, v.w);
    return;
  }
  const std::uint32_t w = chunk_word(v, at >> 2) >> (8 * (at & 3));
  if (size == 4) *reinterpret_cast<std::uint32_t*>(chunk + at) = w;
  else if (size == 2) *reinterpret_cast<std::uint16_t*>(chunk + at) = static_cast<std::uint16_t>(w);
  else chunk[at] = static_cast<unsigned char>(w);
}

// Bytes [lo, hi) of the chunk `v` (0 <= lo < hi <= 16) to the 16-byte aligned `chunk`: pieces of
// rising size until `lo` is aligned to 8 (or the rest is shorter than the next piece), then of
// falling size; every piece is aligned to its size.
__device__ __forceinline__ void store_chunk_part(unsigned char* chunk, const uint4& v, int lo, int hi) {
#pragma unroll
  for (int size = 1; size <= 8; size *= 2)
    if ((lo & size) != 0 && lo + size <= hi) {
      store_chunk_piece(chunk, v, lo, size);
      lo += size;
    }
#pragma unroll
  for (int size = 8; size >= 1; size /= 2)
    if (hi - lo >= size) {
      store_chunk_piece(chunk, v, lo, size);
      lo += size;
    }
}

}  // namespace xpose::gpu
