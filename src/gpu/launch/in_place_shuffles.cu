// Launcher for the in-place transpose of non-square matrices: the plan's passes
// (plan::ShuffleConfig) in order on the stream, one kernel each, or for rows through scratch a copy
// and a kernel per round of rows.
#include <algorithm>
#include <string>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/in_place_shuffles.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {
namespace {

// One-dimensional grids stop here; the kernels loop over the blocks beyond it.
constexpr std::int64_t kMaxBlocks = (std::int64_t{1} << 31) - 1;
constexpr int kColumns = plan::kShuffleColumnThreads, kRows = plan::kShuffleRowThreads;

ShuffleGeometry pass_geometry(const TransposeDesc& d, const plan::ShuffleConfig& c, std::int64_t blocks_per_matrix) {
  const std::int64_t rows = c.view_rows, cols = c.view_cols;
  const plan::ShuffleShape shape = plan::make_shuffle_shape(rows, cols);
  ShuffleGeometry g{};
  g.rows = static_cast<std::uint32_t>(rows);
  g.cols = static_cast<std::uint32_t>(cols);
  g.by_b = make_fast_div(static_cast<std::int64_t>(shape.by_b.divisor));
  g.by_cols = make_fast_div(cols);
  g.by_rows = shape.by_rows;
  g.batch = d.batch;
  g.batch_stride = d.batch_stride_in;
  g.blocks_per_matrix = blocks_per_matrix;
  g.by_blocks_per_matrix = plan::make_div64(blocks_per_matrix);
  g.log2_width = 0;
  while ((1 << g.log2_width) < c.column_width) ++g.log2_width;
  const std::int64_t column_step = (plan::kShuffleColumnThreads >> g.log2_width) * cols;
  g.final_step_q = static_cast<std::uint32_t>(column_step / rows);
  g.final_step_i = static_cast<std::uint32_t>(column_step % rows);
  g.rows_per_block = static_cast<std::uint32_t>(c.rows_per_block);
  g.step_r = static_cast<std::uint32_t>(plan::kShuffleRowThreads / cols);
  g.step_j = static_cast<std::uint32_t>(plan::kShuffleRowThreads % cols);
  g.step_jm = static_cast<std::uint32_t>(g.step_j * rows % cols);
  return g;
}

// These kernels take a different amount of shared memory for each shape.
template <typename Kernel>
Status allow_shared(Kernel kernel, int smem) {
  return smem > rt::kSharedWithoutOptIn ? allow_dynamic_shared_once(kernel, smem) : Status::ok_status();
}

template <typename Kernel>
Status launch_pass(Kernel kernel, const char* name, int threads, const ShuffleGeometry& g, std::int64_t smem_bytes,
                   unsigned char* data, rt::Stream s) {
  const int smem = static_cast<int>(smem_bytes);
  XPOSE_RETURN_IF_ERROR(allow_shared(kernel, smem));
  const LaunchConfig lc = linear_config(0, 0, 0, threads, std::min(g.blocks_per_matrix * g.batch, kMaxBlocks));
  kernel<<<grid_of(lc), block_of(lc), smem, s>>>(data, g);
  return check_launch(name, lc, smem, s);
}

// The row pass through scratch: per matrix, staged_rows rows at a time copied into `scratch` and moved
// back into place.
template <int E>
Status launch_long_rows(bool inverse, const TransposeDesc& d, const plan::ShuffleConfig& c, unsigned char* data,
                        unsigned char* scratch, rt::Stream s) {
  if (scratch == nullptr) return Status(StatusCode::internal, "in_place: rows through scratch, and no scratch");
  const plan::ShuffleShape shape = plan::make_shuffle_shape(c.view_rows, c.view_cols);
  const auto elements = inverse ? shuffle_long_rows_kernel<E, true> : shuffle_long_rows_kernel<E, false>;
  const auto tiled = inverse ? shuffle_long_rows_tiled_kernel<E, true> : shuffle_long_rows_tiled_kernel<E, false>;
  LongRowTiles tiles{};
  const int tile_smem = static_cast<int>(c.view_rows * (c.long_tile + 1) * E);
  if (c.long_tile > 0) {
    tiles.rows = static_cast<std::uint32_t>(c.view_rows);
    tiles.tile = static_cast<std::uint32_t>(c.long_tile);
    tiles.b = c.view_cols / c.view_rows;
    tiles.tiles_per_row = ceil_div(tiles.b, c.long_tile);
    tiles.by_tiles_per_row = plan::make_div64(tiles.tiles_per_row);
    tiles.by_rows = make_fast_div(c.view_rows);
    tiles.by_tile = make_fast_div(c.long_tile);
    XPOSE_RETURN_IF_ERROR(allow_shared(tiled, tile_smem));
  }
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t first = 0; first < c.view_rows; first += c.staged_rows) {
      const std::int64_t count = std::min(c.staged_rows, c.view_rows - first);
      unsigned char* const rows = data + (b * d.batch_stride_in + first * c.view_cols) * E;
      const std::int64_t bytes = count * c.view_cols * E;
      XPOSE_GPU_TRY(rt::copy_d2d_async(scratch, rows, static_cast<std::size_t>(bytes), s));
      if (c.long_tile > 0) {
        const LaunchConfig lc = linear_config(0, 0, 0, kRows, std::min(count * tiles.tiles_per_row, kMaxBlocks));
        tiled<<<grid_of(lc), block_of(lc), tile_smem, s>>>(rows, scratch, tiles, first, count);
        XPOSE_RETURN_IF_ERROR(check_launch(
            inverse ? "shuffle_long_rows_tiled_kernel<gather>" : "shuffle_long_rows_tiled_kernel<scatter>", lc,
            tile_smem, s));
        continue;
      }
      const LaunchConfig lc = linear_config(0, 0, 0, kRows, std::min(ceil_div(count * c.view_cols, kRows), kMaxBlocks));
      elements<<<grid_of(lc), block_of(lc), 0, s>>>(rows, scratch, shape, first, count);
      XPOSE_RETURN_IF_ERROR(
          check_launch(inverse ? "shuffle_long_rows_kernel<gather>" : "shuffle_long_rows_kernel<scatter>", lc, 0, s));
    }
  return Status::ok_status();
}

template <int E>
Status launch_shuffle_pass(const plan::ShufflePass& p, const TransposeDesc& d, const plan::ShuffleConfig& c,
                           unsigned char* data, unsigned char* scratch, rt::Stream s) {
  const ShuffleGeometry columns = pass_geometry(d, c, c.column_blocks);
  const std::int64_t cs = c.column_smem_bytes;
  switch (p.map) {
    case plan::ShuffleMap::rotation:
      return p.inverse ? launch_pass(shuffle_columns_kernel<E, plan::ShuffleMap::rotation, true>,
                                     "shuffle_columns_kernel<rotation,inverse>", kColumns, columns, cs, data, s)
                       : launch_pass(shuffle_columns_kernel<E, plan::ShuffleMap::rotation, false>,
                                     "shuffle_columns_kernel<rotation>", kColumns, columns, cs, data, s);
    case plan::ShuffleMap::final_rows:
      return p.inverse ? launch_pass(shuffle_columns_kernel<E, plan::ShuffleMap::final_rows, true>,
                                     "shuffle_columns_kernel<final_rows,inverse>", kColumns, columns, cs, data, s)
                       : launch_pass(shuffle_columns_kernel<E, plan::ShuffleMap::final_rows, false>,
                                     "shuffle_columns_kernel<final_rows>", kColumns, columns, cs, data, s);
    case plan::ShuffleMap::rows: {
      if (c.long_rows) return launch_long_rows<E>(p.inverse, d, c, data, scratch, s);
      const ShuffleGeometry rows = pass_geometry(d, c, c.row_blocks);
      const std::int64_t rs = c.row_smem_bytes;
      if (c.swizzle_rows)
        return p.inverse ? launch_pass(shuffle_rows_kernel<E, true, true>, "shuffle_rows_kernel<gather,swizzled>", kRows,
                                       rows, rs, data, s)
                         : launch_pass(shuffle_rows_kernel<E, false, true>, "shuffle_rows_kernel<scatter,swizzled>",
                                       kRows, rows, rs, data, s);
      return p.inverse
                 ? launch_pass(shuffle_rows_kernel<E, true, false>, "shuffle_rows_kernel<gather>", kRows, rows, rs, data, s)
                 : launch_pass(shuffle_rows_kernel<E, false, false>, "shuffle_rows_kernel<scatter>", kRows, rows, rs, data, s);
    }
  }
  return Status(StatusCode::internal, "in_place: unknown shuffle pass");
}

template <int E>
Status run_passes(const TransposeDesc& d, const plan::ShuffleConfig& c, unsigned char* data, unsigned char* scratch,
                  rt::Stream s) {
  plan::ShufflePass passes[3];
  const int n = plan::shuffle_passes(c, passes);
  for (int i = 0; i < n; ++i) XPOSE_RETURN_IF_ERROR(launch_shuffle_pass<E>(passes[i], d, c, data, scratch, s));
  return Status::ok_status();
}

}  // namespace

Status launch_in_place_shuffles(const TransposeDesc& d, const plan::ShuffleConfig& c, void* data, void* scratch,
                                StreamHandle stream) {
  // One row or one column: the transpose has the same bytes.
  if (c.view_rows == 1 || c.view_cols == 1) return Status::ok_status();
  auto* bytes = static_cast<unsigned char*>(data);
  auto* staged = static_cast<unsigned char*>(scratch);
  const auto s = static_cast<rt::Stream>(stream);
  switch (dtype_size(d.dtype)) {
    case 1: return run_passes<1>(d, c, bytes, staged, s);
    case 2: return run_passes<2>(d, c, bytes, staged, s);
    case 4: return run_passes<4>(d, c, bytes, staged, s);
    case 8: return run_passes<8>(d, c, bytes, staged, s);
    case 16: return run_passes<16>(d, c, bytes, staged, s);
    default: return Status(StatusCode::unsupported, "in_place: unsupported element size");
  }
}

}  // namespace xpose::gpu
