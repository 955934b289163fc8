// Launcher for the GPU's square-blocks in-place transpose of non-square matrices: per matrix, the g x
// g blocks through the square in-place kernels, then the pieces' cycles (plan::PiecesConfig).
#include <algorithm>
#include <type_traits>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/in_place_pieces.cuh"
#include "gpu/launch/launch_common.hpp"

namespace xpose::gpu {
namespace {

constexpr std::int64_t kMaxBlocks = (std::int64_t{1} << 31) - 1;

// The pieces' access of kUnit bytes (16: one vector load or store).
template <int kUnit>
using PieceUnit = typename std::conditional<kUnit == 16, uint4, typename ElementStorage<kUnit>::type>::type;

template <int kUnit>
Status move_pieces(const plan::PiecesConfig& c, unsigned char* matrix, const plan::PieceSegment* segments,
                   unsigned char* saved, rt::Stream s) {
  using U = PieceUnit<kUnit>;
  const std::int64_t units = c.map.g * static_cast<std::int64_t>(dtype_size(c.blocks.dtype)) / kUnit;
  const std::int64_t all = static_cast<std::int64_t>(c.segments.segments.size());
  if (c.segments.saved > 0) {
    const LaunchConfig lc = linear_config(0, 0, 0, c.threads, std::min(c.segments.saved, kMaxBlocks));
    save_pieces_kernel<U><<<grid_of(lc), block_of(lc), 0, s>>>(matrix, saved, segments, c.segments.saved, units);
    XPOSE_RETURN_IF_ERROR(check_launch("save_pieces_kernel", lc, 0, s));
  }
  if (all == 0) return Status::ok_status();
  const int smem = static_cast<int>(c.held_bytes);
  if (smem > rt::kSharedWithoutOptIn) XPOSE_RETURN_IF_ERROR(allow_dynamic_shared_once(move_pieces_kernel<U>, smem));
  const LaunchConfig lc = linear_config(0, 0, 0, c.threads, std::min(all, kMaxBlocks));
  move_pieces_kernel<U><<<grid_of(lc), block_of(lc), smem, s>>>(matrix, saved, segments, all, c.map, units);
  return check_launch("move_pieces_kernel", lc, smem, s);
}

}  // namespace

Status launch_in_place_pieces(const TransposeDesc& d, const plan::PiecesConfig& c, void* data,
                              const void* segments, void* saved, StreamHandle stream) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const auto* table = static_cast<const plan::PieceSegment*>(segments);
  auto* scratch = static_cast<unsigned char*>(saved);
  const auto s = static_cast<rt::Stream>(stream);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    unsigned char* const matrix = static_cast<unsigned char*>(data) + b * d.batch_stride_in * e;
    for (std::int64_t i = 0; i < c.block_launches; ++i)
      XPOSE_RETURN_IF_ERROR(launch_in_place(c.blocks, c.block_config, matrix + i * c.map.g * d.cols * e, stream));
    switch (c.unit_bytes) {
      case 16: XPOSE_RETURN_IF_ERROR(move_pieces<16>(c, matrix, table, scratch, s)); break;
      case 8: XPOSE_RETURN_IF_ERROR(move_pieces<8>(c, matrix, table, scratch, s)); break;
      case 4: XPOSE_RETURN_IF_ERROR(move_pieces<4>(c, matrix, table, scratch, s)); break;
      case 2: XPOSE_RETURN_IF_ERROR(move_pieces<2>(c, matrix, table, scratch, s)); break;
      default: XPOSE_RETURN_IF_ERROR(move_pieces<1>(c, matrix, table, scratch, s)); break;
    }
  }
  return Status::ok_status();
}

}  // namespace xpose::gpu
