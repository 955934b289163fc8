// Transposes of one 16 x 16-byte block (K x K elements of E bytes, K = 16 / E) held in registers.
//
// With SSE2 (every x86-64 CPU) the block is log2(K) rounds of unpacks: each round interleaves
// row j with row j + K/2 at element width, which rotates the bits of (row, column) by one, so
// after log2(K) rounds rows and columns have swapped. Elsewhere a plain element loop stands in.
#pragma once

#include <cstddef>
#include <cstring>

#include "cpu/vector_stores.hpp"

namespace xpose::cpu {

// Elements per 16-byte block row for element size E.
template <int E>
constexpr int block_edge() {
  return 16 / E;
}

#ifdef XPOSE_CPU_SSE2

template <int E>
inline __m128i interleave_low(__m128i a, __m128i b) {
  if constexpr (E == 1) return _mm_unpacklo_epi8(a, b);
  if constexpr (E == 2) return _mm_unpacklo_epi16(a, b);
  if constexpr (E == 4) return _mm_unpacklo_epi32(a, b);
  if constexpr (E == 8) return _mm_unpacklo_epi64(a, b);
}

template <int E>
inline __m128i interleave_high(__m128i a, __m128i b) {
  if constexpr (E == 1) return _mm_unpackhi_epi8(a, b);
  if constexpr (E == 2) return _mm_unpackhi_epi16(a, b);
  if constexpr (E == 4) return _mm_unpackhi_epi32(a, b);
  if constexpr (E == 8) return _mm_unpackhi_epi64(a, b);
}

// dst row i, bytes [0, 16) = column i of the K rows of 16 bytes at src (pitches in bytes);
// kStream stores with streaming stores and needs every dst row 16-byte aligned.
template <int E, bool kStream>
inline void transpose_block(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst,
                            std::ptrdiff_t dst_pitch) {
  constexpr int K = block_edge<E>();
  if constexpr (K == 1) {
    move16<kStream>(dst, src);
  } else {
    __m128i v[K], w[K];
    for (int i = 0; i < K; ++i) v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * src_pitch));
    for (int round = 1; round < K; round *= 2) {
      for (int j = 0; j < K / 2; ++j) {
        w[2 * j] = interleave_low<E>(v[j], v[j + K / 2]);
        w[2 * j + 1] = interleave_high<E>(v[j], v[j + K / 2]);
      }
      for (int i = 0; i < K; ++i) v[i] = w[i];
    }
    for (int i = 0; i < K; ++i) {
      if constexpr (kStream)
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i * dst_pitch), v[i]);
      else
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * dst_pitch), v[i]);
    }
  }
}

#else

template <int E, bool kStream>
inline void transpose_block(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst,
                            std::ptrdiff_t dst_pitch) {
  constexpr int K = block_edge<E>();
  for (int r = 0; r < K; ++r)
    for (int c = 0; c < K; ++c) std::memcpy(dst + c * dst_pitch + r * E, src + r * src_pitch + c * E, E);
}

#endif

}  // namespace xpose::cpu
