// Shared helpers for the tests: random data, poisoned outputs, expected results, repro lines.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "random_input.hpp"  // apps/xpose: the bench and the tests draw inputs alike
#include "xpose/xpose.hpp"

namespace xpose {
// Readable parameter names in gtest output.
inline void PrintTo(Algorithm a, std::ostream* os) { *os << algorithm_name(a); }
inline void PrintTo(DType d, std::ostream* os) { *os << dtype_name(d); }
}  // namespace xpose

namespace xpose_test {

constexpr unsigned char kPoison = 0xA5;

inline std::size_t input_bytes(const xpose::TransposeDesc& d) {
  const auto r = xpose::resolved(d);
  return static_cast<std::size_t>(xpose::input_span_elements(r)) * xpose::dtype_size(r.dtype);
}

inline std::size_t output_bytes(const xpose::TransposeDesc& d) {
  const auto r = xpose::resolved(d);
  return static_cast<std::size_t>(xpose::output_span_elements(r)) * xpose::dtype_size(r.dtype);
}

using xpose_cli::random_bytes;
using xpose_cli::random_values;

// Expected output of a transpose: poison everywhere but the transposed elements, which come
// from the library's CPU reference (itself tested against hand-computed answers).
inline std::vector<unsigned char> expected_transpose(const xpose::TransposeDesc& d,
                                                     const std::vector<unsigned char>& in) {
  std::vector<unsigned char> out(output_bytes(d), kPoison);
  const xpose::Status s =
      xpose::transpose(d, in.data(), out.data(), nullptr, {xpose::Backend::cpu, xpose::Algorithm::cpu_reference});
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// Index of the first differing element, or -1.
inline std::int64_t first_mismatch(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                                   std::size_t esize) {
  if (got.size() != want.size()) return 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return static_cast<std::int64_t>(i / esize);
  return -1;
}

inline std::string describe(const xpose::TransposeDesc& d) {
  std::string s = std::string(xpose::dtype_name(d.dtype)) + " " + std::to_string(d.rows) + "x" +
                  std::to_string(d.cols);
  if (d.batch > 1) s += " batch " + std::to_string(d.batch);
  if (d.ld_in) s += " ld_in " + std::to_string(d.ld_in);
  if (d.ld_out) s += " ld_out " + std::to_string(d.ld_out);
  return s;
}

// The command that reproduces a failing 2-D case outside the test.
inline std::string repro(const xpose::TransposeDesc& d, xpose::Algorithm a, const char* backend) {
  return std::string("xpose bench --backend ") + backend + " --dtype " + xpose::dtype_name(d.dtype) + " --shape " +
         std::to_string(d.rows) + "x" + std::to_string(d.cols) + " --kernels " + xpose::algorithm_name(a);
}

// The shapes every kernel is checked on: degenerate, skinny, around the 32-tile, odd and large.
inline std::vector<std::pair<std::int64_t, std::int64_t>> standard_shapes() {
  return {{1, 1},    {1, 1000},  {1000, 1},  {31, 33},  {32, 32},   {33, 31},
          {1000, 1}, {257, 1023}, {3, 4099}, {4099, 3}, {64, 64}};
}

// Random shapes from a fixed, printed seed.
inline std::vector<std::pair<std::int64_t, std::int64_t>> random_shapes(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> extent(1, 700);
  std::vector<std::pair<std::int64_t, std::int64_t>> v;
  for (int i = 0; i < count; ++i) v.emplace_back(extent(rng), extent(rng));
  return v;
}

constexpr std::uint64_t kRandomShapeSeed = 0x5eed2026;

}  // namespace xpose_test
