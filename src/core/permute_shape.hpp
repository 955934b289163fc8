// A permutation reduced to its simplest form, and what runs it: a copy, one 2-D (batched) transpose,
// or the general kernels' geometry.
#pragma once

#include <cstdint>

#include "xpose/descriptor.hpp"
#include "xpose/permute.hpp"
#include "xpose/status.hpp"

namespace xpose::core {

// Rank 1..kMaxPermuteRank, extents >= 1, perm a permutation, every byte offset within 64 bits.
Status validate_permute_desc(const PermuteDesc& desc);

// The permutation with extent-1 dimensions dropped and runs of dimensions that keep their order
// next to each other merged into one (a scalar becomes rank 1 of extent 1).
struct PermuteShape {
  DType dtype = DType::f32;
  int esize = 0;
  int rank = 0;
  std::int64_t extents[kMaxPermuteRank] = {};  // input dimensions, outermost first
  int perm[kMaxPermuteRank] = {};              // output dimension k is input dimension perm[k]
};
PermuteShape normalise_permute(const PermuteDesc& validated_desc);

// The general kernels' view: the input's innermost dimension `a` (stride 1 in the input) and the
// output's innermost `b` (stride 1 in the output) form 2-D slices, tiled; every other dimension
// indexes the slices, in output order. Where a and b are the same dimension (it stays innermost),
// the permutation moves whole runs of extent_a elements, contiguous on both sides.
constexpr int kMaxSliceDims = kMaxPermuteRank - 1;
struct PermuteGeometry {
  int esize = 0;
  bool same_inner = false;         // a == b: runs of extent_a elements
  std::int64_t extent_a = 1;       // input's innermost dimension
  std::int64_t extent_b = 1;       // output's innermost (1 where same_inner)
  std::int64_t in_stride_b = 0;    // elements between input neighbours along b
  std::int64_t out_stride_a = 0;   // elements between output neighbours along a
  int slice_dims = 0;
  std::int64_t slice_extent[kMaxSliceDims] = {};
  std::int64_t slice_in_stride[kMaxSliceDims] = {};
  std::int64_t slice_out_stride[kMaxSliceDims] = {};
  std::int64_t slices = 1;         // product of slice_extent
};
PermuteGeometry permute_geometry(const PermuteShape& shape);

// Runs (same_inner) moved in the widest units of up to 16 bytes that their length and `alignment`
// (the pointers', promised by the plan) allow: every run starts a whole number of runs into both
// tensors, so a unit that divides the run's bytes divides every offset too. Other geometries are
// returned as they are.
PermuteGeometry widen_runs(const PermuteGeometry& geometry, int alignment);

// The route for a normalised shape. For the transpose route, `transpose` is the packed 2-D
// descriptor (B x R x C -> B x C x R) whose elements may be a whole innermost dimension of the
// tensor (then typed by size), taken only where its size (1, 2, 4, 8 or 16 bytes) needs no more
// alignment than the plan's `alignment` promises.
struct PermuteRouting {
  PermuteRoute route = PermuteRoute::general;
  TransposeDesc transpose;
};
PermuteRouting route_permute(const PermuteShape& shape, int alignment);

// The element type of a size, for the wider elements of the transpose route (u8, i16, i32, i64, c128).
bool dtype_of_size(int bytes, DType& out);

}  // namespace xpose::core
