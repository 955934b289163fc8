// The CPU backend's path for matrices with a short side. Transposing such a matrix splits records
// into planes (few columns: an RGB image's pixels into its three channels) or merges planes into
// records (few rows). Under K = 16 / element size elements, where the tiles of cpu_blocked move
// them element by element, records read may lie at any pitch and records written must lie packed;
// from K up to a few blocks' width (where measured faster than the tiles, which leave the last S
// mod K elements to element loops) any pitch works.
#pragma once

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Transposes `desc` (resolved) and returns true where this path applies: AVX2 allowed (`avx2`),
// element size under 16 bytes, and a short side that fits it (fewer columns than K, fewer rows than
// K with packed output rows, or one of the wider short sides in short_side.cpp's wide_runs_win).
// Returns false, having written nothing, elsewhere.
bool transpose_short_side(const TransposeDesc& desc, const void* in, void* out, bool avx2);

}  // namespace xpose::cpu
