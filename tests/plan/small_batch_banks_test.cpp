// small_batch's bank model (src/plan/small_batch_banks.cpp), on the CPU: wavefront counts worked out
// by hand, and the rotation slope it picks.
#include <gtest/gtest.h>

#include <random>

#include "plan/gpu_planner.hpp"
#include "plan/small_batch_banks.hpp"
#include "test_support.hpp"

namespace {

using xpose::DType;
using xpose_test::describe;
using xpose::plan::small_batch_read_wavefronts;
using xpose::plan::small_batch_rotation;

xpose::TransposeDesc packed_batch(DType t, std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  return xpose::resolved({t, rows, cols, batch});
}

// 16 rows of 1-byte elements: lane l's vector is input column l, read one row per step. At 32 or 128
// columns a step's 32 lanes read 8 words (4 lanes a word), one per bank: 1 wavefront a step.
TEST(SmallBatchBanks, ConflictFreeReadsCountOneWavefrontAStep) {
  EXPECT_EQ(small_batch_read_wavefronts(16, 32, 1, 0, 0, 1), 16);
  EXPECT_EQ(small_batch_read_wavefronts(16, 128, 1, 0, 0, 2), 32);
}

// 4-byte elements, 16 rows of 32 columns: lane l reads rows 4 (l % 4) + s of column l / 4, words
// 32 apart in one bank: 4 lanes, 4 words, 4 wavefronts at each of the 4 steps. No rotation helps
// (it only reorders the same 4 rows), and none is chosen for 4-byte elements anyway.
TEST(SmallBatchBanks, ConflictingReadsCountTheWordsOfTheBusiestBank) {
  EXPECT_EQ(small_batch_read_wavefronts(16, 32, 4, 0, 0, 1), 16);
  EXPECT_EQ(small_batch_read_wavefronts(16, 32, 4, 0, 1, 1), 16);
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::f32, 17, 17, 1000)), 0);
}

// Rotation where it cuts the count to three quarters or less (for 1-byte vectors that wrap, where it
// is at most twice it, or one and a half times for rows of a power of two bytes), on the layouts the
// rotated kernel takes (packed batches, at least 16 / E rows, 1- and 2-byte elements); in order elsewhere.
TEST(SmallBatchBanks, RotatesOnlyWhereTheCountFalls) {
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 17, 17, 1000)), 1);  // 668 -> 135 wavefronts
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 31, 31, 1000)), 0);
  EXPECT_GT(small_batch_rotation(packed_batch(DType::bf16, 17, 17, 1000)), 0);
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 24, 24, 1000)), 0) << "wrapping vectors: as many wavefronts";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 64, 17, 1000)), 0) << "no wraps: 91% of the count";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 120, 128, 100)), 0) << "wrapping, but 7 times the count";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 80, 80, 1000)), 0) << "the swizzled tile: 1 a step";
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 40, 200, 100)), 0) << "wrapping, twice the count";
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 104, 72, 100)), 0) << "wrapping, 156% of the count";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 188, 64, 100)), 0) << "64-byte rows: 171% is too many";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 120, 96, 100)), 0) << "wrapping, 206% of the count";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 120, 120, 100)), 1) << "swizzled 4 a step, rotated 2.25";
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 72, 72, 100)), 0) << "wrapping, swizzled at 2 a step";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 80, 72, 100)), 0) << "no wraps, swizzled conflict-free";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::bf16, 72, 72, 100)), 0) << "2 bytes: swizzled 2 a step";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 17, 17, 1)), 0) << "one matrix";
  EXPECT_EQ(small_batch_rotation(packed_batch(DType::u8, 15, 17, 1000)), 0) << "fewer than 16 rows";
  EXPECT_GT(small_batch_rotation(packed_batch(DType::u8, 129, 129, 100)), 0) << "a whole matrix per block";
  xpose::TransposeDesc strided = packed_batch(DType::u8, 17, 17, 1000);
  strided.ld_out = 20;
  strided.batch_stride_out = 17 * 20;
  EXPECT_EQ(small_batch_rotation(strided), 0) << "strided output";
}

// On any shape the slope picked has the fewest wavefronts of all slopes, at most the allowed share of
// the in-order count (on the tile the plan would read otherwise): three quarters, or for 1-byte vectors
// that wrap into the next column twice (one and a half for rows of a power of two bytes).
TEST(SmallBatchBanks, PickedSlopeIsTheFewest) {
  std::mt19937_64 rng(0x5b4e);
  std::uniform_int_distribution<std::int64_t> side(16, 128);
  for (int i = 0; i < 60; ++i) {
    const DType t = i % 2 == 0 ? DType::u8 : DType::bf16;
    const int e = t == DType::u8 ? 1 : 2;
    const xpose::TransposeDesc d = packed_batch(t, side(rng) / e, side(rng), 64);
    if (d.rows * d.cols * e > xpose::plan::kSmallBatchMaxMatrixBytes) continue;
    const int slope = small_batch_rotation(d);
    const int bits = xpose::plan::small_batch_swizzled(d) ? xpose::plan::small_batch_swizzle_bits(16 * d.cols) : 0;
    const std::int64_t in_order = small_batch_read_wavefronts(d.rows, d.cols, e, bits, 0, 8);
    const std::int64_t share =
        e == 1 && d.rows % 16 != 0 ? xpose::plan::rotation_wrap_share(d.cols) : xpose::plan::kRotationMaxShare;
    if (slope == 0) continue;
    const std::int64_t picked = small_batch_read_wavefronts(d.rows, d.cols, e, 0, slope, 8);
    EXPECT_LE(100 * picked, share * in_order) << describe(d);
    for (int other = 1; other < 16 / e; ++other)
      EXPECT_LE(picked, small_batch_read_wavefronts(d.rows, d.cols, e, 0, other, 8)) << describe(d) << " slope " << other;
  }
}

}  // namespace
