// The CPU backend's path for matrices with a short side: fewer rows or columns than a 16-byte
// block holds (K = 16 / element size), whose short-side rows lie packed in memory. Transposing
// such a matrix splits packed records into planes (few columns: an RGB image's pixels into its three
// channels) or merges planes into records (few rows); the block path moves those element by element.
#pragma once

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Transposes `desc` (resolved) and returns true where this path applies: AVX2 allowed (`avx2`),
// element size under 16 bytes, and either fewer columns than K with the input rows packed (ld_in ==
// cols) or fewer rows than K with the output rows packed (ld_out == rows). Returns false, having
// written nothing, elsewhere.
bool transpose_short_side(const TransposeDesc& desc, const void* in, void* out, bool avx2);

}  // namespace xpose::cpu
