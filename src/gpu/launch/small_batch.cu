// Launcher for the small_batch kernel: how many whole matrices each block takes.
#include <numeric>

#include "gpu/kernels/small_batch.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {
namespace {

// At least this many blocks where the batch allows, so that small batches still spread over the SMs.
constexpr std::int64_t kSmallBatchMinBlocks = 512;

bool input_packed(const TransposeDesc& d) {
  return d.ld_in == d.cols && (d.batch == 1 || d.batch_stride_in == d.rows * d.cols);
}
bool output_packed(const TransposeDesc& d) {
  return d.ld_out == d.rows && (d.batch == 1 || d.batch_stride_out == d.rows * d.cols);
}

// Matrices per block: as many as the tile holds, fewer where that would leave fewer than
// kSmallBatchMinBlocks blocks; a multiple of the count whose bytes fill whole 32-byte sectors where
// it can, so that neighbouring blocks do not share a sector of a packed output.
std::int64_t matrices_per_block(const TransposeDesc& d) {
  const std::int64_t bytes = d.rows * d.cols * static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t fit = kSmallBatchTileBytes / bytes;
  const std::int64_t sector_group = 32 / std::gcd<std::int64_t>(32, bytes);
  std::int64_t m = std::min(fit, std::max<std::int64_t>(1, ceil_div(d.batch, kSmallBatchMinBlocks)));
  if (m < sector_group && sector_group <= fit) m = sector_group;
  return m >= sector_group ? m - m % sector_group : m;
}

template <int E>
Status launch_sized(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  SmallBatchArgs a;
  a.rows = static_cast<int>(d.rows);
  a.cols = static_cast<int>(d.cols);
  a.per_block = c.tile_rows;
  a.rc = make_fast_div(d.rows * d.cols);
  a.r = make_fast_div(d.rows);
  a.c = make_fast_div(d.cols);
  a.in_packed = input_packed(d);
  a.out_packed = output_packed(d);
  small_batch_kernel<E><<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const unsigned char*>(in),
                                                                static_cast<unsigned char*>(out),
                                                                make_geometry(d, 1), a);
  return check_launch("small_batch_kernel", c, kSmallBatchTileBytes, stream);
}

}  // namespace

Status configure_small_batch(const TransposeDesc& d, LaunchConfig& c) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.rows * d.cols * e > kSmallBatchTileBytes)
    return Status(StatusCode::unsupported, "small_batch takes matrices of at most " +
                                               std::to_string(kSmallBatchTileBytes) + " bytes");
  const std::int64_t per_block = matrices_per_block(d), blocks = ceil_div(d.batch, per_block);
  if (blocks >= (std::int64_t{1} << 31)) return Status(StatusCode::unsupported, "small_batch: batch too large for one grid");
  c = linear_config(static_cast<int>(per_block), 0, 16, kSmallBatchThreads, blocks);
  return Status::ok_status();
}

Status launch_small_batch(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                          rt::Stream stream) {
  if (c.tile_rows < 1 || c.block_x != kSmallBatchThreads || c.tile_rows * d.rows * d.cols * static_cast<std::int64_t>(dtype_size(d.dtype)) > kSmallBatchTileBytes)
    return Status(StatusCode::internal, "small_batch: the plan does not match the kernel's tile");
  switch (dtype_size(d.dtype)) {
    case 1: return launch_sized<1>(d, c, in, out, stream);
    case 2: return launch_sized<2>(d, c, in, out, stream);
    case 4: return launch_sized<4>(d, c, in, out, stream);
    case 8: return launch_sized<8>(d, c, in, out, stream);
    case 16: return launch_sized<16>(d, c, in, out, stream);
    default: return Status(StatusCode::unsupported, "small_batch: unsupported element size");
  }
}

}  // namespace xpose::gpu
