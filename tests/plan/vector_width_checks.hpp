// The checks every tiled_vec configuration must pass, whoever chose it: an access holds whole
// elements and divides every row and batch stride (the pointers' alignment is checked by the caller).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "xpose/descriptor.hpp"

namespace xpose_test {

inline void expect_strides_allow_vector(const xpose::TransposeDesc& d, int v) {
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(d.dtype));
  EXPECT_GE(v, e) << "an access holds whole elements";
  EXPECT_EQ(d.ld_in * e % v, 0);
  EXPECT_EQ(d.ld_out * e % v, 0);
  if (d.batch > 1) EXPECT_EQ(d.batch_stride_in * e % v, 0);
  if (d.batch > 1) EXPECT_EQ(d.batch_stride_out * e % v, 0);
}

}  // namespace xpose_test
