// Launcher for the GPU's square-blocks in-place transpose of non-square matrices: per matrix, the g x
// g blocks through the square in-place kernels, then the pieces' cycles (plan::PiecesConfig).
#include <algorithm>
#include <string>
#include <type_traits>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/in_place_pieces.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {
namespace {

// The pieces' access of kUnit bytes (16: one vector load or store).
template <int kUnit>
using PieceUnit = typename std::conditional<kUnit == 16, uint4, typename ElementStorage<kUnit>::type>::type;

// Every matrix of the batch: its blocks, then its pieces in units of kUnit bytes. The move's shared
// memory is allowed before anything is queued, so that a refusal leaves the data as it was.
template <int kUnit>
Status run_pieces(const TransposeDesc& d, const plan::PiecesConfig& c, unsigned char* data,
                  const plan::PieceSegment* segments, unsigned char* saved, StreamHandle stream) {
  using U = PieceUnit<kUnit>;
  const auto s = static_cast<rt::Stream>(stream);
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t units = c.map.g * e / kUnit;
  const std::int64_t all = static_cast<std::int64_t>(c.segments.segments.size());
  if ((all > 0 && segments == nullptr) || (c.segments.saved > 0 && saved == nullptr))
    return Status(StatusCode::internal, "in_place: pieces without their segments or scratch");
  // Groups of a power of two under the block, or the whole block (width_log2 -1).
  int width_log2 = 0;
  while ((1 << width_log2) < c.group_threads) ++width_log2;
  if (c.group_threads == c.threads) width_log2 = -1;
  else if ((1 << width_log2) != c.group_threads || c.threads % c.group_threads != 0)
    return Status(StatusCode::internal, "in_place: pieces' groups of " + std::to_string(c.group_threads) + " threads");
  const std::int64_t groups = c.threads / c.group_threads;
  const int smem = static_cast<int>(c.held_bytes);
  if (smem > rt::kSharedWithoutOptIn) XPOSE_RETURN_IF_ERROR(allow_dynamic_shared_once(move_pieces_kernel<U>, smem));
  const auto grid_for = [groups](std::int64_t segments) {
    return std::min(ceil_div(segments, groups), plan::kInPlaceMaxBlocks);
  };
  const LaunchConfig save = linear_config(0, 0, 0, c.threads, grid_for(c.segments.saved));
  const LaunchConfig move = linear_config(0, 0, 0, c.threads, grid_for(all));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    unsigned char* const matrix = data + b * d.batch_stride_in * e;
    for (std::int64_t i = 0; i < c.block_launches; ++i)
      XPOSE_RETURN_IF_ERROR(launch_in_place(c.blocks, c.block_config, matrix + i * c.map.g * d.cols * e, stream));
    if (c.segments.saved > 0) {
      save_pieces_kernel<U><<<grid_of(save), block_of(save), 0, s>>>(matrix, saved, segments, c.segments.saved, units,
                                                                     width_log2);
      XPOSE_RETURN_IF_ERROR(check_launch("save_pieces_kernel", save, 0, s));
    }
    if (all == 0) continue;
    move_pieces_kernel<U><<<grid_of(move), block_of(move), smem, s>>>(matrix, saved, segments, all, c.map, units,
                                                                        width_log2);
    XPOSE_RETURN_IF_ERROR(check_launch("move_pieces_kernel", move, smem, s));
  }
  return Status::ok_status();
}

}  // namespace

Status launch_in_place_pieces(const TransposeDesc& d, const plan::PiecesConfig& c, void* data,
                              const void* segments, void* saved, StreamHandle stream) {
  auto* const x = static_cast<unsigned char*>(data);
  const auto* const table = static_cast<const plan::PieceSegment*>(segments);
  auto* const scratch = static_cast<unsigned char*>(saved);
  switch (c.unit_bytes) {
    case 16: return run_pieces<16>(d, c, x, table, scratch, stream);
    case 8: return run_pieces<8>(d, c, x, table, scratch, stream);
    case 4: return run_pieces<4>(d, c, x, table, scratch, stream);
    case 2: return run_pieces<2>(d, c, x, table, scratch, stream);
    case 1: return run_pieces<1>(d, c, x, table, scratch, stream);
    default:
      return Status(StatusCode::internal, "in_place: pieces in units of " + std::to_string(c.unit_bytes) + " bytes");
  }
}

}  // namespace xpose::gpu
