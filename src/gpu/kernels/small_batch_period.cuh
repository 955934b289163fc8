// small_batch for 1-byte elements in matrices of fewer than 16 rows, packed on both sides. There each
// 16-byte output vector crosses input columns, and following them element by element
// (small_batch.cuh) costs about a dozen instructions a byte (ncu on an H200, u8 3x3 batches: 47 M
// instructions, issue 81% busy, 0.68 of memcpy). The output repeats its pattern every period =
// lcm(R * C, 16) bytes, so each block builds a table of every period byte's source while its input
// lands, and then takes each output byte with one table and one tile read.
#pragma once

#include <cstdint>

#include "gpu/kernels/small_batch.cuh"

namespace xpose::gpu {

// Periods up to this many bytes have a table (4 KiB of 16-bit entries).
constexpr int kSmallBatchMaxPeriod = 2048;

// Byte `base + x` of the tile, for the offsets x = a & 0xffff, a >> 16, b & 0xffff, b >> 16 as one
// word, in that order. kSwizzle: the tile in the chunk_swizzle layout of 128-byte rows from byte
// `shift` of smem. Where both pointers are on the grid (!kByteSwizzle, shift 0) `base` is a period
// start and the period at most 128 bytes, so a whole period lies in one row, XOR-ed by `row_xor`;
// else each byte finds its own row.
template <bool kSwizzle, bool kByteSwizzle>
__device__ __forceinline__ std::uint32_t gather_word(const unsigned char* tile, int base, int row_xor, int shift,
                                                     std::uint32_t a, std::uint32_t b) {
  const auto at = [&](std::uint32_t x) -> std::uint32_t {
    if constexpr (kByteSwizzle) return tile[swizzled_offset(shift + base + static_cast<int>(x), 7)];
    else if constexpr (kSwizzle) return tile[(base + static_cast<int>(x)) ^ row_xor];
    else return tile[base + static_cast<int>(x)];
  };
  const std::uint32_t b0 = at(a & 0xffffu), b1 = at(a >> 16), b2 = at(b & 0xffffu), b3 = at(b >> 16);
  return __byte_perm(__byte_perm(b0, b1, 0x1140), __byte_perm(b2, b3, 0x1140), 0x5410);
}

// Block (kSmallBatchThreads); grid: one block per a.per_block matrices, a.per_block * R * C a
// multiple of the period, so every block's output starts a period at the same place against the
// 16-byte grid: its first `head` bytes, up to the grid, go one by one, and the table is built from
// byte `head` of the period on. kSwizzle: for R * C of 32, 64 or 128 bytes. There the lanes of a
// warp, at the same step of their vectors, read the same byte of matrices a multiple of 32 bytes
// apart, 4 ways into the same banks; the swizzled tile spreads them. kByteSwizzle (with kSwizzle):
// either pointer off the 16-byte grid.
template <bool kSwizzle, bool kByteSwizzle = false>
__global__ void __launch_bounds__(kSmallBatchThreads)
    small_batch_period_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                              std::int64_t batch, SmallBatchArgs a, FastDiv period) {
  static_assert(kSwizzle || !kByteSwizzle, "byte by byte swizzled addresses on a swizzled tile");
  // The tile, to the end of the 128-byte line a shifted input's swizzle reaches.
  alignas(16) __shared__ unsigned char smem[small_batch_shared_bytes(kSmallBatchTileBytes)];
  // Output byte head + i of a period -> its tile byte from the period's start (up to two periods on).
  alignas(16) __shared__ std::uint16_t source[kSmallBatchMaxPeriod];
  const int tid = threadIdx.x;
  const std::int64_t b0 = static_cast<std::int64_t>(blockIdx.x) * a.per_block;
  const int nm = static_cast<int>(batch - b0 < a.per_block ? batch - b0 : a.per_block);
  const int rc = a.rows * a.cols, n = nm * rc;
  const unsigned char* src = in + b0 * rc;
  unsigned char* dst = out + b0 * rc;
  const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);  // 0 where kSwizzle alone
  const int grid_gap = static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15);
  const int head = grid_gap < n ? grid_gap : n;
  unsigned char* tile = smem + shift;
  if constexpr (kSwizzle) start_run_to_swizzled(smem, shift, src, n, 7, tid);
  else start_run_to_shared(tile, src, n, tid);
  const int p_bytes = static_cast<int>(period.divisor);
  for (int i = tid; i < p_bytes; i += kSmallBatchThreads) {
    // Output byte head + i: past the period, the next period's byte, whose source is a period on.
    const int o = i + head >= p_bytes ? i + head - p_bytes : i + head;
    const QuotRem m = fast_divmod(static_cast<std::uint32_t>(o), a.rc);
    const QuotRem cr = fast_divmod(m.rem, a.r);  // output row c (quot), column r (rem) of matrix m
    source[i] = static_cast<std::uint16_t>(m.quot * rc + cr.rem * a.cols + cr.quot + (o != i + head ? p_bytes : 0));
  }
  rt::wait_copies_to_shared();
  __syncthreads();

  const unsigned char* from = kSwizzle ? smem : tile;
  const int vecs = (n - head) / 16;
  for (int v = tid; v < vecs; v += kSmallBatchThreads) {
    const QuotRem p = fast_divmod(static_cast<std::uint32_t>(16 * v), period);  // rem: a multiple of 16
    const int base = 16 * v - static_cast<int>(p.rem);
    const int row_xor = kSwizzle ? ((base >> 7) & 7) << 4 : 0;
    const uint4 lo = *reinterpret_cast<const uint4*>(source + p.rem);
    const uint4 hi = *reinterpret_cast<const uint4*>(source + p.rem + 8);
    *reinterpret_cast<uint4*>(dst + head + 16 * v) = make_uint4(
        gather_word<kSwizzle, kByteSwizzle>(from, base, row_xor, shift, lo.x, lo.y),
        gather_word<kSwizzle, kByteSwizzle>(from, base, row_xor, shift, lo.z, lo.w),
        gather_word<kSwizzle, kByteSwizzle>(from, base, row_xor, shift, hi.x, hi.y),
        gather_word<kSwizzle, kByteSwizzle>(from, base, row_xor, shift, hi.z, hi.w));
  }
  // The bytes before the block's first whole vector and past its last.
  const int tail = head + 16 * vecs;
  for (int o = tid; o < head + (n - tail); o += kSmallBatchThreads) {
    const int at = o < head ? o : tail + (o - head);
    const int x = small_batch_cursor(at, a).src;
    dst[at] = kSwizzle ? smem[swizzled_offset(shift + x, 7)] : tile[x];
  }
}

}  // namespace xpose::gpu
