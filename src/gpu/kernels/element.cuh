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

}  // namespace xpose::gpu
