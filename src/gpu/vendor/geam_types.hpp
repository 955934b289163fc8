// The element types the vendor libraries' geam has (cuBLAS and rocBLAS alike): host code, shared by
// the vendor launchers and the measured planner's candidate list.
#pragma once

#include "xpose/dtype.hpp"

namespace xpose::gpu {

inline bool geam_has_type(DType t) {
  return t == DType::f32 || t == DType::f64 || t == DType::c64 || t == DType::c128;
}

}  // namespace xpose::gpu
