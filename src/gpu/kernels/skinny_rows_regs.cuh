// A matrix of 2 to 8 rows with packed output rows (ld_out == rows) on the 16-byte grid (output batch
// stride a multiple of 16 bytes; an aligned output pointer, or for 1- and 2-byte elements one anywhere,
// whose stretches RunStage stores shifted): each thread loads 16 bytes of every input row
// (16 / E columns), which make 16 * R contiguous output bytes, and transposes them in registers; 9 to
// 48 rows of 1- and 2-byte elements the same way with narrower pieces (the one-run kernel below).
// Input rows on the 16-byte grid are read as one aligned chunk each; rows off it (or an input
// pointer off it) as the two aligned chunks each run straddles, realigned in registers. A group of 32
// threads then writes its 32 runs, one contiguous stretch, through a small shared-memory stage, so
// that each store instruction covers 512 contiguous bytes (stored straight from registers, each
// instruction covered every R-th chunk: up to 3x slower at 8 rows on an H200). No block-wide
// barrier: a group stores as soon as its own loads land.
#pragma once

#include <algorithm>  // std::min
#include <cstdint>
#include <type_traits>  // std::conditional_t

#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/runtime.hpp"  // rt::warp_all, rt::warp_sync
#include "plan/gpu_planner.hpp"  // kSkinnyRegsWideMaxRows, shared with the planner

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
// chunk up to 8 rows, rows_regs_piece_bytes past that). All indices are compile-time constants once
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

// W aligned bytes at a (W = 16, 8 or 4) as words.
template <int W>
__device__ __forceinline__ void load_aligned_piece(const unsigned char* a, std::uint32_t* w) {
  static_assert(W == 16 || W == 8 || W == 4, "pieces of 16, 8 or 4 bytes");
  if constexpr (W == 16) {
    const uint4 v = *reinterpret_cast<const uint4*>(a);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else if constexpr (W == 8) {
    const uint2 v = *reinterpret_cast<const uint2*>(a);
    w[0] = v.x, w[1] = v.y;
  } else {
    w[0] = *reinterpret_cast<const std::uint32_t*>(a);
  }
}

// A 4-byte word to p, which may lie anywhere on the element grid (1- and 2-byte elements).
__device__ __forceinline__ void store_word_anywhere(unsigned char* p, std::uint32_t w) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (at % 4 == 0) {
    *reinterpret_cast<std::uint32_t*>(p) = w;
  } else if (at % 2 == 0) {
    reinterpret_cast<std::uint16_t*>(p)[0] = static_cast<std::uint16_t>(w);
    reinterpret_cast<std::uint16_t*>(p)[1] = static_cast<std::uint16_t>(w >> 16);
  } else {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(w >> (8 * i));
  }
}

// A run's W bytes of each of the R input rows, the first at src, ld bytes apart. kShifted: rows
// anywhere (off the W-byte grid): each row's two aligned pieces around its W bytes, every load issued
// before the first realignment, with one bounds check per thread; a branch per row (whether its
// shift is 0, whether its pieces are inside) kept each row's loads waiting on the one before (H200, of
// memcpy, before -> after, two rounds alike; W = 16,
// bench/results/h200_2026-11-26a_rows_regs_realigned_loads.txt: u8 4x16777215 0.88 -> 1.02,
// 6x11184810 0.84 -> 0.94, 8x8388607 0.84 -> 0.96; bf16 3x11184811 0.89 -> 1.04, 7x4793490 0.87 -> 0.97,
// 8x4194303 0.87 -> 0.99; W = 8 and 4 ran at 0.52-0.74 with the branch, part 1 of
// h200_2026-11-26a_rows_regs_wide_ab.txt). Only a thread whose pieces would reach outside [in, in_end)
// (at the input's first or last bytes) reads byte by byte what it needs.
template <int W, int R, bool kShifted>
__device__ __forceinline__ void load_run_pieces(const unsigned char* src, std::int64_t ld, const unsigned char* in,
                                                const unsigned char* in_end, std::uint32_t (&x)[R][W / 4]) {
  if constexpr (!kShifted) {
#pragma unroll
    for (int s = 0; s < R; ++s) load_aligned_piece<W>(src + s * ld, x[s]);
  } else {
    const auto align_down = [](const unsigned char* p) {
      return p - (reinterpret_cast<std::uintptr_t>(p) & (W - 1));
    };
    if (align_down(src) >= in && align_down(src + (R - 1) * ld) + 2 * W <= in_end) {
      std::uint32_t w[R][2 * W / 4];
#pragma unroll
      for (int s = 0; s < R; ++s) {
        const unsigned char* a = align_down(src + s * ld);
        load_aligned_piece<W>(a, w[s]);
        load_aligned_piece<W>(a + W, w[s] + W / 4);
      }
#pragma unroll
      for (int s = 0; s < R; ++s)
        realign_piece<W>(w[s], static_cast<int>(reinterpret_cast<std::uintptr_t>(src + s * ld) & (W - 1)), x[s]);
    } else {
#pragma unroll
      for (int s = 0; s < R; ++s) {
#pragma unroll
        for (int i = 0; i < W / 4; ++i) x[s][i] = 0;
        for (int q = 0; q < W; ++q) x[s][q / 4] |= static_cast<std::uint32_t>(src[s * ld + q]) << (8 * (q % 4));
      }
    }
  }
}

// Chunk k (of N * R / 4) of a thread's output run.
template <int E, int R, int N>
__device__ __forceinline__ uint4 run_chunk(const std::uint32_t (&x)[R][N], int k) {
  return make_uint4(run_word<E, R>(x, 4 * k), run_word<E, R>(x, 4 * k + 1), run_word<E, R>(x, 4 * k + 2),
                    run_word<E, R>(x, 4 * k + 3));
}

// The shared-memory stage of a group's 32 runs of kRunBytes each (a multiple of 4), one contiguous
// stretch of global memory moved as 16-byte chunks, lane c % 32 taking chunk c (in store_stretch's
// shifted form, aligned chunk c of the kChunks + 1 that a stretch off the 16-byte grid spans). Each
// thread writes or reads its own run in units of the largest power of two that divides a run (up to 16
// bytes): a run of an odd number of units puts the lanes of one shared-memory access in different
// banks, and an even number of 16-byte units takes stage_slot's spare slot per 8.
template <int kRunBytes>
struct RunStage {
  static constexpr int kUnit = kRunBytes % 16 == 0 ? 16 : kRunBytes % 8 == 0 ? 8 : 4;
  static constexpr int kUnitsPerRun = kRunBytes / kUnit;
  static constexpr int kWords = kRunBytes / 4;
  static constexpr int kChunks = kRegsLaneGroup * kRunBytes / 16;  // of the stretch
  static constexpr int kChunksPerLane = (kChunks + kRegsLaneGroup - 1) / kRegsLaneGroup;
  static constexpr int kSlots = kUnit == 16 ? stage_slot<kUnitsPerRun>(kChunks - 1) + 1 : kChunks;
  using Unit = std::conditional_t<kUnit == 16, uint4, std::conditional_t<kUnit == 8, uint2, std::uint32_t>>;

  // Where the stretch's chunk (or the stage's unit) c lies in the stage, and whether lane's i-th
  // chunk of the stretch exists.
  __device__ static int slot(int c) { return kUnit == 16 ? stage_slot<kUnitsPerRun>(c) : c; }
  __device__ static bool has_chunk(int i, int lane) {
    return kChunks % kRegsLaneGroup == 0 || kRegsLaneGroup * i + lane < kChunks;
  }

  // Unit k of a run whose word i is word(i), and the words of unit k into w.
  template <class Word>
  __device__ static Unit unit(const Word& word, int k) {
    const int w0 = kUnit / 4 * k;
    if constexpr (kUnit == 16)
      return make_uint4(word(w0), word(w0 + 1), word(w0 + 2), word(w0 + 3));
    else if constexpr (kUnit == 8)
      return make_uint2(word(w0), word(w0 + 1));
    else
      return word(w0);
  }
  __device__ static void unpack(const Unit& v, int k, std::uint32_t (&w)[kWords]) {
    const int w0 = kUnit / 4 * k;
    if constexpr (kUnit == 16)
      w[w0] = v.x, w[w0 + 1] = v.y, w[w0 + 2] = v.z, w[w0 + 3] = v.w;
    else if constexpr (kUnit == 8)
      w[w0] = v.x, w[w0 + 1] = v.y;
    else
      w[w0] = v;
  }

  // The thread's run into the stage; word i is word(i).
  template <class Word>
  __device__ static void write_run(uint4* stage, int lane, const Word& word) {
#pragma unroll
    for (int k = 0; k < kUnitsPerRun; ++k) reinterpret_cast<Unit*>(stage)[slot(kUnitsPerRun * lane + k)] = unit(word, k);
  }
  // The thread's run out of the stage, or straight from global memory at src, as words.
  __device__ static void read_run(const uint4* stage, int lane, std::uint32_t (&w)[kWords]) {
#pragma unroll
    for (int k = 0; k < kUnitsPerRun; ++k)
      unpack(reinterpret_cast<const Unit*>(stage)[slot(kUnitsPerRun * lane + k)], k, w);
  }
  __device__ static void load_run(const unsigned char* src, std::uint32_t (&w)[kWords]) {
#pragma unroll
    for (int k = 0; k < kUnitsPerRun; ++k) unpack(reinterpret_cast<const Unit*>(src)[k], k, w);
  }

  // The group's stretch (its lane's chunks) from global memory into the stage: every load first.
  __device__ static void load_stretch(uint4* stage, const unsigned char* stretch, int lane) {
    uint4 v[kChunksPerLane];
#pragma unroll
    for (int i = 0; i < kChunksPerLane; ++i)
      if (has_chunk(i, lane)) v[i] = *reinterpret_cast<const uint4*>(stretch + 16 * (kRegsLaneGroup * i + lane));
#pragma unroll
    for (int i = 0; i < kChunksPerLane; ++i)
      if (has_chunk(i, lane)) stage[slot(kRegsLaneGroup * i + lane)] = v[i];
  }

  // The stage out to the group's stretch in global memory, 512 contiguous bytes per store instruction.
  // kOutShifted (1- and 2-byte elements whose output pointer lies off the 16-byte grid): a stretch s
  // bytes past the grid spans kChunks + 1 aligned chunks, chunk q taking the stage's bytes [16 q - s,
  // 16 q - s + 16), two stage chunks funnel-shifted, the first and last only the stretch's own bytes
  // (the neighbouring stretches write the rest).
  template <bool kOutShifted>
  __device__ static void store_stretch(const uint4* stage, unsigned char* stretch, int lane) {
    const int s = static_cast<int>(reinterpret_cast<std::uintptr_t>(stretch) & 15);
    if (!kOutShifted || s == 0) {
#pragma unroll
      for (int i = 0; i < kChunksPerLane; ++i)
        if (has_chunk(i, lane))
          *reinterpret_cast<uint4*>(stretch + 16 * (kRegsLaneGroup * i + lane)) =
              stage[slot(kRegsLaneGroup * i + lane)];
      return;
    }
    constexpr int kSpan = kChunks + 1, kSpanPerLane = (kSpan + kRegsLaneGroup - 1) / kRegsLaneGroup;
    unsigned char* base = stretch - s;
    const auto store_chunks = [&](const auto& realign) {
#pragma unroll
      for (int i = 0; i < kSpanPerLane; ++i) {
        const int q = kRegsLaneGroup * i + lane;
        if (q >= kSpan) continue;
        const uint4 lo = q > 0 ? stage[slot(q - 1)] : make_uint4(0, 0, 0, 0);
        const uint4 hi = q < kChunks ? stage[slot(q)] : make_uint4(0, 0, 0, 0);
        const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        std::uint32_t x[4];
        realign(w, x);
        const uint4 v = make_uint4(x[0], x[1], x[2], x[3]);
        if (q > 0 && q < kChunks) *reinterpret_cast<uint4*>(base + 16 * q) = v;
        else store_chunk_part(base + 16 * q, v, q == 0 ? s : 0, q == 0 ? 16 : s);
      }
    };
    // The shift is the whole stretch's: up to 7 chunks a lane, one branch on its word offset serves
    // them all and leaves the funnel shifts alone. Past that the loop's four copies took registers
    // enough to spill (bf16, 7 rows: 0.96 -> 0.91 of memcpy), so longer stretches keep the selects.
    // H200, 64 MiB, output one element off, of memcpy, selects -> branch: bf16 5 / 6 rows 0.90 / 0.84
    // -> 0.97 / 0.97, u8 5 / 6 rows 0.88 / 0.84 -> 0.96 / 0.91; u8 4 and 12 rows, bf16 3 and 12 rows
    // level (bench/results/h200_2026-11-30h_word_offset_branch.txt).
    if constexpr (kSpanPerLane <= 7) {
      with_word_offset(16 - s, [&](auto words) {
        store_chunks([&](const std::uint32_t(&w)[8], std::uint32_t(&x)[4]) {
          realign_piece_at<16, decltype(words)::value>(w, 16 - s, x);
        });
      });
    } else {
      store_chunks([&](const std::uint32_t(&w)[8], std::uint32_t(&x)[4]) { realign_piece<16>(w, 16 - s, x); });
    }
  }
};

// A one-run kernel's thread (blocks of kThreads along x, the matrices along y): its lane and group of
// 32, its matrix and its run within the matrix.
struct OneRunThread {
  int lane, group;
  std::uint32_t matrix;
  std::int64_t run;
};
template <int kThreads>
__device__ __forceinline__ OneRunThread one_run_thread() {
  const unsigned tid = threadIdx.x;  // unsigned: the lane and group are a mask and a shift
  return {static_cast<int>(tid % kRegsLaneGroup), static_cast<int>(tid / kRegsLaneGroup), blockIdx.y,
          static_cast<std::int64_t>(blockIdx.x) * kThreads + tid};
}

// Block (kSkinnyRegsThreads); one thread per 16 / E columns of one matrix, grid (threads / block / U),
// looping past the grid. `runs` = ceil(cols / (16 / E)) per matrix. A thread takes U runs a grid
// apart per iteration, every load issued before the first store. kShifted: input rows (and base)
// off the 16-byte grid, read through load_run_pieces' realignment; in_end bounds those reads.
// kOutShifted: an output pointer off the 16-byte grid (1- and 2-byte elements; instances of their own,
// so that the aligned ones keep their registers), stretches stored shifted and cut runs word by word.
template <int E, int R, int U, bool kShifted = false, bool kOutShifted = false>
__global__ void __launch_bounds__(kSkinnyRegsThreads)
    skinny_rows_regs_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                            unsigned char* __restrict__ out, MatrixGeometry g, std::int64_t runs) {
  constexpr int V = 16 / E;  // columns per chunk
  using Stage = RunStage<16 * R>;
  constexpr int kGroups = kSkinnyRegsThreads / kRegsLaneGroup;
  __shared__ uint4 stage[kGroups][Stage::kSlots];
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
      if (run.whole)
        load_run_pieces<16, R, kShifted>(in + (run.b * g.bs_in + run.c0) * E, ld_in_bytes, in, in_end, x[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const RegsRun run = regs_run(t0 + u * step, lane, g, runs, V);
      unsigned char* dst = out + (run.b * g.bs_out + run.c0 * R) * E;
      const std::uint32_t (&xu)[R][4] = x[u];
      const auto word = [&xu](int k) { return run_word<E, R>(xu, k); };
      // The group's 32 runs are one stretch when every one is whole and they share one matrix.
      if (rt::warp_all(run.whole && run.same_matrix)) {
        Stage::write_run(stage[group], lane, word);
        rt::warp_sync();
        Stage::template store_stretch<kOutShifted>(stage[group], dst - 16 * R * lane, lane);  // from run 0
        rt::warp_sync();  // the stage is refilled next
      } else if (run.whole) {
        if constexpr (kOutShifted) {
#pragma unroll
          for (int k = 0; k < 4 * R; ++k) store_word_anywhere(dst + 4 * k, word(k));
        } else {
#pragma unroll
          for (int k = 0; k < R; ++k) *reinterpret_cast<uint4*>(dst + 16 * k) = run_chunk<E, R>(xu, k);
        }
      } else if (run.t < total) {
        // The matrix's last columns: fewer than a chunk, element by element.
        const unsigned char* src = in + (run.b * g.bs_in + run.c0) * E;
        for (int j = 0; run.c0 + j < g.cols; ++j)
          for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in_bytes + j * E);
      }
    }
  }
}

// Bytes of every input row one thread of the one-run kernel reads: a 16-byte chunk up to 8 rows; past
// that 8 up to 16 rows and 4 up to kSkinnyRegsWideMaxRows (1- and 2-byte elements), so that a run fits
// 32 registers (48 past 32 rows) and its group's stage 4 KiB (6).
constexpr int rows_regs_piece_bytes(int rows) { return rows <= kSkinnyRegsMaxRows ? 16 : rows <= 16 ? 8 : 4; }

// Threads per block of the one-run kernel: 256 up to 32 rows; 128 past that, so that the block's
// stages (4 KiB or more a group) fit the static shared memory.
constexpr int rows_regs_one_run_threads(int rows) { return rows <= 32 ? 256 : 128; }

// Blocks per SM the one-run kernel below is built for with R rows of E-byte elements: the most
// that hold its registers without spilling (8 for 2 or 3 rows: 32 registers; 4 rows of 1- to
// 4-byte elements spill 16-44 bytes at 7 blocks), 0 where it is not built (8 rows of 2- to 8-byte
// elements spill at 5 blocks, and the loop kernel holds 4; 16-byte ones ran 1-2% slower at 5).
// kShifted (1- and 2-byte rows off the 16-byte grid, realigned): only where that is more blocks
// than the loop kernel's realigning instance holds (3-4). Past 8 rows (1- and 2-byte elements, the
// narrower pieces): 4 up to 32 rows (40-64 registers), 3 past that (56-112 aligned, 150-170
// realigning).
constexpr int skinny_rows_regs_one_run_blocks(int e, int rows, bool shifted = false) {
  if (rows > kSkinnyRegsMaxRows) return e > 2 || rows > plan::kSkinnyRegsWideMaxRows ? 0 : rows <= 32 ? 4 : 3;
  if (shifted) return e > 2 ? 0 : rows == 5 ? 5 : rows == 8 || (e == 2 && (rows == 6 || rows == 7)) ? 4 : 0;
  return rows <= 3 ? 8 : rows == 4 || (rows == 5 && e >= 2) ? 6 : rows <= 7 || e == 1 ? 5 : 0;
}

// Half pieces: 2 to 8 rows of 4- and 8-byte elements on the 16-byte grid also have one-run instances
// that read 8 bytes of every row a thread (twice the threads of 16-byte pieces, 18-32 registers, 8
// blocks per SM; where the planner takes them: rows_regs_half_pieces in src/gpu/launch/skinny.cu, for
// 8 rows only on grids of at most a block per SM).
constexpr bool rows_regs_half_pieces_built(int e, int rows) { return (e == 4 || e == 8) && rows >= 2 && rows <= 8; }

// Blocks per SM of the one-run kernel's instance with pieces of `piece` bytes (0: not built).
constexpr int one_run_blocks_for_piece(int e, int rows, bool shifted, int piece) {
  return piece < rows_regs_piece_bytes(rows) ? (rows_regs_half_pieces_built(e, rows) && !shifted ? 8 : 0)
                                             : skinny_rows_regs_one_run_blocks(e, rows, shifted);
}

// Blocks of `threads` runs of `per_run` columns (rows, in the column-register kernel) each, for a
// matrix of `extent` of them, whose runs are all whole (clamped to the kernels' 32-bit parameter).
constexpr std::uint32_t one_run_whole_blocks(std::int64_t extent, int threads, int per_run) {
  return static_cast<std::uint32_t>(std::min<std::int64_t>(extent / (std::int64_t{threads} * per_run), UINT32_MAX));
}

// Whether the one-run kernel's blocks of whole runs take a path of their own to the loads (below):
// built and measured for 2 to 4 rows with input rows on the grid. Past that, the path's second copy
// of the loads and stage spilled registers in some instances (ptxas: u8 8 rows 36 bytes, f32 7 rows
// 8, the realigning u8 5 and 8 rows and bf16 29 and 32 rows 8 each), so they keep one checked path.
constexpr bool one_run_checks_per_block(int rows, bool shifted) { return rows <= 4 && !shifted; }

// One run per thread: grid (runs / block, batch), so that no loop and no division is needed and the
// 32 runs of a warp always share one matrix (an index from one dimension costs a division, and 4-16
// bytes of spills in some instances). Built for 2 to 7 rows (8 of 1-byte elements; and 2 to 8 of 4- and
// 8-byte elements with the half pieces above) with aligned input rows, for 5 to 8 rows of 1- and 2-byte
// elements anywhere (kShifted, realigned as skinny_rows_regs_kernel does; in_end bounds those reads),
// and for 9 to kSkinnyRegsWideMaxRows rows of 1- and 2-byte elements with the narrower pieces of
// rows_regs_piece_bytes, aligned or not. Under
// the register cap of skinny_rows_regs_one_run_blocks per SM: the same loads, transposition and
// staged stores as skinny_rows_regs_kernel, with more threads in flight (that kernel holds 3-6
// blocks). Past 8 rows it replaced skinny's slabs (whose store phase builds every output chunk
// element by element from shared memory), tiled_vec's tiles or gather there. Strides in bytes.
// kOutShifted: as skinny_rows_regs_kernel's (launched past 8 rows, for input rows on their grid).
// whole_blocks: one_run_whole_blocks, the blocks of each matrix whose runs are all whole. kWholeGrid:
// one matrix whose blocks are all whole (where one_run_checks_per_block), taken without matrix
// offsets or a check on the way to the loads. W: the bytes of every row a thread reads (8 for the
// half pieces above).
template <int E, int R, bool kShifted = false, bool kOutShifted = false, bool kWholeGrid = false,
          int W = rows_regs_piece_bytes(R)>
__global__ void __launch_bounds__(rows_regs_one_run_threads(R), one_run_blocks_for_piece(E, R, kShifted, W))
    skinny_rows_regs_one_run_kernel(const unsigned char* __restrict__ in, const unsigned char* __restrict__ in_end,
                                    unsigned char* __restrict__ out, std::int64_t ld_in, std::int64_t bs_in,
                                    std::int64_t bs_out, std::int64_t cols, std::int64_t runs,
                                    std::uint32_t whole_blocks) {
  static_assert(one_run_blocks_for_piece(E, R, kShifted, W) > 0, "not built for this many rows");
  constexpr int V = W / E;  // columns per run
  constexpr int kThreads = rows_regs_one_run_threads(R);
  using Stage = RunStage<W * R>;
  __shared__ uint4 stage[kThreads / kRegsLaneGroup][Stage::kSlots];
  const OneRunThread me = one_run_thread<kThreads>();
  const int lane = me.lane;
  const std::int64_t t = me.run;
  static_assert(!kWholeGrid || one_run_checks_per_block(R, kShifted), "whole grids: 2 to 4 rows on the grid");
  const std::uint32_t b = kWholeGrid ? 0 : me.matrix;
  out += b * bs_out;
  const std::int64_t c0 = t * V;
  const unsigned char* src = in + b * bs_in + c0 * E;
  unsigned char* dst = out + c0 * R * E;
  std::uint32_t x[R][W / 4];
  const auto word = [&x](int k) { return run_word<E, R>(x, k); };
  const auto store_staged = [&] {
    Stage::write_run(stage[me.group], lane, word);
    rt::warp_sync();
    Stage::template store_stretch<kOutShifted>(stage[me.group], dst - W * R * lane, lane);
  };
  // Every block but a matrix's last (all, where the block's columns divide cols) holds whole runs
  // only. Where one_run_checks_per_block, it finds so once, for the block, and goes to its loads with
  // no per-thread bounds check or vote before them: on that path each instruction delays every warp's
  // first load, which these latency-bound kernels feel. Measured on an H200 (us;
  // bench/results/h200_2026-11-30l_few_rows_probe.txt): the checked path for every block -> this, f32
  // 3x1048576 8.97 -> 8.89, 2x1048576 6.90 -> 6.83 (run A); this -> kWholeGrid, 8.99 -> 8.91 and 6.96 ->
  // 6.86 (run B).
  constexpr bool kBlockCheck = one_run_checks_per_block(R, kShifted);
  if (!kWholeGrid && (!kBlockCheck || blockIdx.x >= whole_blocks)) {
    const bool whole = t < runs && c0 + V <= cols;
    if (whole) load_run_pieces<W, R, kShifted>(src, ld_in, in, in_end, x);
    if (rt::warp_all(whole)) {
      store_staged();
    } else if (whole) {
      // A group cut by the matrix's end: each whole run straight from registers, in chunks where the
      // pieces are (as the stage stores them), word by word past 8 rows (fewer registers held there)
      // and where the output pointer is off the 16-byte grid.
      if constexpr (W == 16 && !kOutShifted) {
#pragma unroll
        for (int k = 0; k < R; ++k) *reinterpret_cast<uint4*>(dst + 16 * k) = run_chunk<E, R>(x, k);
      } else if constexpr (kOutShifted) {
#pragma unroll
        for (int k = 0; k < W * R / 4; ++k) store_word_anywhere(dst + 4 * k, word(k));
      } else {
#pragma unroll
        for (int k = 0; k < W * R / 4; ++k) *reinterpret_cast<std::uint32_t*>(dst + 4 * k) = word(k);
      }
    } else if (t < runs) {
      // The matrix's last columns: fewer than a run, element by element.
      for (int j = 0; c0 + j < cols; ++j)
        for (int s = 0; s < R; ++s) copy_element<E>(dst + (j * R + s) * E, src + s * ld_in + j * E);
    }
    return;
  }
  load_run_pieces<W, R, kShifted>(src, ld_in, in, in_end, x);
  store_staged();
}

}  // namespace xpose::gpu
