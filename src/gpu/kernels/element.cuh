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

}  // namespace xpose::gpu
