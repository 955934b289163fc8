// Host-side GPU planning: the choice between the 16-byte path and the element-wise fallback, and the
// tile shape of the 16-byte path.
#include "plan/gpu_planner.hpp"

#include <algorithm>
#include <cstdint>

#include "plan/tiled_vec_shape.hpp"

namespace xpose::plan {
namespace {

constexpr std::int64_t kMaxGridYZ = 65535;  // kernels loop over tiles past this

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Short matrices get wide tiles and narrow ones tall tiles, so a tile lies mostly inside the matrix.
int choose_row_bytes(const TransposeDesc& d) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  int rb = 128;
  if (d.cols * esize <= kVecMinRowBytes) rb = kVecMinRowBytes;
  else if (d.rows <= 32) rb = 512;
  else if (d.rows <= 64) rb = 256;
  return std::min(rb, tiled_vec_max_row_bytes(esize));
}

}  // namespace

bool tiled_vec_fits(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const auto aligned = [](std::int64_t bytes) { return bytes % kVecBytes == 0; };
  return alignment >= kVecBytes && aligned(d.ld_in * e) && aligned(d.ld_out * e) &&
         (d.batch == 1 || (aligned(d.batch_stride_in * e) && aligned(d.batch_stride_out * e)));
}

Algorithm choose_gpu_algorithm(const TransposeDesc& d, int alignment) {
  if (tiled_vec_fits(d, alignment)) return Algorithm::tiled_vec;
  // A 32 x 32 tile of a matrix a few elements wide is mostly empty: loop over the short side instead.
  if (std::min(d.rows, d.cols) <= kSkinnyMaxShort) return Algorithm::skinny;
  return Algorithm::tiled_padded;
}

Status configure_tiled_vec(const TransposeDesc& d, int alignment, LaunchConfig& c) {
  if (!tiled_vec_fits(d, alignment))
    return Status(StatusCode::unsupported,
                  "tiled_vec needs 16-byte aligned pointers and leading dimensions / batch strides that are "
                  "multiples of 16 bytes");
  const int esize = static_cast<int>(dtype_size(d.dtype));
  const int rb = choose_row_bytes(d);
  c = LaunchConfig{};
  c.tile_cols = rb / esize;
  c.tile_rows = kVecSmemBytes / rb;
  c.swizzled = true;
  c.vector_bytes = kVecBytes;
  c.block_x = kVecThreads;
  c.block_y = 1;
  c.grid_x = ceil_div(d.cols, c.tile_cols);
  c.grid_y = std::min(ceil_div(d.rows, c.tile_rows), kMaxGridYZ);
  c.grid_z = std::min(d.batch, kMaxGridYZ);
  return Status::ok_status();
}

}  // namespace xpose::plan
