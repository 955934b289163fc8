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

// `pack`: the elements a thread moves at a time, one or a word's.
ShuffleGeometry pass_geometry(const TransposeDesc& d, const plan::ShuffleConfig& c, std::int64_t blocks_per_matrix,
                              int pack) {
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
  g.log2_lanes = g.log2_width;
  for (int p = pack; p > 1; p /= 2) --g.log2_lanes;
  const std::int64_t column_step = (plan::kShuffleColumnThreads >> g.log2_lanes) * cols;
  g.final_step_q = static_cast<std::uint32_t>(column_step / rows);
  g.final_step_i = static_cast<std::uint32_t>(column_step % rows);
  g.rows_per_block = static_cast<std::uint32_t>(c.rows_per_block);
  const std::int64_t row_step = std::int64_t{plan::kShuffleRowThreads} * pack;
  g.step_r = static_cast<std::uint32_t>(row_step / cols);
  g.step_j = static_cast<std::uint32_t>(row_step % cols);
  g.step_jm = static_cast<std::uint32_t>(g.step_j * rows % cols);
  g.rows_mod_cols = static_cast<std::uint32_t>(rows % cols);
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

// The column passes' kernels for one map and direction: elements, words with 8 loads in flight, or
// words with 4 at two blocks an SM.
template <int E, plan::ShuffleMap kMap, bool kInverse>
Status launch_columns(const plan::ShuffleConfig& c, const TransposeDesc& d, const char* name, unsigned char* data,
                      rt::Stream s) {
  constexpr int kWord = plan::shuffle_word_elements(E);
  const std::int64_t smem = c.column_smem_bytes;
  if constexpr (kWord > 1) {
    const ShuffleGeometry g = pass_geometry(d, c, c.column_blocks, kWord);
    if (c.column_words && c.column_word_loads == 8)
      return launch_pass(shuffle_columns_kernel<E, kMap, kInverse, kWord, 8>, name, kColumns, g, smem, data, s);
    if (c.column_words)
      return launch_pass(shuffle_columns_two_per_sm_kernel<E, kMap, kInverse, kWord>, name, kColumns, g, smem, data, s);
  }
  return launch_pass(shuffle_columns_kernel<E, kMap, kInverse, 1, shuffle_batch<E>()>, name, kColumns,
                     pass_geometry(d, c, c.column_blocks, 1), smem, data, s);
}

template <int E, bool kInverse, bool kSwizzle>
Status launch_rows(const plan::ShuffleConfig& c, const TransposeDesc& d, const char* name, unsigned char* data,
                   rt::Stream s) {
  constexpr int kWord = plan::shuffle_word_elements(E);
  if constexpr (kWord > 1)
    if (c.row_words)
      return launch_pass(shuffle_rows_words_kernel<E, kInverse, kSwizzle>, name, kRows,
                         pass_geometry(d, c, c.row_blocks, kWord), c.row_smem_bytes, data, s);
  return launch_pass(shuffle_rows_kernel<E, kInverse, kSwizzle>, name, kRows, pass_geometry(d, c, c.row_blocks, 1),
                     c.row_smem_bytes, data, s);
}

template <int E>
Status launch_shuffle_pass(const plan::ShufflePass& p, const TransposeDesc& d, const plan::ShuffleConfig& c,
                           unsigned char* data, unsigned char* scratch, rt::Stream s) {
  using plan::ShuffleMap;
  switch (p.map) {
    case ShuffleMap::rotation:
      return p.inverse ? launch_columns<E, ShuffleMap::rotation, true>(
                             c, d, "shuffle_columns_kernel<rotation,inverse>", data, s)
                       : launch_columns<E, ShuffleMap::rotation, false>(c, d, "shuffle_columns_kernel<rotation>",
                                                                        data, s);
    case ShuffleMap::final_rows:
      return p.inverse ? launch_columns<E, ShuffleMap::final_rows, true>(
                             c, d, "shuffle_columns_kernel<final_rows,inverse>", data, s)
                       : launch_columns<E, ShuffleMap::final_rows, false>(c, d, "shuffle_columns_kernel<final_rows>",
                                                                          data, s);
    case ShuffleMap::rows:
      if (c.long_rows) return launch_long_rows<E>(p.inverse, d, c, data, scratch, s);
      if (c.swizzle_rows)
        return p.inverse ? launch_rows<E, true, true>(c, d, "shuffle_rows_kernel<gather,swizzled>", data, s)
                         : launch_rows<E, false, true>(c, d, "shuffle_rows_kernel<scatter,swizzled>", data, s);
      return p.inverse ? launch_rows<E, true, false>(c, d, "shuffle_rows_kernel<gather>", data, s)
                       : launch_rows<E, false, false>(c, d, "shuffle_rows_kernel<scatter>", data, s);
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
