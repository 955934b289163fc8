// Element type names and sizes.
#include "xpose/dtype.hpp"

namespace xpose {
namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;
  std::size_t size;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::i8, "i8", 1},       {DType::u8, "u8", 1},     {DType::f8e4m3, "f8e4m3", 1},
    {DType::f8e5m2, "f8e5m2", 1}, {DType::f16, "f16", 2},   {DType::bf16, "bf16", 2},
    {DType::i16, "i16", 2},     {DType::f32, "f32", 4},   {DType::i32, "i32", 4},
    {DType::f64, "f64", 8},     {DType::i64, "i64", 8},   {DType::c64, "c64", 8},
    {DType::c128, "c128", 16},
};

const DTypeInfo* find(DType dtype) {
  for (const auto& info : kDTypes)
    if (info.dtype == dtype) return &info;
  return nullptr;
}

}  // namespace

std::size_t dtype_size(DType dtype) {
  const DTypeInfo* info = find(dtype);
  return info ? info->size : 0;
}

const char* dtype_name(DType dtype) {
  const DTypeInfo* info = find(dtype);
  return info ? info->name : "unknown";
}

bool parse_dtype(const std::string& name, DType& out) {
  for (const auto& info : kDTypes) {
    if (name == info.name) {
      out = info.dtype;
      return true;
    }
  }
  return false;
}

std::string dtype_names() {
  std::string names;
  for (const auto& info : kDTypes) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

}  // namespace xpose
