// The measured planner's candidate list, on the CPU: the heuristic choice first, no duplicates, and
// only kernels that can run on the descriptor and pointers.
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/candidates.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/tiled_vec_shape.hpp"
#include "test_support.hpp"
#include "vector_width_checks.hpp"

namespace {

using xpose::Algorithm;
using xpose::DType;
using xpose::plan::Candidate;

const DType kTypes[] = {DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128};

bool vendor_type(DType t) { return t == DType::f32 || t == DType::f64 || t == DType::c64 || t == DType::c128; }

TEST(Candidates, OnlyKernelsThatFitTheLayout) {
  std::mt19937_64 rng(0xc4d1);
  std::uniform_int_distribution<std::int64_t> extent(1, 5000), pad(0, 40), batch(1, 4);
  for (int i = 0; i < 3000; ++i) {
    const DType t = kTypes[i % 5];
    const int e = static_cast<int>(xpose::dtype_size(t));
    xpose::TransposeDesc d{t, extent(rng), extent(rng), batch(rng)};
    d.ld_in = d.cols + pad(rng);
    d.ld_out = d.rows + pad(rng);
    d = xpose::resolved(d);
    for (int alignment : {1, 2, 4, 8, 16}) {
      if (alignment < e && alignment < 16) continue;  // execute refuses pointers not aligned to an element
      const std::vector<Candidate> list = xpose::plan::gpu_candidates(d, alignment, 132);
      ASSERT_FALSE(list.empty());
      EXPECT_EQ(list.front(), xpose::plan::heuristic_candidate(d, alignment, 132)) << "the heuristic choice first";
      EXPECT_EQ(list.front().algorithm, xpose::plan::choose_gpu_algorithm(d, alignment));
      for (std::size_t k = 0; k < list.size(); ++k) {
        const Candidate& c = list[k];
        EXPECT_EQ(std::count(list.begin(), list.end(), c), 1) << xpose::plan::candidate_name(c) << " listed twice";
        switch (c.algorithm) {
          case Algorithm::tiled_vec: {
            xpose::LaunchConfig config;
            const xpose::Status s =
                xpose::plan::configure_tiled_vec_tile(d, alignment, c.tile_bytes, c.row_bytes, config);
            ASSERT_TRUE(s.ok()) << xpose::plan::candidate_name(c) << ": " << s.message();
            const int v = config.vector_bytes;
            EXPECT_GE(alignment, v) << "never a vector width the alignment forbids";
            xpose_test::expect_strides_allow_vector(d, v);
            EXPECT_EQ(config.tile_rows * config.tile_cols * e, c.tile_bytes);
            EXPECT_EQ(config.tile_cols * e, c.row_bytes);
            EXPECT_TRUE(c.bands == config.bands || (c.bands == 1 && config.bands > 1))
                << "the planner's bands, or none where it has some";
            EXPECT_GE(config.tile_rows * e, 16) << "one 16-byte output vector spans 16 / e tile rows";
            EXPECT_EQ(config.grid_x, d.batch * ((d.rows + config.tile_rows - 1) / config.tile_rows) *
                                         ((d.cols + config.tile_cols - 1) / config.tile_cols));
            break;
          }
          case Algorithm::tiled_unaligned: EXPECT_GE(alignment, e) << "reads whole elements"; break;
          case Algorithm::gather:
            EXPECT_GE(alignment, 16) << "writes 16-byte vectors";
            EXPECT_EQ(d.ld_out * e % 16, 0) << "output rows on the 16-byte grid";
            if (d.batch > 1) EXPECT_EQ(d.batch_stride_out * e % 16, 0);
            break;
          case Algorithm::tiled_sectors:
            EXPECT_GE(alignment, 8) << "loads 8 bytes or more";
            EXPECT_LE(e, 2) << "packs 1- and 2-byte elements";
            EXPECT_EQ(d.ld_out * e % 8, 0) << "output rows on the 8-byte grid";
            EXPECT_FALSE(xpose::plan::output_rows_sector_aligned(d)) << "only where output rows start mid-sector";
            break;
          case Algorithm::skinny:
            EXPECT_TRUE(std::min(d.rows, d.cols) <= xpose::plan::kSkinnyMaxShort ||
                        xpose::plan::short_side_takes_skinny(d, alignment) ||
                        xpose::plan::few_rows_output_slabs_run(d));
            break;
          case Algorithm::small_batch:
            EXPECT_TRUE(d.rows * d.cols * e <= xpose::plan::kSmallBatchMaxMatrixBytes ||
                        (d.batch > 1 && d.rows * d.cols * e <= xpose::plan::kSmallBatchMaxWholeMatrixBytes) ||
                        (d.batch == 1 && std::min(d.rows, d.cols) * e * 32 <= xpose::plan::kSmallBatchMaxMatrixBytes))
                << "matrices that fit its tile, batches of one whole matrix per block, or one matrix whose short "
                   "side fits the tile 32 times";
            break;
          case Algorithm::vendor_geam: EXPECT_TRUE(vendor_type(t)); break;
          case Algorithm::vector_copy: EXPECT_TRUE(xpose::plan::transpose_is_copy(d)) << "packed vectors only"; break;
          case Algorithm::tiled_padded:
            EXPECT_EQ(k, 0u) << "the element-wise tile only as the heuristic fallback";
            break;
          default: ADD_FAILURE() << "unexpected candidate " << xpose::plan::candidate_name(c);
        }
      }
    }
  }
}

// A matrix the planner walks in bands: each banded tile is also timed without its bands.
TEST(Candidates, BandedTilesAlsoWithoutBands) {
  const xpose::TransposeDesc d = xpose::resolved({DType::c128, 8192, 8192});
  const std::vector<Candidate> list = xpose::plan::gpu_candidates(d, 16, 132);
  EXPECT_EQ(list.front().bands, 2) << xpose::plan::candidate_name(list.front());
  EXPECT_EQ(xpose::plan::candidate_name(list.front()), "tiled_vec/8192B/256B/bands2");
  int banded = 0, unbanded_twins = 0;
  for (const Candidate& c : list) {
    if (c.algorithm != Algorithm::tiled_vec || c.bands <= 1) continue;
    ++banded;
    Candidate twin = c;
    twin.bands = 1;
    unbanded_twins += static_cast<int>(std::count(list.begin(), list.end(), twin));
  }
  EXPECT_GE(banded, 2) << "8 and 16 KiB tiles of 256- and 512-byte rows";
  EXPECT_EQ(unbanded_twins, banded);
}

// The output pointer inside a sector: the heuristic choice first (tiled_vec, as make_plan takes it
// for those pointers), gather still timed after it.
TEST(Candidates, HeuristicFirstForTheOutputPointer) {
  const xpose::TransposeDesc d = xpose::resolved({DType::c128, 40, 40, 2621});
  const auto whole = xpose::plan::kSmallBatchMaxWholeMatrixBytes;
  EXPECT_EQ(xpose::plan::gpu_candidates(d, 16, 132, whole).front().algorithm, Algorithm::gather);
  const std::vector<Candidate> list = xpose::plan::gpu_candidates(d, 16, 132, whole, 16);
  EXPECT_EQ(list.front().algorithm, xpose::plan::choose_gpu_algorithm(d, 16, whole, 16));
  EXPECT_EQ(list.front().algorithm, Algorithm::tiled_vec);
  EXPECT_NE(list.front().tile_bytes, 0) << "the tile the heuristic plan configures";
  const auto is_gather = [](const Candidate& c) { return c.algorithm == Algorithm::gather; };
  EXPECT_EQ(std::count_if(list.begin(), list.end(), is_gather), 1) << "gather still timed";
}

TEST(Candidates, EveryBuiltTileOfAnAlignedSquare) {
  const xpose::TransposeDesc d = xpose::resolved({DType::u8, 4096, 4096});
  const std::vector<Candidate> list = xpose::plan::gpu_candidates(d, 16, 132);
  int tiled_vec = 0;
  for (const Candidate& c : list) tiled_vec += c.algorithm == Algorithm::tiled_vec;
  // 4 KiB tiles: 64..256-byte rows; 8 and 16 KiB: 64..512.
  EXPECT_EQ(tiled_vec, 3 + 4 + 4);
  ASSERT_GE(list.size(), 2u);
  EXPECT_EQ(list[list.size() - 2].algorithm, Algorithm::tiled_unaligned);
  EXPECT_EQ(list.back().algorithm, Algorithm::gather) << "no geam for u8, no skinny for a square";
}

TEST(Candidates, NoTileRowsFarWiderThanTheMatrix) {
  const xpose::TransposeDesc d = xpose::resolved({DType::f32, 1048576, 24});  // 96-byte rows
  for (const Candidate& c : xpose::plan::gpu_candidates(d, 16, 132))
    if (c.algorithm == Algorithm::tiled_vec) EXPECT_LE(c.row_bytes, 128) << xpose::plan::candidate_name(c);
}

TEST(Candidates, TileShapesWithoutAKernelAreRefused) {
  const xpose::TransposeDesc d = xpose::resolved({DType::bf16, 1024, 1024});
  xpose::LaunchConfig c;
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 8, xpose::kVecTileBytesTiny, 128, c).code(),
            xpose::StatusCode::unsupported)
      << "4 KiB tiles of 2-byte elements are built for 16-byte accesses only";
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(xpose::resolved({DType::u8, 1024, 1024}), 16,
                                                  xpose::kVecTileBytesMicro, 128, c)
                .code(),
            xpose::StatusCode::unsupported)
      << "2 KiB tiles are not built for 1-byte elements";
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 16, 8192, 32, c).code(), xpose::StatusCode::unsupported);
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 16, 8192, 96, c).code(), xpose::StatusCode::unsupported);
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 16, 8192, 1024, c).code(), xpose::StatusCode::unsupported);
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 16, 12288, 128, c).code(), xpose::StatusCode::unsupported);
  EXPECT_EQ(xpose::plan::configure_tiled_vec_tile(d, 4, 8192, 128, c).code(), xpose::StatusCode::unsupported)
      << "4-byte aligned pointers allow no vector width";
  ASSERT_TRUE(xpose::plan::configure_tiled_vec_tile(d, 16, 8192, 256, c).ok());
  EXPECT_EQ(c.tile_rows, 32);
  EXPECT_EQ(c.tile_cols, 128);
}

}  // namespace
