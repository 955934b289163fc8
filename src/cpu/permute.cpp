// The CPU's permutations: the oracle's element loop, and the general route over 2-D slices.
#include "cpu/permute.hpp"

#include <cstdint>
#include <cstring>

#include "cpu/blocked.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {
namespace {

// Where slice s (numbered in output order) starts in each tensor, in elements.
void slice_offsets(const core::PermuteGeometry& g, std::int64_t s, std::int64_t& in_at, std::int64_t& out_at) {
  in_at = out_at = 0;
  for (int i = g.slice_dims - 1; i >= 0; --i) {
    const std::int64_t q = s / g.slice_extent[i], r = s - q * g.slice_extent[i];
    in_at += r * g.slice_in_stride[i];
    out_at += r * g.slice_out_stride[i];
    s = q;
  }
}

constexpr std::int64_t kMiB = std::int64_t{1} << 20;

}  // namespace

void reference_permute(const PermuteDesc& d, const void* in, void* out) {
  const int rank = static_cast<int>(d.extents.size());
  const std::size_t esize = dtype_size(d.dtype);
  std::int64_t in_stride[kMaxPermuteRank] = {}, total = 1;
  for (int k = rank - 1; k >= 0; --k) {
    in_stride[k] = total;
    total *= d.extents[k];
  }
  std::int64_t index[kMaxPermuteRank] = {};  // the output element's index, dimension by dimension
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (std::int64_t o = 0; o < total; ++o) {
    std::int64_t from = 0;
    for (int k = 0; k < rank; ++k) from += index[k] * in_stride[d.perm[k]];
    std::memcpy(dst + o * esize, src + from * esize, esize);
    for (int k = rank - 1; k >= 0 && ++index[k] == d.extents[d.perm[k]]; --k) index[k] = 0;
  }
}

void permute_general(const core::PermuteGeometry& g, const void* in, void* out) {
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const std::int64_t E = g.esize;
  const std::int64_t slice_elements = g.extent_a * g.extent_b;
  const std::int64_t total_bytes = g.slices * slice_elements * E;

  if (g.same_inner) {
    const auto run_bytes = static_cast<std::size_t>(g.extent_a * E);
    const std::int64_t pieces = threads_for(total_bytes, g.slices);
    parallel_for(pieces, [&](std::int64_t p) {
      std::int64_t in_at = 0, out_at = 0;
      for (std::int64_t s = g.slices * p / pieces; s < g.slices * (p + 1) / pieces; ++s) {
        slice_offsets(g, s, in_at, out_at);
        std::memcpy(dst + out_at * E, src + in_at * E, run_bytes);
      }
    });
    return;
  }

  // Slice: extent_b input rows (in_stride_b apart) of extent_a contiguous elements, into extent_a
  // output rows (out_stride_a apart) of extent_b contiguous elements. The largest slice dimension is
  // the transposes' batch (one call takes all of its slices); the other slice dimensions are looped.
  int batch_dim = -1;
  for (int i = 0; i < g.slice_dims; ++i)
    if (batch_dim < 0 || g.slice_extent[i] > g.slice_extent[batch_dim]) batch_dim = i;
  TransposeDesc d;
  core::dtype_of_size(g.esize, d.dtype);
  d.rows = g.extent_b;
  d.cols = g.extent_a;
  d.ld_in = g.in_stride_b;
  d.ld_out = g.out_stride_a;
  d.batch = batch_dim < 0 ? 1 : g.slice_extent[batch_dim];
  d.batch_stride_in = batch_dim < 0 ? d.rows * d.ld_in : g.slice_in_stride[batch_dim];
  d.batch_stride_out = batch_dim < 0 ? d.cols * d.ld_out : g.slice_out_stride[batch_dim];
  core::PermuteGeometry rest = g;  // the slice dimensions left to loop over
  if (batch_dim >= 0) rest.slice_extent[batch_dim] = 1;
  const std::int64_t calls = g.slices / d.batch;
  const auto one_call = [&](std::int64_t c) {
    std::int64_t in_at = 0, out_at = 0;
    slice_offsets(rest, c, in_at, out_at);
    blocked_transpose(d, src + in_at * E, dst + out_at * E);
  };
  // A call of 1 MiB or more takes the threads blocked_transpose gives it (threads_for); smaller ones
  // each run on one thread, the calls split among the threads (a call made from a pool worker runs
  // its pieces there: cpu/thread_pool.hpp).
  const std::int64_t call_bytes = d.batch * slice_elements * E;
  if (call_bytes >= kMiB || calls == 1) {
    for (std::int64_t c = 0; c < calls; ++c) one_call(c);
    return;
  }
  const std::int64_t pieces = threads_for(total_bytes, calls);
  parallel_for(pieces, [&](std::int64_t p) {
    for (std::int64_t c = calls * p / pieces; c < calls * (p + 1) / pieces; ++c) one_call(c);
  });
}

}  // namespace xpose::cpu
