// A matrix of 2 to 8 rows with packed output rows (ld_out == rows) on the 16-byte grid (aligned output
// pointer, output batch stride a multiple of 16 bytes): each thread loads 16 bytes of every input row
// (16 / E columns), which make 16 * R contiguous output bytes, and transposes them in registers.
// Input rows on the 16-byte grid are read as one aligned chunk each; rows off it (or an input
// pointer off it) as the two aligned chunks each run straddles, realigned in registers. A group of 32
// threads then writes its 32 runs, one contiguous stretch, through a small shared-memory stage, so
// that each store instruction covers 512 contiguous bytes (stored straight from registers, each
// instruction covered every R-th chunk: up to 3x slower at 8 rows on an H200). No block-wide
// barrier: a group stores as soon as its own loads land.
#pragma once

#include <cstdint>

#include "gpu/kernels/bounded_chunk.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/runtime.hpp"  // rt::warp_all, rt::warp_sync

namespace xpose::gpu {

constexpr int kSkinnyRegsThreads = 256;
constexpr int kSkinnyRegsMaxRows = 8;

// Threads are handled in groups of 32 (a warp; half a wavefront on CDNA, where both halves of the
// wavefront vote and wait together through rt::warp_all / rt::warp_sync).
constexpr int kRegsLaneGroup = 32;

// Stage slot of chunk p of a group's stretch: one spare slot per 8 when R is even, so that the 8
// threads of one 128-byte shared-memory access (chunks R apart) hit 8 different bank groups.
template <int R>
__host__ __device__ constexpr int stage_slot(int p) {
  return R % 2 == 0 ? p + p / 8 : p;
}

// Output word `ow` (of N * R) of a thread's run: output element m = (column m / R, row m % R) is
// element m / R of input piece m % R. x[s][i] is word i of input row s's piece of N words (a 16-byte
// chunk here; 8 or 4 bytes in skinny_rows_regs_wide). All indices are compile-time constants once
// the callers' loops are unrolled.
template <int E, int R, int N>
__device__ __forceinline__ std::uint32_t run_word(const std::uint32_t (&x)[R][N], int ow) {
  if constexpr (E >= 4) {
    const int m = 4 * ow / E;            // the element holding this word
    const int s = m % R, j = m / R;      // its input row and column within the chunk
    return x[s][(j * E + 4 * ow % E) / 4];
  } else if constexpr (E == 2) {
    const int m0 = 2 * ow, m1 = 2 * ow + 1;
    const int h0 = m0 / R, h1 = m1 / R;  // halfword (column) within each row's chunk
    const unsigned sel =
        (2 * (h0 % 2)) | (2 * (h0 % 2) + 1) << 4 | (4 + 2 * (h1 % 2)) << 8 | (5 + 2 * (h1 % 2)) << 12;
    return __byte_perm(x[m0 % R][h0 / 2], x[m1 % R][h1 / 2], sel);
  } else {
    static_assert(E == 1, "element sizes are 1, 2, 4, 8 and 16 bytes");
    int col[4], row[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) col[i] = (4 * ow + i) / R, row[i] = (4 * ow + i) % R;
    const std::uint32_t lo = __byte_perm(x[row[0]][col[0] / 4], x[row[1]][col[1] / 4],
                                         (col[0] % 4) | (4 + col[1] % 4) << 4);
    const std::uint32_t hi = __byte_perm(x[row[2]][col[2] / 4], x[row[3]][col[3] / 4],
                                         (col[2] % 4) | (4 + col[3] % 4) << 4);
    return __byte_perm(lo, hi, 0x5410);
  }
}

// Chunk k (of N * R / 4) of a thread's output run.
template <int E, int R, int N>
__device__ __forceinline__ uint4 run_chunk(const std::uint32_t (&x)[R][N], int k) {
  return make_uint4(run_word<E, R>(x, 4 * k), run_word<E, R>(x, 4 * k + 1), run_word<E, R>(x, 4 * k + 2),
                    run_word<E, R>(x, 4 * k + 3));
}

// Where run t (of a group whose first run is t_group) lies and whether it is whole.
struct RegsRun {
  std::int64_t t, b, c0;
  bool whole, same_matrix;
};
__device__ __forceinline__ RegsRun regs_run(std::int64_t t_group, int lane, const MatrixGeometry& g, std::int64_t runs,
                                            int v) {
  RegsRun run;
  run.t = t_group + lane;
  run.b = g.batch == 1 ? 0 : run.t / runs;
  run.c0 = (run.t - run.b * runs) * v;
  run.whole = run.t < g.batch * runs && run.c0 + v <= g.cols;
  run.same_matrix = g.batch == 1 || run.b == t_group / runs;
  return run;
}

// Bytes [shift, shift + 16) of the 32 bytes lo, hi (an input row's 16 bytes that start `shift` bytes
// into an aligned chunk), as four words. The word offset shift / 4 picks words by selects in two
// stages; a register array indexed at run time would live in local memory.
__device__ __forceinline__ void realign_chunk(const uint4& lo, const uint4& hi, int shift, std::uint32_t (&out)[4]) {
  const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  std::uint32_t a[6], t[5];
#pragma unroll
  for (int j = 0; j < 6; ++j) a[j] = (shift & 8) ? w[j + 2] : w[j];
#pragma unroll
  for (int j = 0; j < 5; ++j) t[j] = (shift & 4) ? a[j + 1] : a[j];
  const unsigned bits = 8 * (shift & 3);
#pragma unroll
  for (int i = 0; i < 4; ++i) out[i] = __funnelshift_r(t[i], t[i + 1], bits);
}

// One run's 16 bytes of an input row starting at p. kShifted: p anywhere (input rows off the 16-byte
// grid): the two aligned chunks it straddles, realigned; reads outside [in, in_end) are left out.
template <bool kShifted>
__device__ __forceinline__ void load_run(const unsigned char* p, const unsigned char* in, const unsigned char* in_end,
                                         std::uint32_t (&x)[4]) {
  if constexpr (kShifted) {
    const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(p) & 15);
    const unsigned char* a = p - shift;
    uint4 lo, hi = make_uint4(0, 0, 0, 0);
    if (a >= in && a + 32 <= in_end) {
      lo = *reinterpret_cast<const uint4*>(a);
      if (shift != 0) hi = *reinterpret_cast<const uint4*>(a + 16);
    } else {
      lo = load_chunk(a, in, in_end, p, p + 16);
      if (shift != 0) hi = load_chunk(a + 16, in, in_end, p, p + 16);
    }
    realign_chunk(lo, hi, shift, x);
  } else {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
  }
}

// One run's 16 bytes of each of the R input rows, the first at src, ld bytes apart. kShifted: where
// the aligned chunks around every row lie inside [in, in_end) (one check per thread), both chunks of
// every row are loaded before the first realignment; a branch per row (whether its shift is 0, whether
// its chunks are inside) kept each row's loads waiting on the one before (H200, of memcpy, before ->
// after, two rounds alike; bench/results/h200_2026-11-26a_rows_regs_realigned_loads.txt: u8 4x16777215
// 0.88 -> 1.02, 6x11184810 0.84 -> 0.94, 8x8388607 0.84 -> 0.96; bf16 3x11184811 0.89 -> 1.04,
// 7x4793490 0.87 -> 0.97, 8x4194303 0.87 -> 0.99). Elsewhere (at the input's first or last bytes) row
// by row, as load_run reads them.
template <int R, bool kShifted>
__device__ __forceinline__ void load_runs(const unsigned char* src, std::int64_t ld, const unsigned char* in,
                                          const unsigned char* in_end, std::uint32_t (&x)[R][4]) {
  const auto align_down = [](const unsigned char* p) { return p - (reinterpret_cast<std::uintptr_t>(p) & 15); };
  if (kShifted && align_down(src) >= in && align_down(src + (R - 1) * ld) + 32 <= in_end) {
    uint4 lo[R], hi[R];
#pragma unroll
    for (int s = 0; s < R; ++s) {
      const unsigned char* a = align_down(src + s * ld);
      lo[s] = *reinterpret_cast<const uint4*>(a);
      hi[s] = *reinterpret_cast<const uint4*>(a + 16);
    }
#pragma unroll
    for (int s = 0; s < R; ++s)
      realign_chunk(lo[s], hi[s], static_cast<int>(reinterpret_cast<std::uintptr_t>(src + s * ld) & 15), x[s]);
  } else {
#pragma unroll
    for (int s = 0; s < R; ++s) load_run<kShifted>(src + s * ld, in, in_end, x[s]);
  }
}

// Block (kSkinnyRegsThreads); one thread per 16 / E columns of one matrix, grid (threads / block / U),
// looping past the grid. `runs` = ceil(cols / (16 / E)) per matrix. A thread takes U runs a grid
// apart per iteration, every load issued before the first store. kShifted: input rows (and base)
// off the 16-byte grid, read through load_run's realignment; in_end bounds those reads.
template <int E, int R, int U, bool kShifted = false>
__global__ void __launch_bounds__(kSkinnyRegsThreads)
    skinny_rows_regs_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                            unsigned char* __restrict__ out, MatrixGeometry g, std::int64_t runs) {
  constexpr int V = 16 / E;  // columns per chunk
  constexpr int kGroups = kSkinnyRegsThreads / kRegsLaneGroup;
  constexpr int kSlots = stage_slot<R>(kRegsLaneGroup * R - 1) + 1;
  __shared__ uint4 stage[kGroups][kSlots];
  const int lane = threadIdx.x % kRegsLaneGroup, group = threadIdx.x / kRegsLaneGroup;
  const std::int64_t ld_in_bytes = g.ld_in * E;
  const std::int64_t total = g.batch * runs, step = static_cast<std::int64_t>(gridDim.x) * kSkinnyRegsThreads;
  // The loop runs per group (its first thread's index), so a group's threads vote and wait together.
  for (std::int64_t t0 = static_cast<std::int64_t>(blockIdx.x) * kSkinnyRegsThreads + group * kRegsLaneGroup;
       t0 < total; t0 += U * step) {
    std::uint32_t x[U][R][4];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const RegsRun run = regs_run(t0 + u * step, lane, g, runs, V);
      if (run.whole) load_runs<R, kShifted>(in + (run.b * g.bs_in + run.c0) * E, ld_in_bytes, in, in_end, x[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const RegsRun run = regs_run(t0 + u * step, lane, g, runs, V);
      unsigned char* dst = out + (run.b * g.bs_out + run.c0 * R) * E;
      // The group's 32 runs are one stretch when every one is whole and they share one matrix.
      if (rt::warp_all(run.whole && run.same_matrix)) {
#pragma unroll
        for (int k = 0; k < R; ++k) stage[group][stage_slot<R>(R * lane + k)] = run_chunk<E, R>(x[u], k);
        rt::warp_sync();
        unsigned char* stretch = dst - 16 * R * lane;  // the group's first run
#pragma unroll
        for (int k = 0; k < R; ++k)
          *reinterpret_cast<uint4*>(stretch + 16 * (kRegsLaneGroup * k + lane)) =
              stage[group][stage_slot<R>(kRegsLaneGroup * k + lane)];
        rt::warp_sync();  // the stage is refilled next
      } else if (run.whole) {
#pragma unroll
        for (int k = 0; k < R; ++k) *reinterpret_cast<uint4*>(dst + 16 * k) = run_chunk<E, R>(x[u], k);
      } else if (run.t < total) {
        // The matrix's last columns: fewer than a chunk, element by element.
        const unsigned char* src = in + (run.b * g.bs_in + run.c0) * E;
        for (int j = 0; run.c0 + j < g.cols; ++j)
          for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in_bytes + j * E);
      }
    }
  }
}

// Blocks per SM the one-run kernel below is built for with R rows of E-byte elements: the most
// that hold its registers without spilling (8 for 2 or 3 rows: 32 registers; 4 rows of 1- to
// 4-byte elements spill 16-44 bytes at 7 blocks), 0 where it is not built (8 rows of 2- to 8-byte
// elements spill at 5 blocks, and the loop kernel holds 4; 16-byte ones ran 1-2% slower at 5).
// kShifted (1- and 2-byte rows off the 16-byte grid, realigned): only where that is more blocks
// than the loop kernel's realigning instance holds (3-4).
constexpr int skinny_rows_regs_one_run_blocks(int e, int rows, bool shifted = false) {
  if (shifted) return e > 2 ? 0 : rows == 5 ? 5 : rows == 8 || (e == 2 && (rows == 6 || rows == 7)) ? 4 : 0;
  return rows <= 3 ? 8 : rows == 4 || (rows == 5 && e >= 2) ? 6 : rows <= 7 || e == 1 ? 5 : 0;
}

// One run per thread of matrices of 2 to 7 rows (8 of 1-byte elements) with aligned input rows
// (kShifted: 5 to 8 rows of 1- and 2-byte elements anywhere, realigned as skinny_rows_regs_kernel
// does; in_end bounds those reads): grid (runs / block, batch), so that no loop and no division is
// needed and the 32 runs of a warp always share one matrix (an index from one dimension costs a
// division, and 4-16 bytes of spills in some instances). Under the register cap of
// skinny_rows_regs_one_run_blocks per SM: the same loads, transposition and staged stores as
// skinny_rows_regs_kernel, with more threads in flight (that kernel holds 3-6 blocks). Strides in
// bytes.
template <int E, int R, bool kShifted = false>
__global__ void __launch_bounds__(kSkinnyRegsThreads, skinny_rows_regs_one_run_blocks(E, R, kShifted))
    skinny_rows_regs_one_run_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                    unsigned char* __restrict__ out, std::int64_t ld_in, std::int64_t bs_in,
                                    std::int64_t bs_out, std::int64_t cols, std::int64_t runs) {
  static_assert(skinny_rows_regs_one_run_blocks(E, R, kShifted) > 0, "not built for this many rows");
  constexpr int V = 16 / E;
  constexpr int kGroups = kSkinnyRegsThreads / kRegsLaneGroup;
  constexpr int kSlots = stage_slot<R>(kRegsLaneGroup * R - 1) + 1;
  __shared__ uint4 stage[kGroups][kSlots];
  const int lane = threadIdx.x % kRegsLaneGroup, group = threadIdx.x / kRegsLaneGroup;
  const std::uint32_t b = blockIdx.y;  // the matrix
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * kSkinnyRegsThreads + threadIdx.x;
  out += b * bs_out;
  const std::int64_t c0 = t * V;
  const bool whole = t < runs && c0 + V <= cols;
  const unsigned char* src = in + b * bs_in + c0 * E;
  std::uint32_t x[R][4];
  if (whole) load_runs<R, kShifted>(src, ld_in, in, in_end, x);
  unsigned char* dst = out + c0 * R * E;
  if (rt::warp_all(whole)) {
#pragma unroll
    for (int k = 0; k < R; ++k) stage[group][stage_slot<R>(R * lane + k)] = run_chunk<E, R>(x, k);
    rt::warp_sync();
    unsigned char* stretch = dst - 16 * R * lane;
#pragma unroll
    for (int k = 0; k < R; ++k)
      *reinterpret_cast<uint4*>(stretch + 16 * (kRegsLaneGroup * k + lane)) =
          stage[group][stage_slot<R>(kRegsLaneGroup * k + lane)];
  } else if (whole) {
#pragma unroll
    for (int k = 0; k < R; ++k) *reinterpret_cast<uint4*>(dst + 16 * k) = run_chunk<E, R>(x, k);
  } else if (t < runs) {
    for (int j = 0; c0 + j < cols; ++j)
      for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in + j * E);
  }
}

}  // namespace xpose::gpu
