// Random input bytes with floating-point words kept to normal numbers.
#include "random_input.hpp"

#include <algorithm>
#include <cstring>
#include <random>

namespace xpose_cli {
namespace {

struct IeeeLayout {
  int word_bytes = 0;  // 0: not floating point
  int exponent_shift = 0, exponent_bits = 0;
};

IeeeLayout ieee_layout(xpose::DType dtype) {
  switch (dtype) {
    case xpose::DType::f16: return {2, 10, 5};
    case xpose::DType::bf16: return {2, 7, 8};
    case xpose::DType::f32:
    case xpose::DType::c64: return {4, 23, 8};
    case xpose::DType::f64:
    case xpose::DType::c128: return {8, 52, 11};
    default: return {};
  }
}

}  // namespace

std::vector<unsigned char> random_input(xpose::DType dtype, std::size_t bytes, std::uint64_t seed) {
  std::vector<unsigned char> v(bytes);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t x = rng();
    std::memcpy(v.data() + i, &x, std::min<std::size_t>(8, bytes - i));
  }
  const IeeeLayout l = ieee_layout(dtype);
  if (l.word_bytes == 0) return v;
  const std::uint64_t all_ones = (std::uint64_t{1} << l.exponent_bits) - 1;
  for (std::size_t i = 0; i + l.word_bytes <= bytes; i += l.word_bytes) {
    std::uint64_t w = 0;
    std::memcpy(&w, v.data() + i, l.word_bytes);
    // Map the random exponent [0, all_ones] onto the normal range [1, all_ones - 1].
    const std::uint64_t e = (w >> l.exponent_shift) & all_ones;
    const std::uint64_t normal = 1 + (e * (all_ones - 1) >> l.exponent_bits);
    w = (w & ~(all_ones << l.exponent_shift)) | (normal << l.exponent_shift);
    std::memcpy(v.data() + i, &w, l.word_bytes);
  }
  return v;
}

}  // namespace xpose_cli
