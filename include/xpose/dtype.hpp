// Element types: the names users give; a transpose moves bytes, so only the size matters to kernels.
#pragma once

#include <cstddef>
#include <string>

namespace xpose {

enum class DType {
  i8, u8, f8e4m3, f8e5m2,  // 1 byte
  f16, bf16, i16,          // 2 bytes
  f32, i32,                // 4 bytes
  f64, i64, c64,           // 8 bytes
  c128,                    // 16 bytes
};

std::size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);
// Parses a name as printed by dtype_name ("f32", "bf16", "f8e4m3", ...). False if unknown.
bool parse_dtype(const std::string& name, DType& out);
// All names, comma separated, for help and error messages.
std::string dtype_names();

}  // namespace xpose
