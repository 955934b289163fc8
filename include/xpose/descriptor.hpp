// TransposeDesc: what to transpose (shape, layout, element type), independent of where it runs.
#pragma once

#include <cstdint>

#include "xpose/dtype.hpp"

namespace xpose {

// A batch of row-major matrices: in[b][r][c] -> out[b][c][r].
//   in  element (b, r, c) lives at in  + b * batch_stride_in  + r * ld_in  + c
//   out element (b, c, r) lives at out + b * batch_stride_out + c * ld_out + r
// Strides are in elements. A value of 0 means "packed": ld_in = cols, ld_out = rows,
// batch_stride_in = rows * ld_in, batch_stride_out = cols * ld_out.
struct TransposeDesc {
  DType dtype = DType::f32;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t batch = 1;
  std::int64_t ld_in = 0;
  std::int64_t ld_out = 0;
  std::int64_t batch_stride_in = 0;
  std::int64_t batch_stride_out = 0;
};

// The same descriptor with every "0 = packed" field replaced by its value.
TransposeDesc resolved(const TransposeDesc& desc);

// Number of elements spanned by one operand (from the first to one past the last element).
std::int64_t input_span_elements(const TransposeDesc& resolved_desc);
std::int64_t output_span_elements(const TransposeDesc& resolved_desc);

}  // namespace xpose
