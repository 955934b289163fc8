// Transposes of one 16 x 16-byte block (K x K elements of E bytes, K = 16 / E) held in registers.
//
// With SSE2 (every x86-64 CPU) the block is log2(K) rounds of unpacks: each round interleaves
// row j with row j + K/2 at element width, which rotates the bits of (row, column) by one, so
// after log2(K) rounds rows and columns have swapped. Elsewhere a plain element loop stands in.
// Where the compiler can target AVX2 per function, a pair of neighbouring blocks also goes in one
// round of 32-byte unpacks.
#pragma once

#include <cstddef>
#include <cstring>

#include "cpu/vector_stores.hpp"

// The block transposes are forced inline into the tile loops: GCC's size limits otherwise left them
// as a call per block.
#if defined(__GNUC__)
#define XPOSE_CPU_INLINE __attribute__((always_inline)) inline
#else
#define XPOSE_CPU_INLINE inline
#endif

namespace xpose::cpu {

// Elements per 16-byte block row for element size E.
template <int E>
constexpr int block_edge() {
  return 16 / E;
}

#ifdef XPOSE_CPU_SSE2

// Row a interleaved with row b at element width: the low halves (kHigh false) or the high ones.
template <int E, bool kHigh>
inline __m128i interleave(__m128i a, __m128i b) {
  if constexpr (E == 1) return kHigh ? _mm_unpackhi_epi8(a, b) : _mm_unpacklo_epi8(a, b);
  if constexpr (E == 2) return kHigh ? _mm_unpackhi_epi16(a, b) : _mm_unpacklo_epi16(a, b);
  if constexpr (E == 4) return kHigh ? _mm_unpackhi_epi32(a, b) : _mm_unpacklo_epi32(a, b);
  if constexpr (E == 8) return kHigh ? _mm_unpackhi_epi64(a, b) : _mm_unpacklo_epi64(a, b);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
// AVX2 code is compiled per function (the build targets baseline x86-64) and run only where the CPU
// has it: callers check cpu_has_avx2() first.
#include <immintrin.h>
#define XPOSE_CPU_AVX2 1
#define XPOSE_TARGET_AVX2 __attribute__((target("avx2")))

inline bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }

template <int E, bool kHigh>
XPOSE_TARGET_AVX2 inline __m256i interleave(__m256i a, __m256i b) {
  if constexpr (E == 1) return kHigh ? _mm256_unpackhi_epi8(a, b) : _mm256_unpacklo_epi8(a, b);
  if constexpr (E == 2) return kHigh ? _mm256_unpackhi_epi16(a, b) : _mm256_unpacklo_epi16(a, b);
  if constexpr (E == 4) return kHigh ? _mm256_unpackhi_epi32(a, b) : _mm256_unpacklo_epi32(a, b);
  if constexpr (E == 8) return kHigh ? _mm256_unpackhi_epi64(a, b) : _mm256_unpacklo_epi64(a, b);
}
#endif

// The log2(K) rounds on K rows held in 16-byte registers (32-byte ones take the overload below): row j
// interleaved with row j + K/2 at element width, each round. Always inlined into the caller, whose target supplies the
// instructions, so the 32-byte vectors never cross a call (which GCC's ABI note below is about).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
template <int E, typename Vec, int K>
XPOSE_CPU_INLINE void interleave_rounds(Vec (&v)[K]) {
  Vec w[K];
  for (int round = 1; round < K; round *= 2) {
    for (int j = 0; j < K / 2; ++j) {
      w[2 * j] = interleave<E, false>(v[j], v[j + K / 2]);
      w[2 * j + 1] = interleave<E, true>(v[j], v[j + K / 2]);
    }
    for (int i = 0; i < K; ++i) v[i] = w[i];
  }
}
#ifdef XPOSE_CPU_AVX2
// The same rounds on 32-byte rows, in a function of their own that carries the AVX2 target: clang
// refuses 32-byte vectors in a function without it, inlined or not.
template <int E, int K>
XPOSE_TARGET_AVX2 XPOSE_CPU_INLINE void interleave_rounds(__m256i (&v)[K]) {
  __m256i w[K];
  for (int round = 1; round < K; round *= 2) {
    for (int j = 0; j < K / 2; ++j) {
      w[2 * j] = interleave<E, false>(v[j], v[j + K / 2]);
      w[2 * j + 1] = interleave<E, true>(v[j], v[j + K / 2]);
    }
    for (int i = 0; i < K; ++i) v[i] = w[i];
  }
}
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// dst row i, bytes [0, 16) = column i of the K rows of 16 bytes at src (pitches in bytes).
template <int E>
XPOSE_CPU_INLINE void transpose_block(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst,
                                      std::ptrdiff_t dst_pitch) {
  constexpr int K = block_edge<E>();
  if constexpr (K == 1) {
    std::memcpy(dst, src, 16);
  } else {
    __m128i v[K];
    for (int i = 0; i < K; ++i) v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * src_pitch));
    interleave_rounds<E>(v);
    for (int i = 0; i < K; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * dst_pitch), v[i]);
  }
}

#else

template <int E>
XPOSE_CPU_INLINE void transpose_block(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst,
                                      std::ptrdiff_t dst_pitch) {
  constexpr int K = block_edge<E>();
  for (int r = 0; r < K; ++r)
    for (int c = 0; c < K; ++c) std::memcpy(dst + c * dst_pitch + r * E, src + r * src_pitch + c * E, E);
}

#endif

#ifdef XPOSE_CPU_AVX2
// Two neighbouring blocks at once, one in each 16-byte lane (AVX2 unpacks stay within lanes): the
// K rows of 32 bytes at src give dst rows [0, K) the columns of their left 16 bytes and dst rows
// [K, 2K) those of their right 16 bytes. Plain stores.
template <int E>
XPOSE_TARGET_AVX2 XPOSE_CPU_INLINE void transpose_block_pair(const unsigned char* src, std::ptrdiff_t src_pitch,
                                                              unsigned char* dst, std::ptrdiff_t dst_pitch) {
  constexpr int K = block_edge<E>();
  static_assert(K > 1, "pairs are for elements under 16 bytes");
  __m256i v[K];
  for (int i = 0; i < K; ++i) v[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i * src_pitch));
  interleave_rounds<E>(v);
  for (int i = 0; i < K; ++i) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * dst_pitch), _mm256_castsi256_si128(v[i]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (K + i) * dst_pitch), _mm256_extracti128_si256(v[i], 1));
  }
}
#endif

}  // namespace xpose::cpu
