// In-place transposes in the tests: the cases every backend runs, and their expected result by
// plain loops written here (independent of the library's oracle).
#pragma once

#include <cstring>
#include <vector>

#include "test_support.hpp"

namespace xpose_test {

// `data` after an in-place transpose of `d`: element (b, r, c) takes (b, c, r); the gaps between
// rows and matrices keep what they held.
inline std::vector<unsigned char> expected_in_place(const xpose::TransposeDesc& desc,
                                                    const std::vector<unsigned char>& data) {
  const xpose::TransposeDesc d = xpose::resolved(desc);
  const std::size_t e = xpose::dtype_size(d.dtype);
  std::vector<unsigned char> out = data;
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r)
      for (std::int64_t c = 0; c < d.cols; ++c)
        std::memcpy(&out[(b * d.batch_stride_in + r * d.ld_in + c) * e],
                    &data[(b * d.batch_stride_in + c * d.ld_in + r) * e], e);
  return out;
}

// Square cases: around the tile edges (32 and 64, and the CPU's 16 to 256), odd sizes, one
// element, leading dimensions (odd, and a multiple of 16 bytes for every element size), batches
// packed and with gaps, and one large enough for the CPU's threads.
inline std::vector<xpose::TransposeDesc> in_place_cases(xpose::DType t) {
  std::vector<xpose::TransposeDesc> v;
  for (std::int64_t n : {1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000})
    v.push_back({t, n, n});
  v.push_back({t, 70, 70, 1, 73, 0, 0, 0});                  // odd leading dimension
  v.push_back({t, 129, 129, 1, 144, 0, 0, 0});               // rows 144 elements apart
  v.push_back({t, 65, 65, 3, 0, 0, 0, 0});                   // batch, packed
  v.push_back({t, 40, 40, 3, 48, 48, 40 * 48 + 16, 0});       // batch with gaps between matrices
  v.push_back({t, 1100, 1100});                               // the CPU's threads
  return v;
}

}  // namespace xpose_test
