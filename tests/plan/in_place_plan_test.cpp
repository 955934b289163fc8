// The in-place planner: its access width is one the alignment and strides allow, and the widest;
// tiles, threads and grid agree with the kernels' shapes.
#include <gtest/gtest.h>

#include "plan/in_place.hpp"

namespace {

using xpose::DType;
using xpose::TransposeDesc;
namespace plan = xpose::plan;

TEST(InPlacePlanner, VectorWidthIsTheWidestTheLayoutAllows) {
  for (const DType t : {DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128})
    for (const std::int64_t n : {1, 7, 64, 100, 1001})
      for (const std::int64_t extra : {0, 1, 2, 3, 4, 8})
        for (const std::int64_t batch : {1, 3})
          for (const std::int64_t gap : {0, 1, 2, 4})
            for (const int alignment : {1, 2, 4, 8, 16}) {
              const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
              if (alignment < std::min<std::int64_t>(e, 8)) continue;  // below the element's own
              const std::int64_t ld = n + extra;
              const TransposeDesc d{t, n, n, batch, ld, ld, n * ld + gap, n * ld + gap};
              const plan::InPlaceConfig c = plan::choose_in_place(d, alignment);
              const auto fits = [&](int v) {
                return v >= e && alignment % v == 0 && ld * e % v == 0 && (batch == 1 || (n * ld + gap) * e % v == 0);
              };
              const std::string what = std::string(xpose::dtype_name(t)) + " n " + std::to_string(n) + " ld " +
                                       std::to_string(ld) + " batch " + std::to_string(batch) + " gap " +
                                       std::to_string(gap) + " alignment " + std::to_string(alignment);
              if (n < plan::in_place_tile_edge(static_cast<int>(e), plan::InPlaceKernel::vectors)) {
                // Smaller than a tile: whole matrices a block, accesses that also divide the row (a 16-byte
                // element's may be aligned to 8 only), rows padded by a word or an access.
                EXPECT_EQ(c.kernel, plan::InPlaceKernel::small_squares) << what;
                int widest = 16;
                while (widest > e && !(fits(widest) && n * e % widest == 0)) widest /= 2;
                EXPECT_EQ(c.vector_bytes, widest) << what;
                EXPECT_EQ(c.tile, n) << what;
                EXPECT_EQ(c.row_pitch, n * e + std::max(widest, 4)) << what;
                EXPECT_EQ(c.row_pitch % c.vector_bytes, 0) << what;
                EXPECT_LE(c.shared_bytes(), std::max<std::int64_t>(plan::kSmallSquaresSharedBytes, n * c.row_pitch))
                    << what;
                EXPECT_LE(c.matrices_per_block, batch) << what;
                EXPECT_EQ(c.blocks, (batch + c.matrices_per_block - 1) / c.matrices_per_block) << what;
                EXPECT_EQ(c.threads, plan::kSmallSquaresBlockThreads) << what;
                continue;
              }
              if (c.vector_bytes != 0) EXPECT_TRUE(fits(c.vector_bytes)) << what;
              const int widest = fits(16) ? 16 : fits(8) ? 8 : 0;
              EXPECT_EQ(c.vector_bytes, widest) << what;
              const plan::InPlaceKernel kernel = widest > 0 ? plan::InPlaceKernel::vectors
                                                 : e <= 4   ? plan::InPlaceKernel::realigned
                                                            : plan::InPlaceKernel::elements;
              EXPECT_EQ(c.kernel, kernel) << what;
              EXPECT_EQ(c.tile, plan::in_place_tile_edge(static_cast<int>(e), kernel)) << what;
              EXPECT_EQ(c.threads, plan::in_place_threads(static_cast<int>(e), kernel)) << what;
              const std::int64_t tiles = (n + c.tile - 1) / c.tile;
              EXPECT_EQ(c.pairs, tiles * (tiles + 1) / 2) << what;
              EXPECT_EQ(c.blocks, c.pairs * batch) << what;
            }
}

// The vector shapes' blocks fit an SM as often as their register cap asks (2048 threads and 227 KiB of
// shared memory on sm_90), every thread loads whole vectors of both tiles, and the element and
// realigned kernels' two tiles fit static shared memory.
TEST(InPlacePlanner, ShapesFitTheirSms) {
  for (const int e : {1, 2, 4, 8, 16}) {
    const plan::InPlaceShape shape = plan::in_place_shape(e);
    const int tile = shape.edge * shape.edge * e;
    EXPECT_LE(shape.threads * shape.min_blocks, 2048) << e << "-byte elements";
    EXPECT_LE(2 * tile * shape.min_blocks, 227 * 1024) << e << "-byte elements";
    for (const int v : {8, 16}) {
      if (v < e) continue;
      EXPECT_EQ(tile % (v * shape.threads), 0) << e << "-byte elements, " << v << "-byte vectors";
      EXPECT_GE(shape.edge * e / v, 1) << e << "-byte elements, " << v << "-byte vectors";
    }
    const int edge = plan::in_place_tile_edge(e, plan::InPlaceKernel::elements);
    EXPECT_LE(2 * edge * (edge + 1) * e, 48 * 1024) << e << "-byte elements, element tiles";
    if (e <= 4) {
      // Two realigned tiles: rows of edge * e bytes in edge * e / 16 + 1 chunks behind a 4-word
      // margin, and up to 2 padding words.
      const plan::InPlaceShape realigned = plan::in_place_realigned_shape(e);
      const int row_words = 4 * (realigned.edge * e / 16 + 1) + 4 + 2, pair_bytes = 2 * realigned.edge * row_words * 4;
      EXPECT_EQ(realigned.edge * e % 16, 0) << e << "-byte elements, realigned tiles";
      EXPECT_EQ(realigned.edge, plan::in_place_tile_edge(e, plan::InPlaceKernel::realigned)) << e;
      EXPECT_LE(realigned.threads * realigned.min_blocks, 2048) << e << "-byte elements, realigned tiles";
      EXPECT_LE(pair_bytes, 48 * 1024) << e << "-byte elements, realigned tiles";
      EXPECT_LE(pair_bytes * realigned.min_blocks, 227 * 1024) << e << "-byte elements, realigned tiles";
    }
  }
}

TEST(InPlacePlanner, GridStopsAtTheLaunchLimit) {
  // 2^20 tiles a side of u8 with 16-byte vectors: about 2^39 pairs, far past 2^31 - 1 blocks.
  const TransposeDesc d{DType::u8, std::int64_t{64} << 20, std::int64_t{64} << 20, 1, std::int64_t{64} << 20, 0, 0, 0};
  const plan::InPlaceConfig c = plan::choose_in_place(d, 16);
  EXPECT_EQ(c.blocks, plan::kInPlaceMaxBlocks);
  EXPECT_GT(c.pairs, plan::kInPlaceMaxBlocks);
}

}  // namespace
