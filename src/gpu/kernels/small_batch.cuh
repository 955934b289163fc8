// Batches of small matrices: each block moves several whole matrices through one shared-memory tile,
// so that a block's loads and stores are long contiguous runs where the batch is packed, however
// few rows or columns each matrix has. (A per-matrix tile would be mostly empty: 4x4 or 32x32
// matrices in tiled_vec's or skinny's tiles ran at 0.02-0.5 of memcpy on an H200.)
#pragma once

#include <cstdint>

#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/chunk_swizzle.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_vec.cuh"  // VecWords, load_vec, store_vec
#include "gpu/runtime.hpp"
#include "plan/gpu_planner.hpp"         // kSmallBatchMaxMatrixBytes: the planner sizes blocks by it

namespace xpose::gpu {

constexpr int kSmallBatchThreads = 256;
constexpr int kSmallBatchTileBytes = static_cast<int>(plan::kSmallBatchMaxMatrixBytes);  // one block's matrices

// Shared memory small_batch_kernel takes for `tile_bytes` of matrices: the input's shift within 16
// bytes on top, rounded up to whole 128-byte lines (the swizzle moves chunks within their line).
constexpr int small_batch_shared_bytes(int tile_bytes) { return (tile_bytes + 16 + 127) / 128 * 128; }

// Host-computed constants of one plan: matrix extents, matrices per block, and dividers for
// decoding an element index inside the block's tile.
struct SmallBatchArgs {
  int rows, cols, per_block;  // R, C, matrices per block (M)
  FastDiv rc;                 // R * C: element index -> matrix
  FastDiv r;                  // R: output row-major index inside a matrix -> (c, r)
  FastDiv c;                  // C: input row-major index inside a matrix -> (r, c)
  bool out_packed;            // the block's output matrices lie back to back (row and batch strides packed)
  int rot_slope;              // kRotate: lane l starts its vector at element (rot_slope * l) mod 16 / E
};

// A 16-byte vector's bytes moved n places up, cyclically: byte b of the result is byte (b - n) mod 16
// of `v`. Words first (selects on the two bits of n / 4), then bytes (funnel shifts).
__device__ __forceinline__ void rotate_bytes_up(std::uint32_t (&v)[4], int n) {
  const int q = n >> 2;
  const unsigned bits = 8u * static_cast<unsigned>(n & 3);
  std::uint32_t t[4], y[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) t[i] = (q & 1) ? v[(i + 3) & 3] : v[i];
#pragma unroll
  for (int i = 0; i < 4; ++i) y[i] = (q & 2) ? t[(i + 2) & 3] : t[i];
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = __funnelshift_l(y[(i + 3) & 3], y[i], bits);
}

// Starts copying n bytes from global `src` to shared `dst`, where dst and src agree mod 16: 16-byte
// copies over the aligned middle (a thread's all in flight together: rt::copy16_to_shared), single
// bytes at the two ends. The copy has landed after rt::wait_copies_to_shared().
__device__ __forceinline__ void start_run_to_shared(unsigned char* dst, const unsigned char* src, int n, int tid) {
  const int head = static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(src) & 15)) & 15);
  const int lead = head < n ? head : n;
  const int vecs = (n - lead) / 16, tail_start = lead + vecs * 16;
  for (int i = tid; i < vecs; i += kSmallBatchThreads) rt::copy16_to_shared(dst + lead + 16 * i, src + lead + 16 * i);
  if (tid < lead) dst[tid] = src[tid];
  if (tid < n - tail_start) dst[tail_start + tid] = src[tail_start + tid];
}

// The same copy, landed.
__device__ __forceinline__ void copy_run_to_shared(unsigned char* dst, const unsigned char* src, int n, int tid) {
  start_run_to_shared(dst, src, n, tid);
  rt::wait_copies_to_shared();
}

// The same copy into the chunk_swizzle layout of smem, the run starting at byte `shift` (which agrees
// with src mod 16). A copy of its own: one function for both layouts made ptxas spill the plain 1-,
// 2- and 16-byte kernels.
__device__ __forceinline__ void start_run_to_swizzled(unsigned char* smem, int shift, const unsigned char* src, int n,
                                                      int bits, int tid) {
  const int head = static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(src) & 15)) & 15);
  const int lead = head < n ? head : n;
  const int vecs = (n - lead) / 16, tail_start = lead + vecs * 16;
  for (int i = tid; i < vecs; i += kSmallBatchThreads)
    rt::copy16_to_shared(smem + swizzled_offset(shift + lead + 16 * i, bits), src + lead + 16 * i);
  if (tid < lead) smem[swizzled_offset(shift + tid, bits)] = src[tid];
  if (tid < n - tail_start) smem[swizzled_offset(shift + tail_start + tid, bits)] = src[tail_start + tid];
}

__device__ __forceinline__ void copy_run_to_swizzled(unsigned char* smem, int shift, const unsigned char* src, int n,
                                                     int bits, int tid) {
  start_run_to_swizzled(smem, shift, src, n, bits, tid);
  rt::wait_copies_to_shared();
}

// Tile element `i`: at tile + i * E, or in the swizzled layout at byte shift + i * E of smem.
template <int E, bool kSwizzle>
__device__ __forceinline__ unsigned char* tile_at(unsigned char* tile, unsigned char* smem, int shift, int bits,
                                                  int i) {
  if constexpr (kSwizzle) return smem + swizzled_offset(shift + i * E, bits);
  else return tile + i * E;
}

// Position of output element o of the block (matrix m, output row c, output column r) and the
// shared-memory element index of its source, (m * R + r) * C + c.
struct SmallBatchCursor {
  int r, c, src;
};

__device__ __forceinline__ SmallBatchCursor small_batch_cursor(int o, const SmallBatchArgs& a) {
  const QuotRem m = fast_divmod(static_cast<std::uint32_t>(o), a.rc);
  const QuotRem cr = fast_divmod(m.rem, a.r);
  return SmallBatchCursor{static_cast<int>(cr.rem), static_cast<int>(cr.quot),
                          static_cast<int>(m.quot) * a.rows * a.cols + static_cast<int>(cr.rem) * a.cols +
                              static_cast<int>(cr.quot)};
}

// The next output element: down the input column, then the next column, then the next matrix.
__device__ __forceinline__ void advance(SmallBatchCursor& k, const SmallBatchArgs& a) {
  k.src += a.cols;
  if (++k.r == a.rows) {
    k.r = 0;
    k.src += 1 - a.rows * a.cols;
    if (++k.c == a.cols) {
      k.c = 0;
      k.src += a.rows * a.cols - a.cols;
    }
  }
}

// A vector that spans at most two input columns: element j at first + j * cols while j < in_column
// (the rest of this column), else at next + (j - in_column) * cols (the start of the next output row:
// the next column, or the next matrix's first). Walked with selects, not a branch per element.
struct TwoColumnWalk {
  int first, in_column, next;
  __device__ __forceinline__ int at(int j, int cols) const {
    return j < in_column ? first + j * cols : next + (j - in_column) * cols;
  }
};

__device__ __forceinline__ TwoColumnWalk two_column_walk(const SmallBatchCursor& k, const SmallBatchArgs& a) {
  return TwoColumnWalk{k.src, a.rows - k.r,
                       k.src - k.r * a.cols + 1 + (k.c + 1 == a.cols ? a.rows * a.cols - a.cols : 0)};
}

// Block (kSmallBatchThreads); grid: one block per a.per_block matrices; dynamic shared memory:
// small_batch_shared_bytes of the block's matrices (at most kSmallBatchTileBytes, or one whole matrix
// of what the device allows: gpu::small_batch_whole_matrix_bytes). Pointers aligned to their
// element (8 bytes for 16-byte ones); 16-byte accesses wherever the addresses allow. kSwizzle: the
// tile in the chunk_swizzle layout, XOR-ed by the row group the lanes of one read step through
// (`bits`: small_batch_swizzle_bits of the bytes between those rows), for rows of 64 bytes or more
// (128 for 16-byte elements) that are a power of two of bytes or a multiple of 8 elements
// (small_batch_swizzled), whose column reads otherwise fall into one or two banks; for 16-byte
// elements only on a 16-byte aligned input, where each element is one whole chunk of the tile. (The
// plain path keeps its own code: a shared one pushed the 1-byte kernel past its registers.)
// kInPacked: the block's input matrices lie back to back, copied in as one run. kRotate (1- and
// 2-byte elements, plain tile, matrices of at least 16 / E rows): the lanes of a warp read their
// vectors' elements in rotated orders, lane l starting at element (a.rot_slope * l) mod 16 / E, so
// that one read step's lanes lie in more banks than the 16 * cols bytes between neighbouring
// vectors allow.
template <int E, bool kSwizzle, bool kInPacked, bool kRotate = false>
__global__ void __launch_bounds__(kSmallBatchThreads)
    small_batch_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                       SmallBatchArgs a, int bits) {
  static_assert(!kRotate || (E <= 2 && !kSwizzle), "rotated reads: 1- and 2-byte elements on a plain tile");
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x;
  const std::int64_t b0 = static_cast<std::int64_t>(blockIdx.x) * a.per_block;
  const int nm = static_cast<int>(g.batch - b0 < a.per_block ? g.batch - b0 : a.per_block);
  const int rc = a.rows * a.cols, n = nm * rc;

  // Load: the tile holds the block's matrices as the input lays them out, packed.
  unsigned char* tile = smem;
  int shift = 0;
  if constexpr (kInPacked) {
    const unsigned char* src = in + b0 * rc * E;
    shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);  // same alignment as the source
    tile = smem + shift;
    if constexpr (kSwizzle) copy_run_to_swizzled(smem, shift, src, n * E, bits, tid);
    else copy_run_to_shared(tile, src, n * E, tid);
  } else {
    // Element by element, in rounds of kRound loads in flight per thread (one at a time, f32 5x5
    // batches of 32-byte input rows ran at 0.74 of memcpy on an H200, in rounds at 0.82). A kernel of
    // its own (kInPacked): beside the packed path this code slowed that one by 15% (bf16 46x46).
    using T = typename ElementStorage<E>::type;
    constexpr int kRound = E >= 8 ? 4 : 8;
    for (int base = tid; base < n; base += kRound * kSmallBatchThreads) {
      T v[kRound];
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
        const int i = base + j * kSmallBatchThreads;
        if (i < n) {
          const QuotRem m = fast_divmod(static_cast<std::uint32_t>(i), a.rc);
          const QuotRem rcol = fast_divmod(m.rem, a.c);
          v[j] = *reinterpret_cast<const T*>(in + ((b0 + m.quot) * g.bs_in + rcol.quot * g.ld_in + rcol.rem) * E);
        }
      }
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
        const int i = base + j * kSmallBatchThreads;
        if (i < n) *reinterpret_cast<T*>(tile_at<E, kSwizzle>(tile, smem, shift, bits, i)) = v[j];
      }
    }
  }
  __syncthreads();

  // Store: output element o of the block comes from tile element cursor(o).src.
  if (a.out_packed && (E < 16 || (reinterpret_cast<std::uintptr_t>(out) & 15) == 0)) {
    unsigned char* dst = out + b0 * rc * E;
    const int head = static_cast<int>(((16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15) / E);
    const int lead = head < n ? head : n;
    constexpr int kPerVec = 16 / E;
    const int vecs = (n - lead) / kPerVec, tail_start = lead + vecs * kPerVec;
    // Where some vectors wrap into the next column, every lane walks two columns: a warp whose lanes
    // took the in-order and the walking code in turn (divergence) paid for both. Measured on an H200
    // (of memcpy, 64 MiB batches, in order -> every lane walking, two rounds alike;
    // bench/results/h200_2026-11-25zb_small_batch_walk.txt): swizzled u8 56x128 0.58 -> 0.72, 76x64
    // 0.54 -> 0.72, 188x64 0.53 -> 0.70, bf16 20x128 0.86 -> 0.99, 60x64 0.86 -> 0.99; plain bf16 20x53
    // 0.92 -> 0.99, 76x61 0.94 -> 0.97. (1-byte vectors on the plain tile mostly take kRotate.)
    // An output pointer off the 16-byte grid (lead > 0) shifts every vector off the columns' starts,
    // so vectors wrap into the next column however many rows there are.
    const bool walk_every_vector =
        (E == 2 || (E == 1 && kSwizzle)) && (a.rows % kPerVec != 0 || lead != 0) && kPerVec <= a.rows;
    // Where the vectors at the columns' starts stay in their column (rows a multiple of 16) but the
    // output pointer is off the grid, a lane builds the vector at a column's start and cuts the
    // aligned chunk out of it and its neighbour lane's: a warp stores 31 chunks for 32 vectors. H200,
    // 64 MiB, of memcpy, against walking the columns (bench/results/
    // h200_2026-11-30g_small_batch_registers_off_grid.txt): u8 1024 x 256^2 0.66 -> 0.78, 16384 x
    // 64^2 0.67 -> 0.81, 65536 x 32^2 0.75 -> 0.90. Not for 2-byte elements: bf16 2048 x 128^2 ran
    // 1.6% slower (0.836 -> 0.823), bf16 174762 x 8x24 1.4% faster.
    bool realigned = false;
    if constexpr (!kRotate && E == 1) {
      realigned = lead != 0 && a.rows % kPerVec == 0;
      constexpr int kWarps = kSmallBatchThreads / 32;
      const int lane = tid & 31;
      for (int v0 = (tid >> 5) * 31; realigned && v0 < vecs; v0 += kWarps * 31) {
        VecWords<16> w{};
        const int at = (v0 + lane) * kPerVec;  // vector v0 + lane from its column's start
        if (at < n) {
          const SmallBatchCursor k = small_batch_cursor(at, a);
#pragma unroll
          for (int j = 0; j < kPerVec; ++j)
            put_element<E>(w.w, j, tile_at<E, kSwizzle>(tile, smem, shift, bits, k.src + j * a.cols));
        }
        const uint4 mine = make_uint4(w.w[0], w.w[1], w.w[2], w.w[3]);
        const uint4 chunk = byte_window(mine, shfl_chunk_down(mine), lead * E);
        if (lane < 31 && v0 + lane < vecs) *reinterpret_cast<uint4*>(dst + (lead + (v0 + lane) * kPerVec) * E) = chunk;
      }
    }
    for (int v = tid; !realigned && v < vecs; v += kSmallBatchThreads) {
      SmallBatchCursor k = small_batch_cursor(lead + v * kPerVec, a);
      VecWords<16> w{};
      if constexpr (kRotate) {
        // Step s reads element j = (s + rot) mod kPerVec into slot s; the vector is rotated back after.
        const int rot = (a.rot_slope * (tid & 31)) & (kPerVec - 1);
        const TwoColumnWalk walk = two_column_walk(k, a);
#pragma unroll
        for (int s = 0; s < kPerVec; ++s) put_element<E>(w.w, s, tile + walk.at((s + rot) & (kPerVec - 1), a.cols) * E);
        rotate_bytes_up(w.w, rot * E);
      } else if (!walk_every_vector && k.r + kPerVec <= a.rows) {  // in one input column: no wrap to follow
#pragma unroll
        for (int j = 0; j < kPerVec; ++j) put_element<E>(w.w, j, tile_at<E, kSwizzle>(tile, smem, shift, bits, k.src + j * a.cols));
      } else if ((E >= 2 || walk_every_vector) && kPerVec <= a.rows) {
        // Two input columns (two_column_walk), with selects rather than advance's branches per
        // element. Measured on an H200 (of memcpy, advance -> selects;
        // bench/results/h200_2026-11-25y_small_batch_two_columns.txt): bf16 9x9 0.91 -> 0.99, 17x17
        // 0.86 -> 0.92; u8 17x17 gained too (0.57 -> 0.60) but 24x24 and 40x40 lost 8%, so 1-byte
        // elements on the plain tile read in order keep advance (where their vectors wrap, most
        // plans rotate instead: src/plan/small_batch_banks.cpp).
        const TwoColumnWalk walk = two_column_walk(k, a);
#pragma unroll
        for (int j = 0; j < kPerVec; ++j)
          put_element<E>(w.w, j, tile_at<E, kSwizzle>(tile, smem, shift, bits, walk.at(j, a.cols)));
      } else {
#pragma unroll
        for (int j = 0; j < kPerVec; ++j) {
          put_element<E>(w.w, j, tile_at<E, kSwizzle>(tile, smem, shift, bits, k.src));
          if (j + 1 < kPerVec) advance(k, a);
        }
      }
      store_vec<16>(dst + (lead + v * kPerVec) * E, w);
    }
    for (int o = tid; o < lead; o += kSmallBatchThreads)
      store_element<E>(dst + o * E, tile_at<E, kSwizzle>(tile, smem, shift, bits, small_batch_cursor(o, a).src));
    for (int o = tail_start + tid; o < n; o += kSmallBatchThreads)
      store_element<E>(dst + o * E, tile_at<E, kSwizzle>(tile, smem, shift, bits, small_batch_cursor(o, a).src));
  } else {
    for (int o = tid; o < n; o += kSmallBatchThreads) {
      const QuotRem m = fast_divmod(static_cast<std::uint32_t>(o), a.rc);
      const QuotRem cr = fast_divmod(m.rem, a.r);
      const int src = static_cast<int>(m.quot) * rc + static_cast<int>(cr.rem) * a.cols + static_cast<int>(cr.quot);
      store_element<E>(out + ((b0 + m.quot) * g.bs_out + cr.quot * g.ld_out + cr.rem) * E,
                       tile_at<E, kSwizzle>(tile, smem, shift, bits, src));
    }
  }
}

}  // namespace xpose::gpu
