// Checks a permutation, reduces it (drop extent-1 dimensions, merge the ones that stay adjacent) and
// routes it.
#include "core/permute_shape.hpp"

#include <algorithm>
#include <string>

namespace xpose::core {
namespace {

Status invalid(const std::string& message) { return Status(StatusCode::invalid_argument, message); }

std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

Status validate_permute_desc(const PermuteDesc& desc) {
  const std::size_t esize = dtype_size(desc.dtype);
  if (esize == 0) return Status(StatusCode::unsupported, "unsupported element type");
  const int rank = static_cast<int>(desc.extents.size());
  if (rank < 1 || rank > kMaxPermuteRank)
    return invalid("a permutation takes 1 to " + std::to_string(kMaxPermuteRank) + " dimensions (got " +
                   std::to_string(rank) + ")");
  if (static_cast<int>(desc.perm.size()) != rank)
    return invalid("perm has " + std::to_string(desc.perm.size()) + " entries for " + std::to_string(rank) +
                   " extents");
  std::int64_t bytes = static_cast<std::int64_t>(esize);
  for (int d = 0; d < rank; ++d) {
    if (desc.extents[d] < 1)
      return invalid("extent " + std::to_string(d) + " must be >= 1 (got " + std::to_string(desc.extents[d]) + ")");
    if (__builtin_mul_overflow(bytes, desc.extents[d], &bytes))
      return invalid("tensor too large: byte offsets overflow 64 bits");
  }
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (int p : desc.perm) {
    if (p < 0 || p >= rank || seen[static_cast<std::size_t>(p)])
      return invalid("perm must name each dimension 0.." + std::to_string(rank - 1) + " once (got " +
                     join(desc.perm) + ")");
    seen[static_cast<std::size_t>(p)] = true;
  }
  return Status::ok_status();
}

PermuteShape normalise_permute(const PermuteDesc& desc) {
  PermuteShape s;
  s.dtype = desc.dtype;
  s.esize = static_cast<int>(dtype_size(desc.dtype));
  const int rank = static_cast<int>(desc.extents.size());

  // Dimensions of extent 1 move nothing: renumber the others in input order.
  int kept_index[kMaxPermuteRank] = {};
  int kept = 0;
  for (int d = 0; d < rank; ++d) kept_index[d] = desc.extents[d] > 1 ? kept++ : -1;
  if (kept == 0) {
    s.rank = 1;
    s.extents[0] = 1;
    s.perm[0] = 0;
    return s;
  }
  std::int64_t kept_extent[kMaxPermuteRank] = {};
  int order[kMaxPermuteRank] = {};  // output order of the kept dimensions, by their new numbers
  int n = 0;
  for (int d = 0; d < rank; ++d)
    if (kept_index[d] >= 0) kept_extent[kept_index[d]] = desc.extents[d];
  for (int k = 0; k < rank; ++k)
    if (kept_index[desc.perm[k]] >= 0) order[n++] = kept_index[desc.perm[k]];

  // Runs of the output order that count up by one are one dimension: they lie together, in the
  // same order, on both sides. Each run is a range of input dimensions; the runs' first input
  // dimensions, sorted, number the merged input dimensions.
  int run_first[kMaxPermuteRank] = {}, run_length[kMaxPermuteRank] = {};
  int runs = 0;
  for (int k = 0; k < n; ++k) {
    if (k > 0 && order[k] == order[k - 1] + 1) {
      ++run_length[runs - 1];
    } else {
      run_first[runs] = order[k];
      run_length[runs] = 1;
      ++runs;
    }
  }
  // The runs sorted by their first input dimension (an insertion sort: at most kMaxPermuteRank).
  int by_input[kMaxPermuteRank] = {};
  for (int r = 0; r < runs; ++r) {
    int i = r;
    for (; i > 0 && run_first[by_input[i - 1]] > run_first[r]; --i) by_input[i] = by_input[i - 1];
    by_input[i] = r;
  }
  s.rank = runs;
  for (int i = 0; i < runs; ++i) {
    const int r = by_input[i];
    std::int64_t extent = 1;
    for (int d = run_first[r]; d < run_first[r] + run_length[r]; ++d) extent *= kept_extent[d];
    s.extents[i] = extent;
    s.perm[r] = i;  // run r is output dimension r and merged input dimension i
  }
  return s;
}

PermuteGeometry permute_geometry(const PermuteShape& s) {
  PermuteGeometry g;
  g.esize = s.esize;
  std::int64_t in_stride[kMaxPermuteRank] = {}, out_stride[kMaxPermuteRank] = {};
  std::int64_t stride = 1;
  for (int d = s.rank - 1; d >= 0; --d) {
    in_stride[d] = stride;
    stride *= s.extents[d];
  }
  stride = 1;
  for (int k = s.rank - 1; k >= 0; --k) {
    out_stride[s.perm[k]] = stride;
    stride *= s.extents[s.perm[k]];
  }
  const int a = s.rank - 1, b = s.perm[s.rank - 1];
  g.same_inner = a == b;
  g.extent_a = s.extents[a];
  g.extent_b = g.same_inner ? 1 : s.extents[b];
  g.in_stride_b = g.same_inner ? 0 : in_stride[b];
  g.out_stride_a = g.same_inner ? 0 : out_stride[a];
  for (int k = 0; k < s.rank; ++k) {
    const int d = s.perm[k];
    if (d == a || d == b) continue;
    g.slice_extent[g.slice_dims] = s.extents[d];
    g.slice_in_stride[g.slice_dims] = in_stride[d];
    g.slice_out_stride[g.slice_dims] = out_stride[d];
    g.slices *= s.extents[d];
    ++g.slice_dims;
  }
  return g;
}

PermuteGeometry widen_runs(const PermuteGeometry& g, int alignment) {
  if (!g.same_inner) return g;
  const std::int64_t run_bytes = g.extent_a * g.esize;
  int unit = 16;
  while (unit > g.esize && (unit > alignment || run_bytes % unit != 0)) unit /= 2;
  if (unit <= g.esize) return g;
  PermuteGeometry w = g;
  const std::int64_t scale = unit / g.esize;  // elements per unit
  w.esize = unit;
  w.extent_a = g.extent_a / scale;
  for (int i = 0; i < g.slice_dims; ++i) {
    w.slice_in_stride[i] = g.slice_in_stride[i] / scale;
    w.slice_out_stride[i] = g.slice_out_stride[i] / scale;
  }
  return w;
}

bool dtype_of_size(int bytes, DType& out) {
  switch (bytes) {
    case 1: out = DType::u8; return true;
    case 2: out = DType::i16; return true;
    case 4: out = DType::i32; return true;
    case 8: out = DType::i64; return true;
    case 16: out = DType::c128; return true;
    default: return false;
  }
}

PermuteRouting route_permute(const PermuteShape& s, int alignment) {
  PermuteRouting r;
  if (s.rank == 1) {
    r.route = PermuteRoute::copy;
    return r;
  }
  // An outer dimension that stays outermost is a batch; an inner one that stays innermost is part
  // of each element. What is left between them must be two dimensions that swap.
  const bool batched = s.perm[0] == 0;
  const bool inner = s.perm[s.rank - 1] == s.rank - 1;
  const int middle = s.rank - (batched ? 1 : 0) - (inner ? 1 : 0);
  const int first = batched ? 1 : 0;
  if (middle != 2 || s.perm[first] != first + 1 || s.perm[first + 1] != first) return r;  // general
  DType dtype = s.dtype;
  if (inner) {
    const std::int64_t element_bytes = s.esize * s.extents[s.rank - 1];
    if (element_bytes > 16 || !dtype_of_size(static_cast<int>(element_bytes), dtype)) return r;
    if (std::min<std::int64_t>(element_bytes, 8) > alignment) return r;
  }
  r.route = PermuteRoute::transpose;
  r.transpose.dtype = dtype;
  r.transpose.batch = batched ? s.extents[0] : 1;
  r.transpose.rows = s.extents[first];
  r.transpose.cols = s.extents[first + 1];
  return r;
}

}  // namespace xpose::core
