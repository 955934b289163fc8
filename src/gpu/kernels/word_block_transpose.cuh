// The register transpose the packed phases of 1- and 2-byte elements share.
#pragma once

#include <cstdint>

namespace xpose::gpu {

// A block of 4 / E rows x 4 / E columns of E-byte elements, one 32-bit word per row in `rows`, as one
// word per column in `cols` (row 0 in the low bytes).
template <int E>
__device__ __forceinline__ void transpose_word_block(const std::uint32_t (&rows)[4 / E], std::uint32_t (&cols)[4 / E]) {
  static_assert(E == 1 || E == 2, "word blocks are for 1- and 2-byte elements");
  if constexpr (E == 1) {
    // A 4 x 4 byte transpose in 8 permutes: bytes 0, 1 (2, 3) of rows 0 and 1 interleaved, the same
    // for rows 2 and 3, then halfwords of the two.
    const std::uint32_t r01_lo = __byte_perm(rows[0], rows[1], 0x5140), r01_hi = __byte_perm(rows[0], rows[1], 0x7362);
    const std::uint32_t r23_lo = __byte_perm(rows[2], rows[3], 0x5140), r23_hi = __byte_perm(rows[2], rows[3], 0x7362);
    cols[0] = __byte_perm(r01_lo, r23_lo, 0x5410);
    cols[1] = __byte_perm(r01_lo, r23_lo, 0x7632);
    cols[2] = __byte_perm(r01_hi, r23_hi, 0x5410);
    cols[3] = __byte_perm(r01_hi, r23_hi, 0x7632);
  } else {
    cols[0] = __byte_perm(rows[0], rows[1], 0x5410);  // halfword 0 of rows 0, 1
    cols[1] = __byte_perm(rows[0], rows[1], 0x7632);  // halfword 1 of rows 0, 1
  }
}

}  // namespace xpose::gpu
