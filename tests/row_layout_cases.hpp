// The matrices on which the GPU test runs the planner's row-layout tile rules (gpu_planner.cpp,
// tiled_vec_shape.hpp) against the reference, with the tile row width each must take; the planner test
// checks on the CPU that they plan tiled_vec with that width, so that the GPU test exercises each rule.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "xpose/xpose.hpp"

namespace xpose_test {

// (matrix, tile row bytes); each has its last tile row and column cut.
inline std::vector<std::pair<xpose::TransposeDesc, std::int64_t>> row_layout_cases(xpose::DType t) {
  using xpose::DType;
  if (t == DType::f32) return {{{t, 4103, 2050, 1, 2056, 4112}, 512}};  // input rows 32 bytes into a line
  if (t == DType::c128) return {{{t, 1031, 4100, 1, 4104, 1040}, 512}};  // padded input rows, 4096+ columns
  if (t == DType::bf16) return {{{t, 1040, 1032, 16}, 128}};             // a packed batch, 1024-2048 columns
  return {};
}

}  // namespace xpose_test
