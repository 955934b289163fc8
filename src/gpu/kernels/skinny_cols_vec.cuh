// A matrix of a few columns whose input rows are packed (ld_in == cols), or padded by a little (records
// whose other fields are skipped: RGBX into planes of RGB): the input of a slab of rows is one
// contiguous run of bytes, gaps included, read as aligned 16-byte chunks whatever the element size (and
// for 1-byte elements of 18 to 64 columns, rows an even number of bytes apart, realigned to the run's
// first byte where it lies off the grid: cols_vec_realigns); each output row's part of the slab is
// written as aligned 16-byte chunks, every 32-byte sector whole by the slab its first byte falls in. The
// mirror of skinny_rows_vec.
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/chunk_swizzle.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/skinny_rows_vec.cuh"  // slab_position, run_position

namespace xpose::gpu {

constexpr int kSkinnyColsThreads = 256;
constexpr int kSkinnyColsSmemBytes = 16384;  // the raw input run of one slab
constexpr int kSkinnyColsFullBlocks = 8;      // 2048 threads: a whole SM of H100 / H200

// Slab geometry, computed once on the host: `span` input rows per slab, `halo` more rows loaded for
// the output sectors that start in the slab and reach past it.
struct SkinnyColsSlab {
  int span, halo;
  FastDiv cols;  // q / cols for run_position
};

// Where byte x of the run lies in shared memory. Input rows a power of two of bytes apart put the
// rows that one store-phase read takes (16 / E rows apart per lane) in the same bank, 4-way on u8
// with 2 to 8 columns; kSwizzle puts the run in the chunk_swizzle layout by 128-byte line, so lines
// read together land in different banks. Elements never straddle a chunk (E <= 8, the run starts
// element-aligned).
template <bool kSwizzle>
__device__ __forceinline__ int run_offset(int x) {
  return kSwizzle ? swizzled_offset(x, 7) : x;
}

// Block (kSkinnyColsThreads), one slab of s.span rows per block; grid (batch x slabs). in_end is one
// past the input's last byte: chunks never reach past it or before `in`. kRunLanes: store-phase
// threads per run of one output row, each writing one 16-byte chunk of it; 2 write a sector per run,
// 8 write 128 bytes (a quarter of the L2 write requests for the same bytes). A run's lanes read
// shared memory 16 * cols bytes apart: free of bank conflicts at 8 lanes only for an odd number of
// columns (the launcher's choice, cols_vec_run_lanes, weighs that). The body of the two kernels below.
template <int E, bool kSwizzle, int kRunLanes, bool kRealign>
__device__ __forceinline__ void skinny_cols_vec(const unsigned char* __restrict__ in,
                                                const unsigned char* __restrict__ in_end,
                                                unsigned char* __restrict__ out, const MatrixGeometry& g,
                                                const SkinnyColsSlab& s, const FastDiv& slabs) {
  alignas(16) __shared__ unsigned char run[kSkinnyColsSmemBytes];  // the slab's input run, byte x at at0 + x
  const int tid = threadIdx.x;
  const int cols = static_cast<int>(g.cols);
  const SlabPos slab = slab_position(blockIdx.x, slabs, s.span, s.halo, g.rows);
  const std::uint32_t b = slab.b;
  const std::int64_t r0 = slab.first;
  const int own_rows = slab.own, load_rows = slab.load;
  const unsigned char* src = in + (b * g.bs_in + r0 * g.ld_in) * E;
  const int step = static_cast<int>(g.ld_in) * E;  // bytes between input rows in the run
  const int run_bytes = (load_rows - 1) * step + cols * E;
  const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const unsigned char* first_chunk = src - shift;
  const int chunks = (shift + run_bytes + 15) / 16;

  // Load: the aligned chunks covering the run, four per thread in flight at a time, into shared memory
  // as they lie (the run's byte x at byte `at0 + x` of `run`, before the swizzle), or realigned.
  const bool realign = kRealign && shift != 0;
  const int at0 = realign ? 0 : shift;
  if (!realign) {
    for (int base = 0; base < chunks; base += 4 * kSkinnyColsThreads) {
      uint4 v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int k = base + j * kSkinnyColsThreads + tid;
        if (k < chunks) v[j] = load_chunk(first_chunk + 16 * k, in, in_end, src, src + run_bytes);
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int k = base + j * kSkinnyColsThreads + tid;
        if (k < chunks) *reinterpret_cast<uint4*>(run + run_offset<kSwizzle>(16 * k)) = v[j];
      }
    }
  } else if constexpr (kRealign) {
    // The run from its first byte: each warp loads 32 consecutive aligned chunks and realigns 31 of
    // them, each lane cutting its chunk out of its own and the next lane's. The warp's 32nd chunk is
    // the one after its 31, which another warp (or the next pass) realigns: loaded twice, so that no
    // lane waits on a second load after the shuffle. The shift is the block's: one branch on its word
    // offset.
    constexpr int kWarps = kSkinnyColsThreads / 32, kPerWarp = 31;
    const int lane = tid % 32, warp = tid / 32, run_chunks = (run_bytes + 15) / 16;
    with_word_offset(shift, [&](auto words) {
      for (int base = 0; base < run_chunks; base += 4 * kWarps * kPerWarp) {
        uint4 v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int k = base + (j * kWarps + warp) * kPerWarp + lane;
          v[j] = k < chunks ? load_chunk(first_chunk + 16 * k, in, in_end, src, src + run_bytes)
                            : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int k = base + (j * kWarps + warp) * kPerWarp + lane;
          const uint4 next = shfl_chunk_down(v[j]);
          if (lane < kPerWarp && k < run_chunks)
            *reinterpret_cast<uint4*>(run + run_offset<kSwizzle>(16 * k)) =
                byte_window_at<decltype(words)::value>(v[j], next, shift);
        }
      }
    });
  }
  __syncthreads();

  // Store: item (k, c) is 16-byte chunk k of the slab's part of output row c, counted from the
  // sector boundary after its first byte (before it, for the first slab). kRunLanes neighbouring
  // threads take neighbouring chunks of one row, so that each store instruction writes whole sectors:
  // on an H200, a copy whose warps wrote every sector in two halves, back to back, ran at 0.68 of
  // memcpy against 0.95 (bench/results/h200_2026-11-24m_partial_sectors.txt). Neighbouring runs take
  // neighbouring rows c.
  static_assert(kRunLanes % 2 == 0 && 32 % kRunLanes == 0, "runs of whole sectors within a warp");
  const int own_bytes = own_rows * E, avail_bytes = load_rows * E;
  const int items = kRunLanes * (((own_bytes + 31) / 32 + 1 + kRunLanes / 2 - 1) / (kRunLanes / 2)) * cols;
  for (int item = tid; item < items; item += kSkinnyColsThreads) {
    int group, c;
    run_position(static_cast<unsigned>(item) / kRunLanes, s.cols, group, c);
    const int k = kRunLanes * group + item % kRunLanes;
    unsigned char* row = out + (b * g.bs_out + c * g.ld_out + r0) * E;
    const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 31);
    const int start = lead == 0 ? 0 : r0 == 0 ? -lead : 32 - lead;
    if (start + 32 * (k / 2) >= own_bytes) continue;  // the next slab's sector
    const int first = start + 16 * k;                  // byte of the slab's output row; may be < 0
    if (first + 16 <= 0 || first >= avail_bytes) continue;
    const int column = at0 + c * E;  // byte of element (0, c) in shared memory
    if (first >= 0 && first + 16 <= avail_bytes) {
      std::uint32_t w[4] = {0, 0, 0, 0};
      const int x = column + (first / E) * step;
#pragma unroll
      for (int m = 0; m < 16 / E; ++m) put_element<E>(w, m, run + run_offset<kSwizzle>(x + m * step));
      *reinterpret_cast<uint4*>(row + first) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      for (int m = 0; m < 16 / E; ++m) {
        const int byte = first + m * E;
        if (byte >= 0 && byte < avail_bytes)
          copy_element<E>(row + byte, run + run_offset<kSwizzle>(column + (byte / E) * step));
      }
    }
  }
}

// kRealign: a run off the 16-byte grid goes to shared memory from its first byte (the launcher's
// choice, cols_vec_realigns).
template <int E, bool kSwizzle, int kRunLanes, bool kRealign>
__global__ void __launch_bounds__(kSkinnyColsThreads)
    skinny_cols_vec_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                           unsigned char* __restrict__ out, MatrixGeometry g, SkinnyColsSlab s, FastDiv slabs) {
  skinny_cols_vec<E, kSwizzle, kRunLanes, kRealign>(in, in_end, out, g, s, slabs);
}

// The same at kSkinnyColsFullBlocks blocks per SM: registers capped at 32 a thread, runs as they lie.
template <int E, bool kSwizzle, int kRunLanes>
__global__ void __launch_bounds__(kSkinnyColsThreads, kSkinnyColsFullBlocks)
    skinny_cols_vec_full_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                unsigned char* __restrict__ out, MatrixGeometry g, SkinnyColsSlab s,
                                FastDiv slabs) {
  skinny_cols_vec<E, kSwizzle, kRunLanes, false>(in, in_end, out, g, s, slabs);
}

}  // namespace xpose::gpu
