// Random inputs for runs checked bit for bit, shared by the bench, `xpose run-kernel` and the tests:
// never zeros, and for floating-point types only normal numbers. Header-only, so the tests need no
// CLI library to use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "xpose/xpose.hpp"

namespace xpose_cli {

// Runs fn(begin, end) over [0, n) split into one range per hardware thread (one range when small).
template <typename F>
void for_each_range(std::size_t n, F&& fn) {
  const std::size_t threads = n < (std::size_t{16} << 20) ? 1 : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back([&, t] { fn(n * t / threads, n * (t + 1) / threads); });
  fn(0, n / threads);
  for (auto& th : pool) th.join();
}

// splitmix64 of a counter: every 8-byte word depends only on (seed, index), so the input is the
// same however many threads fill it.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// `n` random bytes from `seed` (every bit pattern, NaNs included when read as floats).
inline std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
  std::vector<unsigned char> v(n);
  const std::size_t words = (n + 7) / 8;
  for_each_range(words, [&](std::size_t first, std::size_t last) {
    for (std::size_t w = first; w < last; ++w) {
      const std::uint64_t x = mix64(seed * 0x100000001b3ULL + w);
      std::memcpy(v.data() + 8 * w, &x, std::min<std::size_t>(8, n - 8 * w));
    }
  });
  return v;
}

// Rewrites the exponent of every IEEE word of a floating-point dtype into the normal range (no NaN,
// infinity or subnormal): cuBLAS geam computes 1 * a + 0 * b, which quiets signalling NaNs and may
// flush subnormals, so a bitwise check of it needs ordinary numbers. Integer and fp8 data stay raw.
inline void make_normal_floats(xpose::DType dtype, std::vector<unsigned char>& bytes) {
  int word = 0, exp_shift = 0, exp_bits = 0;
  switch (dtype) {
    case xpose::DType::f32: case xpose::DType::c64: word = 4; exp_shift = 23; exp_bits = 8; break;
    case xpose::DType::f64: case xpose::DType::c128: word = 8; exp_shift = 52; exp_bits = 11; break;
    case xpose::DType::f16: word = 2; exp_shift = 10; exp_bits = 5; break;
    case xpose::DType::bf16: word = 2; exp_shift = 7; exp_bits = 8; break;
    default: return;
  }
  const std::uint64_t exp_max = (1ULL << exp_bits) - 1;
  for_each_range(bytes.size() / word, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      std::uint64_t w = 0;
      std::memcpy(&w, &bytes[k * word], word);
      const std::uint64_t e = (w >> exp_shift) & exp_max;
      const std::uint64_t clamped = e == 0 ? 1 : (e == exp_max ? exp_max - 1 : e);
      w = (w & ~(exp_max << exp_shift)) | (clamped << exp_shift);
      std::memcpy(&bytes[k * word], &w, word);
    }
  });
}

// Random bytes for `dtype`: floating-point words are normal numbers.
inline std::vector<unsigned char> random_values(xpose::DType dtype, std::size_t n, std::uint64_t seed) {
  std::vector<unsigned char> v = random_bytes(n, seed);
  make_normal_floats(dtype, v);
  return v;
}

}  // namespace xpose_cli
