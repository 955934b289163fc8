// The chunk-by-chunk transpose of batches of tiny matrices: where it applies, and its byte-permute
// selectors, run through a CPU model of __byte_perm on a chunk of distinct bytes and checked against
// the transpose of every matrix in the chunk.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "plan/chunk_permutation.hpp"

namespace {

using xpose::chunk_permutation;
using xpose::chunk_permutation_applies;

// __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of the 8 bytes y:x.
std::uint32_t byte_perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
  const std::uint64_t both = (static_cast<std::uint64_t>(y) << 32) | x;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<std::uint32_t>((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}

TEST(ChunkPermutation, AppliesToMatricesDividingTheChunk) {
  EXPECT_TRUE(chunk_permutation_applies(4, 4, 1));
  EXPECT_TRUE(chunk_permutation_applies(2, 2, 1));
  EXPECT_TRUE(chunk_permutation_applies(2, 8, 1));
  EXPECT_TRUE(chunk_permutation_applies(2, 4, 2));
  EXPECT_TRUE(chunk_permutation_applies(2, 2, 4));
  EXPECT_FALSE(chunk_permutation_applies(3, 3, 1)) << "9 bytes do not divide 16";
  EXPECT_FALSE(chunk_permutation_applies(8, 8, 1)) << "64 bytes: more than a chunk";
  EXPECT_FALSE(chunk_permutation_applies(1, 16, 1)) << "one row: a copy";
  EXPECT_FALSE(chunk_permutation_applies(2, 1, 8)) << "one column: a copy";
  EXPECT_FALSE(chunk_permutation_applies(2, 2, 8)) << "32 bytes";
}

TEST(ChunkPermutation, SelectorsTransposeEveryMatrixOfTheChunk) {
  int shapes = 0;
  for (int e : {1, 2, 4, 8, 16})
    for (int rows = 1; rows <= 16; ++rows)
      for (int cols = 1; cols <= 16; ++cols) {
        if (!chunk_permutation_applies(rows, cols, e)) continue;
        ++shapes;
        std::array<std::uint8_t, 16> in{};
        for (int b = 0; b < 16; ++b) in[b] = static_cast<std::uint8_t>(0x10 + b);
        std::uint32_t w[4];
        for (int k = 0; k < 4; ++k)
          w[k] = in[4 * k] | in[4 * k + 1] << 8 | in[4 * k + 2] << 16 | static_cast<std::uint32_t>(in[4 * k + 3]) << 24;
        const auto p = chunk_permutation(rows, cols, e);
        std::array<std::uint8_t, 16> out{};
        for (int k = 0; k < 4; ++k) {
          const std::uint32_t lo = byte_perm(w[0], w[1], p.sel[k][0]), hi = byte_perm(w[2], w[3], p.sel[k][1]);
          const std::uint32_t o = byte_perm(lo, hi, p.sel[k][2]);
          for (int i = 0; i < 4; ++i) out[4 * k + i] = static_cast<std::uint8_t>(o >> (8 * i));
        }
        const int per_matrix = rows * cols * e;
        for (int m = 0; m < 16 / per_matrix; ++m)
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              for (int b = 0; b < e; ++b)
                ASSERT_EQ(out[m * per_matrix + (c * rows + r) * e + b], in[m * per_matrix + (r * cols + c) * e + b])
                    << rows << "x" << cols << " of " << e << "-byte elements, matrix " << m << " (" << r << ", " << c << ")";
      }
  EXPECT_EQ(shapes, 10) << "u8 2x2 2x4 4x2 2x8 8x2 4x4, 2-byte 2x2 2x4 4x2, 4-byte 2x2";
}

}  // namespace
