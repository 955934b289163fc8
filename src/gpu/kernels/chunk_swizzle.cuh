// A shared-memory layout against bank conflicts for runs read down their rows: each 16-byte chunk
// sits XOR-ed within its 128 bytes by bits [bits, bits + 3) of its offset, so rows 2^bits bytes
// apart that one read instruction takes land in different banks. 16-byte chunks stay whole (vector
// copies into the run are unchanged); an element must not straddle one; bits >= 7.
#pragma once

namespace xpose::gpu {

__device__ __forceinline__ int swizzled_offset(int x, int bits) { return x ^ (((x >> bits) & 7) << 4); }

}  // namespace xpose::gpu
