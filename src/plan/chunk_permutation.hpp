// A packed batch of matrices of 16 / k bytes each (k whole matrices per aligned 16-byte chunk) is
// transposed chunk by chunk: every chunk's bytes move by the same permutation, which three byte
// permutes (PRMT) per output word carry out in registers. Computed on the host from the shape.
#pragma once

#include <cstdint>

namespace xpose {

// Selectors of __byte_perm for output word k of a chunk (input words w0..w3):
//   lo = perm(w0, w1, sel[k][0]); hi = perm(w2, w3, sel[k][1]); out_k = perm(lo, hi, sel[k][2]).
struct ChunkPermutation {
  std::uint32_t sel[4][3];
};

// Whether a packed batch of rows x cols matrices of element_bytes-byte elements is transposed chunk
// by chunk: each matrix a divisor of 16 bytes (and more than one element on each side).
constexpr bool chunk_permutation_applies(long long rows, long long cols, long long element_bytes) {
  const long long bytes = rows * cols * element_bytes;
  return rows > 1 && cols > 1 && bytes <= 16 && 16 % bytes == 0;
}

// Input byte of output byte j of a chunk.
constexpr int chunk_source_byte(int rows, int cols, int element_bytes, int j) {
  const int o = j / element_bytes, rc = rows * cols;
  const int m = o / rc, c = (o % rc) / rows, r = (o % rc) % rows;  // output element (m, c, r)
  return (m * rc + r * cols + c) * element_bytes + j % element_bytes;
}

constexpr ChunkPermutation chunk_permutation(int rows, int cols, int element_bytes) {
  ChunkPermutation p{};
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 4; ++i) {
      const int s = chunk_source_byte(rows, cols, element_bytes, 4 * k + i);
      const int q = s / 4, b = s % 4;  // input word, byte
      const std::uint32_t shift = 4u * static_cast<std::uint32_t>(i);
      if (q < 2) {
        p.sel[k][0] |= static_cast<std::uint32_t>(4 * q + b) << shift;
        p.sel[k][2] |= static_cast<std::uint32_t>(i) << shift;
      } else {
        p.sel[k][1] |= static_cast<std::uint32_t>(4 * (q - 2) + b) << shift;
        p.sel[k][2] |= static_cast<std::uint32_t>(4 + i) << shift;
      }
    }
  }
  return p;
}

}  // namespace xpose
