// Random inputs for GPU runs that are checked bit for bit: never zeros, and for floating-point types
// only normal numbers (a NaN or subnormal may legally change bits on the way through cuBLAS geam).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "xpose/xpose.hpp"

namespace xpose_cli {

// `bytes` random bytes from `seed`; for f16, bf16, f32, f64, c64 and c128 every IEEE word is
// rewritten to a normal number. Integer and fp8 data keep every bit pattern.
std::vector<unsigned char> random_input(xpose::DType dtype, std::size_t bytes, std::uint64_t seed);

}  // namespace xpose_cli
