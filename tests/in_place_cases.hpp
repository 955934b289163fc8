// In-place transposes in the tests: the cases every backend runs, and their expected result by
// plain loops written here (independent of the library's oracle).
#pragma once

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace xpose_test {

// `data` after an in-place transpose of `d`: element (r, c) of matrix b goes to (c, r), rows ld_in
// apart for a square matrix, packed (rows elements apart) for others; the gaps between rows and
// matrices keep what they held.
inline std::vector<unsigned char> expected_in_place(const xpose::TransposeDesc& desc,
                                                    const std::vector<unsigned char>& data) {
  const xpose::TransposeDesc d = xpose::resolved(desc);
  const std::size_t e = xpose::dtype_size(d.dtype);
  const std::int64_t ld_out = d.rows == d.cols ? d.ld_in : d.rows;
  std::vector<unsigned char> out = data;
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r)
      for (std::int64_t c = 0; c < d.cols; ++c)
        std::memcpy(&out[(b * d.batch_stride_in + c * ld_out + r) * e],
                    &data[(b * d.batch_stride_in + r * d.ld_in + c) * e], e);
  return out;
}

// Square cases: around the tile edges (32 and 64, and the CPU's 16 to 256), odd sizes, one
// element, rows of 4 bytes more than a multiple of 8 (u8 100), leading dimensions (odd, and a
// multiple of 16 bytes for every element size), batches packed and with gaps, and one large enough
// for the CPU's threads.
inline std::vector<xpose::TransposeDesc> in_place_cases(xpose::DType t) {
  std::vector<xpose::TransposeDesc> v;
  for (std::int64_t n : {1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000})
    v.push_back({t, n, n});
  v.push_back({t, 70, 70, 1, 73, 0, 0, 0});                  // odd leading dimension
  v.push_back({t, 129, 129, 1, 144, 0, 0, 0});               // rows 144 elements apart
  v.push_back({t, 65, 65, 3, 0, 0, 0, 0});                   // batch, packed
  v.push_back({t, 40, 40, 3, 48, 48, 40 * 48 + 16, 0});       // batch with gaps between matrices
  v.push_back({t, 1100, 1100});                               // the CPU's threads
  // Rows 8 KiB apart (the CPU stages 1- and 2-byte tiles whose rows lie a multiple of 4 KiB apart),
  // a batch with gaps.
  const std::int64_t ld = 8192 / static_cast<std::int64_t>(xpose::dtype_size(t));
  v.push_back({t, 300, 300, 2, ld, 0, 300 * ld + 16, 0});
  return v;
}

// Non-square cases (packed rows; every backend): one row or column, coprime and shared
// extents (gcd 1 and gcd > 1 take different passes), tall and wide, batches packed and with gaps,
// enough matrices for a thread each, one large enough for the threads to split its passes, and one
// tall enough that its column blocks are cut to the scratch bound.
inline std::vector<xpose::TransposeDesc> in_place_non_square_cases(xpose::DType t) {
  std::vector<xpose::TransposeDesc> v;
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1, 7}, {7, 1}, {2, 3}, {3, 2}, {4, 6}, {6, 4}, {5, 7}, {12, 18}, {18, 12}, {31, 64}, {64, 31},
           {100, 37}, {1000, 3}, {3, 1000}, {256, 384}, {384, 256}})
    v.push_back({t, rows, cols});
  v.push_back({t, 10, 15, 3, 0, 0, 0, 0});                  // batch, packed
  v.push_back({t, 10, 15, 3, 15, 10, 10 * 15 + 7, 0});      // batch with gaps, ld_out given as rows
  v.push_back({t, 64, 60, 600, 0, 0, 0, 0});                // a thread per matrix
  v.push_back({t, 2048, 1030});                             // passes split across threads
  v.push_back({t, 70000, 20});  // columns of 4- to 16-byte elements in blocks narrower than a line (4 MiB)
  // Sides sharing a large factor (the CPU's square blocks and pieces): wide, tall, both sides several
  // blocks long, and batches with gaps, one of blocks at the least size (32 elements, or 256 bytes).
  const std::int64_t least = std::min<std::int64_t>(32, 256 / static_cast<std::int64_t>(xpose::dtype_size(t)));
  for (const auto& [p, q] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 3}, {3, 1}, {2, 3}, {5, 2}})
    v.push_back({t, p * 300, q * 300});
  v.push_back({t, 2 * least, 3 * least, 3, 0, 0, 6 * least * least + 5, 0});
  v.push_back({t, 200, 300, 2, 0, 0, 200 * 300 + 3, 0});
  return v;
}

}  // namespace xpose_test
