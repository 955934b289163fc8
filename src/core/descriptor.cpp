// Resolving "0 = packed" strides and measuring how much memory an operand spans.
#include "xpose/descriptor.hpp"

namespace xpose {

TransposeDesc resolved(const TransposeDesc& desc) {
  TransposeDesc r = desc;
  if (r.ld_in == 0) r.ld_in = r.cols;
  if (r.ld_out == 0) r.ld_out = r.rows;
  if (r.batch_stride_in == 0) r.batch_stride_in = r.rows * r.ld_in;
  if (r.batch_stride_out == 0) r.batch_stride_out = r.cols * r.ld_out;
  return r;
}

// Callers validate first (src/core/validate.cpp), which proves these products fit in 64 bits.
std::int64_t input_span_elements(const TransposeDesc& d) {
  return (d.batch - 1) * d.batch_stride_in + (d.rows - 1) * d.ld_in + d.cols;
}

std::int64_t output_span_elements(const TransposeDesc& d) {
  return (d.batch - 1) * d.batch_stride_out + (d.cols - 1) * d.ld_out + d.rows;
}

}  // namespace xpose
