// The CPU backend's transpose: cache-blocked tiles of register-transposed blocks, split across
// hardware threads.
#pragma once

#include <cstddef>

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Tile edge in elements for an element size. A tile's output rows are 256 bytes, whole lines (128
// for f32: 64 x 64 tiles measured no faster than 32 x 32 in this session's experiments).
constexpr int blocked_tile_edge(std::size_t element_size) {
  return element_size == 1 ? 256 : element_size == 2 ? 128 : element_size <= 8 ? 32 : 16;
}

// out[b][c][r] = in[b][r][c] on a resolved descriptor.
void blocked_transpose(const TransposeDesc& desc, const void* in, void* out);

// One tile of `rows` x `cols` elements (pitches in bytes), its blocks stored straight to dst: no
// strips, no threads, for callers that walk cache-sized tiles themselves (the in-place pairs).
using TileTranspose = void (*)(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst,
                               std::ptrdiff_t dst_pitch, int rows, int cols);
// The tile function for `element_size`, with AVX2 where blocked_transpose would use it.
TileTranspose blocked_tile_transpose(std::size_t element_size);

}  // namespace xpose::cpu
