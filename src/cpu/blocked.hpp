// The CPU backend's transpose: cache-blocked tiles, split across hardware threads.
#pragma once

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Tile edge in elements: a 64 x 64 tile of 8-byte elements is 32 KiB, one L1 of source + target
// lines in flight.
constexpr int kBlockedTile = 64;

// out[b][c][r] = in[b][r][c] on a resolved descriptor.
void blocked_transpose(const TransposeDesc& desc, const void* in, void* out);

}  // namespace xpose::cpu
