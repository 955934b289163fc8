// Storage types by element size: kernels move bytes, so a dtype maps to an unsigned word of its size.
#pragma once

#include <cstdint>

namespace xpose::gpu {

// 16-byte elements need only 8-byte alignment (std::complex<double> has it), so two 8-byte words.
struct alignas(8) Bytes16 {
  std::uint64_t lo, hi;
};

template <int kBytes> struct ElementStorage;
template <> struct ElementStorage<1> { using type = std::uint8_t; };
template <> struct ElementStorage<2> { using type = std::uint16_t; };
template <> struct ElementStorage<4> { using type = std::uint32_t; };
template <> struct ElementStorage<8> { using type = std::uint64_t; };
template <> struct ElementStorage<16> { using type = Bytes16; };

// One E-byte element from src to dst, both aligned to min(E, 8) bytes.
template <int E>
__device__ __forceinline__ void copy_element(unsigned char* dst, const unsigned char* src) {
  using T = typename ElementStorage<E>::type;
  *reinterpret_cast<T*>(dst) = *reinterpret_cast<const T*>(src);
}

// One element from `p` to `dst`, both aligned to min(E, 4) (shared-memory rows may be only
// word-aligned for 8- and 16-byte elements), word by word.
template <int E>
__device__ __forceinline__ void store_element(unsigned char* dst, const unsigned char* p) {
  if constexpr (E == 1) {
    *dst = *p;
  } else if constexpr (E == 2) {
    *reinterpret_cast<std::uint16_t*>(dst) = *reinterpret_cast<const std::uint16_t*>(p);
  } else {
#pragma unroll
    for (int u = 0; u < E / 4; ++u)
      reinterpret_cast<std::uint32_t*>(dst)[u] = reinterpret_cast<const std::uint32_t*>(p)[u];
  }
}

// Element m of a run of 32-bit words `w`, read from E bytes at `p` (aligned to min(E, 4)): 1- and
// 2-byte elements are read as bytes and halfwords and OR-ed into words that start at zero, wider
// ones word by word.
template <int E>
__device__ __forceinline__ void put_element(std::uint32_t* w, int m, const unsigned char* p) {
  if constexpr (E == 1) {
    w[m / 4] |= static_cast<std::uint32_t>(*p) << (8 * (m % 4));
  } else if constexpr (E == 2) {
    w[m / 2] |= static_cast<std::uint32_t>(*reinterpret_cast<const std::uint16_t*>(p)) << (16 * (m % 2));
  } else {
#pragma unroll
    for (int u = 0; u < E / 4; ++u) w[m * (E / 4) + u] = reinterpret_cast<const std::uint32_t*>(p)[u];
  }
}

// The inverse: element m of the words `w` written to E bytes at `p` (aligned to min(E, 4)).
template <int E>
__device__ __forceinline__ void take_element(const std::uint32_t* w, int m, unsigned char* p) {
  if constexpr (E == 1) {
    *p = static_cast<unsigned char>(w[m / 4] >> (8 * (m % 4)));
  } else if constexpr (E == 2) {
    *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(w[m / 2] >> (16 * (m % 2)));
  } else {
#pragma unroll
    for (int u = 0; u < E / 4; ++u) reinterpret_cast<std::uint32_t*>(p)[u] = w[m * (E / 4) + u];
  }
}

}  // namespace xpose::gpu
