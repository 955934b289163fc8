// Launcher for the small_batch kernel: how many whole matrices each block takes; one matrix with a
// short side runs as a batch of slabs of its long side.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/small_batch.cuh"
#include "gpu/kernels/small_batch_chunks.cuh"
#include "gpu/kernels/small_batch_period.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/small_batch_banks.hpp"

namespace xpose::gpu {
namespace {

// XPOSE_SMALL_BATCH_ROTATION=<slope>: that slope wherever the rotated kernel runs, 0 for in order
// (for measuring); -1 where unset or negative: the planner's.
int forced_rotation() {
  static const int slope = std::max(-1, core::env_int("XPOSE_SMALL_BATCH_ROTATION", -1));
  return slope;
}

// At least this many blocks where the batch allows, so that small batches still spread over the SMs.
constexpr std::int64_t kSmallBatchMinBlocks = 512;

using plan::input_packed;
using plan::output_packed;

// Packed batches of matrices that divide a 16-byte chunk: small_batch_chunks_kernel where the pointers
// are 16-byte aligned, small_batch_chunks_shifted_kernel where they are not.
bool transposed_by_chunks(const TransposeDesc& d) {
  return chunk_permutation_applies(d.rows, d.cols, static_cast<long long>(dtype_size(d.dtype))) && input_packed(d) &&
         output_packed(d);
}

// Matrices per block: a chunk's worth per thread where the batch goes chunk by chunk; else as many as
// the tile holds, fewer where that would leave fewer than kSmallBatchMinBlocks blocks; a multiple of
// the count whose bytes fill whole 32-byte sectors where it can, so that neighbouring blocks do not
// share a sector of a packed output.
std::int64_t matrices_per_block(const TransposeDesc& d) {
  const std::int64_t bytes = d.rows * d.cols * static_cast<std::int64_t>(dtype_size(d.dtype));
  if (transposed_by_chunks(d)) return kChunkThreads * 16 / bytes;
  if (bytes > kSmallBatchTileBytes) return 1;  // one whole matrix per block
  const std::int64_t fit = kSmallBatchTileBytes / bytes;
  const std::int64_t sector_group = 32 / std::gcd<std::int64_t>(32, bytes);
  std::int64_t m = std::min(fit, std::max<std::int64_t>(1, ceil_div(d.batch, kSmallBatchMinBlocks)));
  if (m < sector_group && sector_group <= fit) m = sector_group;
  return m >= sector_group ? m - m % sector_group : m;
}

// Long-side elements per slab (one slab per block): as many as the tile holds, a multiple of the
// count whose bytes fill whole 32-byte sectors where it can.
std::int64_t slab_extent(const TransposeDesc& d) {
  const std::int64_t line = std::min(d.rows, d.cols) * static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t fit = kSmallBatchTileBytes / line, sector_group = 32 / std::gcd<std::int64_t>(32, line);
  return fit >= sector_group ? fit - fit % sector_group : fit;
}

// One matrix of few rows (or columns) seen as a batch of slabs of n columns (or rows) each, the
// slabs' matrices back to back on the side whose rows are packed; the rest of the long side, if
// any, as one more matrix at `rest_in` / `rest_out` elements past the pointers.
struct SlabViews {
  TransposeDesc full, rest;
  std::int64_t rest_in = 0, rest_out = 0;
};

SlabViews slab_views(const TransposeDesc& d, std::int64_t n) {
  SlabViews v;
  v.full = v.rest = d;
  if (d.rows <= d.cols) {  // slabs of n columns: input rows n apart, output matrices n rows apart
    v.full.cols = n;
    v.full.batch = d.cols / n;
    v.full.batch_stride_in = n;
    v.full.batch_stride_out = n * d.ld_out;
    v.rest.cols = d.cols % n;
    v.rest_in = v.full.batch * n;
    v.rest_out = v.full.batch * n * d.ld_out;
  } else {  // slabs of n rows
    v.full.rows = n;
    v.full.batch = d.rows / n;
    v.full.batch_stride_in = n * d.ld_in;
    v.full.batch_stride_out = n;
    v.rest.rows = d.rows % n;
    v.rest_in = v.full.batch * n * d.ld_in;
    v.rest_out = v.full.batch * n;
  }
  v.rest.batch = 1;
  return v;
}

// The period-table kernel (small_batch_period.cuh) for packed 1-byte matrices of fewer than 16 rows
// where each block starts a period of the output, lcm(R * C, 16) bytes, of at most
// kSmallBatchMaxPeriod: plain where R * C is not a power of two (H200: u8 3x3 0.68 -> 0.77 of
// memcpy, 5x5 0.69 -> 0.94, 9x9 0.67 -> 0.79), on a swizzled tile for 32 to 128 bytes, where on the
// plain one all lanes read the same bytes of their chunks, 4 ways into the same banks (u8 8x8 0.69
// there, 0.74 without a table, 0.91 swizzled). `tile_swizzled`: the one-tile kernel's own swizzle.
// Either pointer may be off the 16-byte grid; with a swizzled tile each byte then finds its own row.
enum class PeriodTable { none, plain, swizzled };
std::int64_t output_period(std::int64_t rc) { return rc / std::gcd<std::int64_t>(rc, 16) * 16; }
PeriodTable period_table(const TransposeDesc& d, std::int64_t per_block, bool tile_swizzled) {
  const std::int64_t rc = d.rows * d.cols, period = output_period(rc);
  if (dtype_size(d.dtype) != 1 || d.rows >= 16 || !input_packed(d) || !output_packed(d) || tile_swizzled ||
      per_block * rc > kSmallBatchTileBytes || period > kSmallBatchMaxPeriod || per_block * rc % period != 0)
    return PeriodTable::none;
  if ((rc & (rc - 1)) != 0) return PeriodTable::plain;
  return rc >= 32 && rc <= 128 ? PeriodTable::swizzled : PeriodTable::none;
}

template <int E>
Status launch_view(const TransposeDesc& d, std::int64_t per_block, int rotation, const unsigned char* in,
                   unsigned char* out, rt::Stream stream, const LaunchConfig& c) {
  const bool in_aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool out_aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const auto blocks = static_cast<unsigned>(ceil_div(d.batch, per_block));
  if (transposed_by_chunks(d)) {
    const int rows = static_cast<int>(d.rows), cols = static_cast<int>(d.cols);
    const std::int64_t bytes = d.batch * d.rows * d.cols * E;
    const ChunkPermutation p = chunk_permutation(rows, cols, E);
    if (in_aligned && out_aligned) {
      small_batch_chunks_kernel<<<blocks, kChunkThreads, 0, stream>>>(in, out, bytes, p, rows, cols, E);
      return check_launch("small_batch_chunks_kernel", c, 0, stream);
    }
    // Off the grid: one thread per aligned output chunk that holds an output byte. H200, 64 MiB, of
    // memcpy, with the output / input / both one element off (bench/results/
    // h200_2026-11-30g_small_batch_registers_off_grid.txt): u8 4x4 0.95 / 0.98 / 0.84 against the
    // one-tile kernel below's 0.58 / 0.61 / 0.57; bf16 2x4 0.95 / 0.97 / 0.84 against 0.67 / 0.69 / 0.66.
    const auto out_shift = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) % 16);
    const auto shifted_blocks = static_cast<unsigned>(ceil_div(ceil_div(bytes + out_shift, 16), kChunkThreads));
    const auto run = [&](auto kernel) {
      kernel<<<shifted_blocks, kChunkThreads, 0, stream>>>(in, out, bytes, p);
      return check_launch("small_batch_chunks_shifted_kernel", c, 0, stream);
    };
    if (!in_aligned && !out_aligned) return run(small_batch_chunks_shifted_kernel<true, true>);
    return in_aligned ? run(small_batch_chunks_shifted_kernel<false, true>)
                      : run(small_batch_chunks_shifted_kernel<true, false>);
  }
  SmallBatchArgs a;
  a.rows = static_cast<int>(d.rows);
  a.cols = static_cast<int>(d.cols);
  a.per_block = static_cast<int>(per_block);
  a.rc = make_fast_div(d.rows * d.cols);
  a.r = make_fast_div(d.rows);
  a.c = make_fast_div(d.cols);
  a.out_packed = output_packed(d);
  a.rot_slope = rotation;
  const bool in_packed = input_packed(d);
  // A 16-byte element straddles two chunks of the swizzled tile where a packed input is only 8-byte aligned.
  const bool elements_whole = E < 16 || !in_packed || in_aligned;
  // A rotated plan reads the plain tile.
  const bool swizzled = elements_whole && plan::small_batch_swizzled(d) && rotation == 0;
  if constexpr (E == 1) {
    const PeriodTable table = period_table(d, per_block, swizzled);
    if (table != PeriodTable::none) {
      const FastDiv period = make_fast_div(output_period(d.rows * d.cols));
      if (table == PeriodTable::plain)
        small_batch_period_kernel<false><<<blocks, kSmallBatchThreads, 0, stream>>>(in, out, d.batch, a, period);
      else if (in_aligned && out_aligned)
        small_batch_period_kernel<true><<<blocks, kSmallBatchThreads, 0, stream>>>(in, out, d.batch, a, period);
      else
        small_batch_period_kernel<true, true><<<blocks, kSmallBatchThreads, 0, stream>>>(in, out, d.batch, a, period);
      return check_launch("small_batch_period_kernel", c, 0, stream);
    }
  }
  const int bits = plan::small_batch_swizzle_bits(d.cols * 16);
  const MatrixGeometry g = make_geometry(d, 1);
  const int smem = small_batch_shared_bytes(static_cast<int>(per_block * d.rows * d.cols * E));
  const auto launch = [&](auto kernel) -> Status {
    if (smem > rt::kSharedWithoutOptIn) XPOSE_RETURN_IF_ERROR(allow_dynamic_shared_once(kernel, smem));
    kernel<<<blocks, kSmallBatchThreads, smem, stream>>>(in, out, g, a, bits);
    return check_launch("small_batch_kernel", c, static_cast<std::size_t>(smem), stream);
  };
  if constexpr (E <= 2) {
    if (rotation > 0 && a.out_packed && d.rows >= 16 / E)
      return in_packed ? launch(small_batch_kernel<E, false, true, true>)
                       : launch(small_batch_kernel<E, false, false, true>);
  }
  if (swizzled)
    return in_packed ? launch(small_batch_kernel<E, true, true>) : launch(small_batch_kernel<E, true, false>);
  return in_packed ? launch(small_batch_kernel<E, false, true>) : launch(small_batch_kernel<E, false, false>);
}

template <int E>
Status launch_sized(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  if (c.tile_cols == 0) return launch_view<E>(d, c.tile_rows, c.rotation, src, dst, stream, c);
  const SlabViews v = slab_views(d, c.tile_cols);
  if (v.full.batch > 0) XPOSE_RETURN_IF_ERROR(launch_view<E>(v.full, 1, 0, src, dst, stream, c));
  if (v.rest.rows > 0 && v.rest.cols > 0)
    XPOSE_RETURN_IF_ERROR(launch_view<E>(v.rest, 1, 0, src + v.rest_in * E, dst + v.rest_out * E, stream, c));
  return Status::ok_status();
}

}  // namespace

Status configure_small_batch(const TransposeDesc& d, LaunchConfig& c) {
  const std::int64_t whole_matrix_bytes = small_batch_whole_matrix_bytes();
  if (!plan::small_batch_fits(d, whole_matrix_bytes))
    return Status(StatusCode::unsupported,
                  d.batch == 1 ? "small_batch takes one matrix only where its short side spans at most " +
                                     std::to_string(kSmallBatchTileBytes / plan::kSmallBatchMinSlab) + " bytes"
                               : "small_batch takes batches of matrices of at most " +
                                     std::to_string(whole_matrix_bytes) + " bytes on this device");
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.batch == 1 && d.rows * d.cols * e > kSmallBatchTileBytes) {
    // One matrix with a short side: slabs of the long side, at least kSmallBatchMinSlab per block.
    const std::int64_t n = slab_extent(d), slabs = ceil_div(std::max(d.rows, d.cols), n);
    if (slabs >= (std::int64_t{1} << 31)) return Status(StatusCode::unsupported, "small_batch: too many slabs");
    c = linear_config(1, static_cast<int>(n), 16, kSmallBatchThreads, slabs);
    return Status::ok_status();
  }
  const std::int64_t per_block = matrices_per_block(d), blocks = ceil_div(d.batch, per_block);
  if (blocks >= (std::int64_t{1} << 31)) return Status(StatusCode::unsupported, "small_batch: batch too large for one grid");
  c = linear_config(static_cast<int>(per_block), 0, 16, kSmallBatchThreads, blocks);
  const int forced = forced_rotation();
  c.rotation = forced >= 0 ? forced : transposed_by_chunks(d) ? 0 : plan::small_batch_rotation(d);
  return Status::ok_status();
}

Status launch_small_batch(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                          rt::Stream stream) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t tile = c.tile_cols > 0 ? std::min(d.rows, d.cols) * c.tile_cols * e : c.tile_rows * d.rows * d.cols * e;
  // One whole matrix per block was bounded by the device at plan time (configure_small_batch), and a
  // tile the device cannot take fails its shared-memory opt-in at launch: no device query here.
  const bool whole_matrix = c.tile_cols == 0 && c.tile_rows == 1;
  const std::int64_t tile_limit = whole_matrix ? std::int64_t{1} << 30 : std::int64_t{kSmallBatchTileBytes};
  if (c.tile_rows < 1 || c.block_x != kSmallBatchThreads || tile > tile_limit)
    return Status(StatusCode::internal, "small_batch: the plan does not match the kernel's tile");
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
    return launch_sized<static_cast<int>(sizeof(decltype(tag)))>(d, c, in, out, stream);
  });
}

}  // namespace xpose::gpu
