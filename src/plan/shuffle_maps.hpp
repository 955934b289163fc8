// The index maps of the non-square in-place transpose's three passes (Catanzaro, Keller and Garland,
// "A decomposition for in-place matrix transposition", PPoPP 2014). They are constexpr, which the GPU
// compilers take as host and device functions (nvcc with --expt-relaxed-constexpr): the kernels
// compute them per element, and the CPU tests replay the kernels' passes with the same code.
#pragma once

#include <cstdint>
#include <numeric>

namespace xpose::plan {

// floor(a * b / 2^64), from 32-bit halves (the same code on the host and the device).
constexpr std::uint64_t mul_high_u64(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  const std::uint64_t p01 = a0 * b1, p10 = a1 * b0;
  const std::uint64_t mid = ((a0 * b0) >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// Division of numerators below 2^63 by a fixed divisor d (1 <= d < 2^63) as a wide multiply and a
// shift: with l = ceil(log2 d), magic = floor(2^(63 + l) / d) + 1 < 2^64, whose error d * magic -
// 2^(63 + l) lies in (0, d], so x * error / (d * 2^(63 + l)) < 2^-l <= 1 / d never carries x / d over
// an integer. A 64-bit division costs dozens of instructions on a GPU, once per element here.
struct Div64 {
  std::uint64_t divisor = 1, magic = 0;  // magic 0: d == 1
  int shift = 0;                          // l - 1, applied after the high half
};

inline Div64 make_div64(std::int64_t d) {
  Div64 f;
  f.divisor = static_cast<std::uint64_t>(d);
  if (d == 1) return f;
  int l = 0;
  while ((std::int64_t{1} << l) < d) ++l;
  f.magic = static_cast<std::uint64_t>((static_cast<unsigned __int128>(1) << (63 + l)) / f.divisor) + 1;
  f.shift = l - 1;
  return f;
}

constexpr std::int64_t quot(std::int64_t x, const Div64& f) {
  const auto u = static_cast<std::uint64_t>(x);
  return static_cast<std::int64_t>(f.magic == 0 ? u : mul_high_u64(u, f.magic) >> f.shift);
}

// The buffer of one matrix seen as rows x cols, packed, and the divisors its maps need: with c =
// gcd(rows, cols) and b = cols / c, element (i, j) of the input belongs at buffer index j * rows + i.
struct ShuffleShape {
  std::int64_t rows = 0, cols = 0;
  Div64 by_rows, by_cols, by_b;
};

inline ShuffleShape make_shuffle_shape(std::int64_t rows, std::int64_t cols) {
  ShuffleShape s;
  s.rows = rows;
  s.cols = cols;
  s.by_rows = make_div64(rows);
  s.by_cols = make_div64(cols);
  s.by_b = make_div64(cols / std::gcd(rows, cols));
  return s;
}

// (r - s) mod m for r < m and s <= m, in any unsigned or signed integer type.
template <typename I>
constexpr I minus_mod(I r, I s, I m) {
  return r >= s ? r - s : r + m - s;
}

// Pass 1 (where gcd(rows, cols) > 1): column j is rotated down by j / b, so (r, j) takes the element
// of row (r - j / b) mod rows.
constexpr std::int64_t rotation_source_row(const ShuffleShape& s, std::int64_t r, std::int64_t j) {
  const std::int64_t shift = quot(j, s.by_b);  // < gcd(rows, cols) <= rows
  return minus_mod(r, shift, s.rows);
}

// Pass 2: (r, j), which after pass 1 holds input row i = (r - j / b) mod rows, goes to column
// (j * rows + i) mod cols of its row. Every row then holds one element for each of its columns.
constexpr std::int64_t scatter_column(const ShuffleShape& s, std::int64_t r, std::int64_t j) {
  const std::int64_t k = j * s.rows + rotation_source_row(s, r, j);
  return k - quot(k, s.by_cols) * s.cols;
}

// Pass 3: (r, c) belongs to input element (k mod rows, k / rows), k = r * cols + c, which passes 1 and
// 2 left in row (k mod rows + (k / rows) / b) mod rows of column c.
constexpr std::int64_t final_source_row(const ShuffleShape& s, std::int64_t r, std::int64_t c) {
  const std::int64_t k = r * s.cols + c;
  const std::int64_t q = quot(k, s.by_rows);
  const std::int64_t row = k - q * s.rows + quot(q, s.by_b);
  return row >= s.rows ? row - s.rows : row;
}

}  // namespace xpose::plan
