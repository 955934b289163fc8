// The test oracle: plain loops over (b, r, c), copying each element's bytes with memcpy.
#include "cpu/reference.hpp"

#include <cstdint>
#include <cstring>

namespace xpose::cpu {

void reference_transpose(const TransposeDesc& d, const void* in, void* out) {
  const std::size_t esize = dtype_size(d.dtype);
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r)
      for (std::int64_t c = 0; c < d.cols; ++c) {
        const std::int64_t from = b * d.batch_stride_in + r * d.ld_in + c;
        const std::int64_t to = b * d.batch_stride_out + c * d.ld_out + r;
        std::memcpy(dst + to * esize, src + from * esize, esize);
      }
}

void reference_copy(const TransposeDesc& d, const void* in, void* out) {
  const std::size_t esize = dtype_size(d.dtype);
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t r = 0; r < d.rows; ++r) {
      const std::int64_t at = b * d.batch_stride_in + r * d.ld_in;
      std::memcpy(dst + at * esize, src + at * esize, static_cast<std::size_t>(d.cols) * esize);
    }
}

}  // namespace xpose::cpu
