// Permutations on the CPU: the test oracle's loops, and the backend's general path.
#pragma once

#include "core/permute_shape.hpp"
#include "xpose/permute.hpp"

namespace xpose::cpu {

// The oracle: every output element in order, its input element found from the unreduced
// descriptor (so that tests check the reduction too).
void reference_permute(const PermuteDesc& desc, const void* in, void* out);

// The general route: runs copied whole, or the 2-D slices (the input's innermost dimension against
// the output's) transposed by the blocked tiles, batched along one slice dimension per call and
// the calls spread over the threads.
void permute_general(const core::PermuteGeometry& geometry, const void* in, void* out);

}  // namespace xpose::cpu
