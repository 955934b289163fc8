// Experiment, not part of the build: how fast a kernel can go on tiled_vec's memory pattern alone,
// without transposing anything. Each block takes one tile in the library's order (down the matrix
// first), loads its 16-byte vectors into registers, waits at a barrier and stores them: with the
// transpose's tile pattern on the read side, the write side, both, or neither (a copy in tile-sized
// pieces); the same through shared memory, or with pauses between the stores; and persistent blocks
// that walk the tiles with the next tile's loads in flight while they store the current one. Against
// cudaMemcpy D2D and xpose (libxpose_c) in one process, so that the transpose's shortfall splits into
// what its reads cost, what its writes cost, and what the transposition itself adds.
// From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc bench/pattern_probe.cu -o pattern_probe \
//        -Lbuild-gpu/src -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src
//   ./pattern_probe 30 [modes | writes | orders | orders-f32] [free]
// modes: also the library's kernel with linear reads / writes (needs a build with
// bench/results/h200_2026-12-01g_pattern_modes.diff); writes: tile heights and row bands for f32
// 1048576x32; orders, orders-f32: super-tiles on single squares. Blocks per SM are held to the
// library kernel's by unused shared memory, which leaves the L1 small and the pattern kernels up to 6%
// under the library; `free` gives each block the tile's bytes instead, as the library's kernel holds,
// and as many blocks as then fit, where the staged kernels match the library's times for f32 (u8 and
// bf16 then run more blocks than the library and up to 2% and 3.7% under it;
// bench/results/h200_2026-12-01g_pattern_probe.txt).
// Every variant but the modes' is verified: xpose against the transposed input, the pattern kernels
// against the move they make (each output vector equal to the input vector it came from, and none
// left as the poison the output was filled with first).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "probe_common.cuh"
#include "xpose/xpose_c.h"

namespace {

// A batch of rows x cols matrices of e-byte elements, packed, cut into tiles of tile_rows input rows
// of tile_row_bytes bytes (the library plan's tile for it), moved by `threads` threads a block, with
// `blocks_per_sm` blocks resident as the library kernel has them.
struct PatternCase {
  const char* dtype;
  int e;
  long batch, rows, cols;
  int tile_rows, tile_row_bytes, threads, blocks_per_sm;
  // blocks_per_sm 0: as many as fit with the tile's bytes of shared memory, the library kernel's own
  // (holding blocks per SM with unused shared memory leaves the L1 that much smaller).
  int bands = 1;  // row bands (Geometry::band_shift)
  int super_rows = 1, super_cols = 1;  // super-tiles, in tiles (Geometry::super_r_shift)
};

// Every extent a power of two and every offset under 4 GiB, so that a tile's place is shifts and
// masks, as cheap as the library's decode by multiplications.
struct Geometry {
  unsigned ty_shift, tx_shift;    // log2 of tile rows and tile columns per matrix
  unsigned row_shift, col_shift;  // log2 of a matrix's input rows and row bytes
  unsigned in_shift, out_shift;   // log2 of 16-byte vectors per tile row, per output row of a tile
  unsigned tile_shift;            // log2 of tile bytes
  unsigned e_shift;               // log2 of element bytes
  unsigned tile_rows, tile_row_bytes;
  // Row bands (a study of the write side): consecutive blocks take tiles of 2^band_shift bands in
  // turn, 2^band_tiles_shift tiles a band, each band in the plain order. 0, 0: no bands.
  unsigned band_shift = 0, band_tiles_shift = 0;
  // Super-tiles (a study of the order): 2^super_r_shift tile rows x 2^super_c_shift tile columns of
  // one matrix walked down first, the super-tiles too. 0, 0: none (the plain order).
  unsigned super_r_shift = 0, super_c_shift = 0;
};

enum Side { kLinear = 0, kTiled = 1 };

// "free" on the command line: every case with blocks_per_sm 0.
bool g_free_occupancy = false;

// Where one side of a tile lies: vector k at base + (k / per_row) * pitch + 16 (k % per_row), in
// shifts. Worked out once per block, so that the bands and super-tiles add nothing per vector (a
// first version that decoded the tile for every vector moved the tiled kernels' times by up to 6%).
struct TilePlace {
  unsigned base, per_row_shift, pitch_shift;
  __device__ __forceinline__ unsigned at(unsigned k) const {
    return base + ((k >> per_row_shift) << pitch_shift) + 16u * (k & ((1u << per_row_shift) - 1));
  }
};

// Tile t in the plan's order, after the bands and super-tiles of the study (if any).
__device__ __forceinline__ unsigned ordered_tile(const Geometry& g, unsigned t) {
  if (g.band_shift > 0) t = ((t & ((1u << g.band_shift) - 1)) << g.band_tiles_shift) | (t >> g.band_shift);
  if (g.super_r_shift + g.super_c_shift > 0) {
    const unsigned inner = g.super_r_shift + g.super_c_shift, per_matrix = g.ty_shift + g.tx_shift;
    const unsigned m = t >> per_matrix, w = t & ((1u << inner) - 1), sup = (t & ((1u << per_matrix) - 1)) >> inner;
    const unsigned sy_shift = g.ty_shift - g.super_r_shift;  // log2 of super-tiles down a matrix
    const unsigned tr = ((sup & ((1u << sy_shift) - 1)) << g.super_r_shift) | (w & ((1u << g.super_r_shift) - 1));
    const unsigned tc = ((sup >> sy_shift) << g.super_c_shift) | (w >> g.super_r_shift);
    t = (m << per_matrix) | (tc << g.ty_shift) | tr;
  }
  return t;
}

// Tile t on the read side (its input rows) or the write side (the transposed tile's output rows);
// linearly, tile t's bytes in order (one row of the whole tile).
template <Side S, bool kWrite>
__device__ __forceinline__ TilePlace tile_place(const Geometry& g, unsigned t) {
  if constexpr (S == kLinear) {
    return TilePlace{t << g.tile_shift, g.tile_shift - 4, 0};
  } else {
    t = ordered_tile(g, t);
    const unsigned b = t >> (g.ty_shift + g.tx_shift);
    const unsigned tr = t & ((1u << g.ty_shift) - 1), tc = (t >> g.ty_shift) & ((1u << g.tx_shift) - 1);
    const unsigned matrix = b << (g.row_shift + g.col_shift);
    const unsigned r0 = tr * g.tile_rows, cb0 = tc * g.tile_row_bytes;  // first row, first byte of row
    if constexpr (!kWrite) return TilePlace{matrix + (r0 << g.col_shift) + cb0, g.in_shift, g.col_shift};
    // Output rows are the input's columns (cb0 / e on), rows x e bytes long.
    const unsigned out_pitch_shift = g.row_shift + g.e_shift;
    const unsigned out_base = matrix + ((cb0 >> g.e_shift) << out_pitch_shift) + (r0 << g.e_shift);
    return TilePlace{out_base, g.out_shift, out_pitch_shift};
  }
}

// A tile's vectors, kPerThread a thread in the load order (vector j * blockDim.x + threadIdx.x).
template <int kPerThread>
__device__ __forceinline__ void load_tile(uint4 (&v)[kPerThread], const unsigned char* __restrict__ in,
                                          const TilePlace& src) {
#pragma unroll
  for (int j = 0; j < kPerThread; ++j)
    v[j] = *reinterpret_cast<const uint4*>(in + src.at(j * blockDim.x + threadIdx.x));
}

// One tile per block: every vector loaded, a barrier (as the transpose's phases have), every vector
// stored, with a pause of kPauseNs before each store but the first if asked (the library's store
// phase spaces its stores by the shared-memory reads and permutes of each output vector).
template <Side R, Side W, int kPerThread, int kPauseNs = 0>
__global__ void pattern_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, Geometry g) {
  const TilePlace dst = tile_place<W, true>(g, blockIdx.x);
  uint4 v[kPerThread];
  load_tile(v, in, tile_place<R, false>(g, blockIdx.x));
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    if constexpr (kPauseNs > 0)
      if (j > 0) __nanosleep(kPauseNs);
    *reinterpret_cast<uint4*>(out + dst.at(j * blockDim.x + threadIdx.x)) = v[j];
  }
}

// Through shared memory, as the library's kernel moves a tile: every vector loaded and stored to
// shared memory in the load order, a barrier, then each vector read back and stored, the store
// order being either the load order (kWarpRows false) or each warp taking a contiguous run of the
// tile's vectors, that is whole output rows of it (as the library's store phase gives each warp its
// own output rows).
template <bool kWarpRows, int kPerThread>
__global__ void staged_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, Geometry g) {
  extern __shared__ uint4 staged[];
  const TilePlace src = tile_place<kTiled, false>(g, blockIdx.x), dst = tile_place<kTiled, true>(g, blockIdx.x);
  uint4 v[kPerThread];
  load_tile(v, in, src);
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) staged[j * blockDim.x + threadIdx.x] = v[j];
  __syncthreads();
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const unsigned k = kWarpRows ? (warp * kPerThread + j) * 32 + lane : j * blockDim.x + threadIdx.x;
    *reinterpret_cast<uint4*>(out + dst.at(k)) = staged[k];
  }
}

// Persistent: gridDim.x blocks walk the tiles in the same order, each holding its next tile's loads
// in flight while it stores the current one (no barrier: nothing is shared).
template <Side R, Side W, int kPerThread>
__global__ void persistent_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, Geometry g,
                                  unsigned tiles) {
  uint4 v[kPerThread], w[kPerThread];
  unsigned t = blockIdx.x;
  if (t >= tiles) return;
  load_tile(v, in, tile_place<R, false>(g, t));
  for (;;) {
    const unsigned next = t + gridDim.x;
    const bool more = next < tiles;
    if (more) load_tile(w, in, tile_place<R, false>(g, next));
    const TilePlace dst = tile_place<W, true>(g, t);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) *reinterpret_cast<uint4*>(out + dst.at(j * blockDim.x + threadIdx.x)) = v[j];
    if (!more) break;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) v[j] = w[j];
    t = next;
  }
}

// Counts the vectors of the move that differ: out at the write side's place against in at the read
// side's, over every vector of every tile.
template <Side R, Side W>
__global__ void pattern_check(const unsigned char* in, const unsigned char* out, Geometry g, long tiles, int vectors,
                              unsigned long long* bad) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < tiles * vectors; i += long(gridDim.x) * blockDim.x) {
    const unsigned t = static_cast<unsigned>(i / vectors), k = static_cast<unsigned>(i % vectors);
    const uint4 a = *reinterpret_cast<const uint4*>(in + tile_place<R, false>(g, t).at(k));
    const uint4 b = *reinterpret_cast<const uint4*>(out + tile_place<W, true>(g, t).at(k));
    if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) atomicAdd(bad, 1ull);
  }
}

// Counts the output's 16-byte vectors still all poison (0xA5): a move that missed part of the output
// (a write side that is not onto it) fails here, which pattern_check alone would not see.
__global__ void count_poisoned(const uint4* out, std::size_t vectors, unsigned long long* bad) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < vectors;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = out[i];
    if (v.x == 0xA5A5A5A5u && v.y == 0xA5A5A5A5u && v.z == 0xA5A5A5A5u && v.w == 0xA5A5A5A5u) atomicAdd(bad, 1ull);
  }
}

constexpr int kPatternVariants = 13;
// With "modes" on the command line, three more: the library's own kernel with its reads, its writes or
// both taken from / put to linear pieces instead (a build with the experiment's diff,
// bench/results/h200_2026-12-01g_pattern_modes.diff; XPOSE_EXP_PATTERN = 1, 2, 3): timing only, as
// their output is not a transpose.
constexpr int kVariants = 16;
const char* const kNames[kVariants] = {"memcpy",
                                       "xpose",
                                       "copy_in_tiles",
                                       "tiled_reads",
                                       "tiled_writes",
                                       "tiled_both",
                                       "persistent_copy",
                                       "persistent_tiled_both",
                                       "staged_tiled_both",
                                       "staged_warp_rows",
                                       "paced_50ns",
                                       "paced_100ns",
                                       "paced_200ns",
                                       "xpose_linear_reads",
                                       "xpose_linear_writes",
                                       "xpose_linear_both"};

template <int kPerThread>
void launch_pattern(int id, const void* in, void* out, const Geometry& g, long tiles, int threads, int smem,
                    int persistent_blocks, cudaStream_t s) {
  const auto* i = static_cast<const unsigned char*>(in);
  auto* o = static_cast<unsigned char*>(out);
  const unsigned n = static_cast<unsigned>(tiles);
  switch (id) {
    case 6: persistent_kernel<kLinear, kLinear, kPerThread><<<persistent_blocks, threads, smem, s>>>(i, o, g, n); break;
    case 7: persistent_kernel<kTiled, kTiled, kPerThread><<<persistent_blocks, threads, smem, s>>>(i, o, g, n); break;
    case 8: staged_kernel<false, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 9: staged_kernel<true, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 10: pattern_kernel<kTiled, kTiled, kPerThread, 50><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 11: pattern_kernel<kTiled, kTiled, kPerThread, 100><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 12: pattern_kernel<kTiled, kTiled, kPerThread, 200><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 2: pattern_kernel<kLinear, kLinear, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 3: pattern_kernel<kTiled, kLinear, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
    case 4: pattern_kernel<kLinear, kTiled, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
    default: pattern_kernel<kTiled, kTiled, kPerThread><<<tiles, threads, smem, s>>>(i, o, g); break;
  }
}

// Dynamic shared memory for the pattern kernels (the staged ones use it, the others hold it unused)
// that leaves `blocks` blocks per SM, checked against the occupancy calculator; -1 where a kernel's
// registers do not let that many fit.
template <int kPerThread>
int smem_for(int& blocks, int threads, int tile_bytes) {
  int per_sm = 0;
  CK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  // blocks 0: the tile's bytes, as the library's kernel holds, and as many blocks as then fit; else
  // what leaves `blocks` (1 KiB a block is the system's; 256 bytes more and the rounding to 128 keep
  // the total clear of the SM's limit).
  const int smem = blocks == 0 ? tile_bytes : (per_sm / blocks - 1024 - 256) / 128 * 128;
  // The paced kernels get the same shared memory but are not held to the count: their registers may
  // fit a different one.
  const void* kernels[6] = {reinterpret_cast<const void*>(pattern_kernel<kLinear, kLinear, kPerThread>),
                            reinterpret_cast<const void*>(pattern_kernel<kTiled, kLinear, kPerThread>),
                            reinterpret_cast<const void*>(pattern_kernel<kLinear, kTiled, kPerThread>),
                            reinterpret_cast<const void*>(pattern_kernel<kTiled, kTiled, kPerThread>),
                            reinterpret_cast<const void*>(staged_kernel<false, kPerThread>),
                            reinterpret_cast<const void*>(staged_kernel<true, kPerThread>)};
  const void* paced[3] = {reinterpret_cast<const void*>(pattern_kernel<kTiled, kTiled, kPerThread, 50>),
                          reinterpret_cast<const void*>(pattern_kernel<kTiled, kTiled, kPerThread, 100>),
                          reinterpret_cast<const void*>(pattern_kernel<kTiled, kTiled, kPerThread, 200>)};
  for (const void* k : paced) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (const void* k : kernels) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int got = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k, threads, smem));
    if (blocks == 0 && k == kernels[0]) blocks = got;
    if (got != blocks) {
      std::printf("(skipped: %d blocks per SM fit, not %d; threads %d, shared memory %d)\n", got, blocks, threads,
                  smem);
      return -1;
    }
  }
  return smem;
}

// Blocks per SM of the persistent kernels with that shared memory (their registers may allow fewer).
template <int kPerThread>
int persistent_blocks_per_sm(int threads, int smem) {
  int least = 1 << 30;
  const void* kernels[2] = {reinterpret_cast<const void*>(persistent_kernel<kLinear, kLinear, kPerThread>),
                            reinterpret_cast<const void*>(persistent_kernel<kTiled, kTiled, kPerThread>)};
  for (const void* k : kernels) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int got = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k, threads, smem));
    least = std::min(least, got);
  }
  return least;
}

template <int kPerThread>
void run_case(const PatternCase& c, int iters, bool modes, cudaStream_t s) {
  const int nv = modes ? kVariants : kPatternVariants;
  const auto log2 = [](long x) {
    unsigned n = 0;
    while ((1L << n) < x) ++n;
    if ((1L << n) != x) {
      std::fprintf(stderr, "%ld is not a power of two\n", x);
      std::exit(1);
    }
    return n;
  };
  const long tile_bytes = long(c.tile_rows) * c.tile_row_bytes;
  const long tiles_y = c.rows / c.tile_rows, tiles_x = c.cols * c.e / c.tile_row_bytes;
  Geometry g{log2(tiles_y),
             log2(tiles_x),
             log2(c.rows),
             log2(c.cols * c.e),
             log2(c.tile_row_bytes / 16),
             log2(long(c.tile_rows) * c.e / 16),
             log2(tile_bytes),
             log2(c.e),
             static_cast<unsigned>(c.tile_rows),
             static_cast<unsigned>(c.tile_row_bytes)};
  const long tiles = c.batch * tiles_y * tiles_x;
  if (c.bands > 1) {
    g.band_shift = log2(c.bands);
    g.band_tiles_shift = log2(tiles / c.bands);
  }
  if (c.super_rows > tiles_y || c.super_cols > tiles_x) {
    std::fprintf(stderr, "super-tiles larger than the matrix's tiles\n");
    std::exit(1);
  }
  g.super_r_shift = log2(c.super_rows);
  g.super_c_shift = log2(c.super_cols);
  const std::size_t bytes = static_cast<std::size_t>(c.batch) * c.rows * c.cols * c.e;
  if (bytes >= (std::size_t{1} << 32) || tile_bytes != 16L * kPerThread * c.threads) {
    std::fprintf(stderr, "case does not split into whole tiles\n");
    std::exit(1);
  }
  int blocks_per_sm = g_free_occupancy ? 0 : c.blocks_per_sm;
  const int smem = smem_for<kPerThread>(blocks_per_sm, c.threads, static_cast<int>(tile_bytes));
  if (smem < 0) return;
  if (smem < tile_bytes) {
    std::printf("(skipped: the staged kernels need %ld bytes of shared memory, %d held)\n", tile_bytes, smem);
    return;
  }
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int persistent_per_sm = persistent_blocks_per_sm<kPerThread>(c.threads, smem);
  const int persistent_blocks = sms * persistent_per_sm;
  CaseBuffers buf(bytes, bytes, 0x5eed1234u + static_cast<std::uint32_t>(bytes >> 20));
  char msg[256];
  const auto call = [&](int id) {
    if (id == 0) {
      CK(cudaMemcpyAsync(buf.out, buf.in, bytes, cudaMemcpyDeviceToDevice, s));
    } else if (id == 1 || id >= kPatternVariants) {
      const long bs = c.rows * c.cols;
      if (xpose_transpose(c.dtype, c.batch, c.rows, c.cols, c.cols, c.rows, bs, bs, buf.in, buf.out, s, "cuda", msg,
                          sizeof msg) != 0) {
        std::fprintf(stderr, "xpose: %s\n", msg);
        std::exit(1);
      }
    } else {
      launch_pattern<kPerThread>(id, buf.in, buf.out, g, tiles, c.threads, smem, persistent_blocks, s);
    }
  };
  const auto set_mode = [&](int id) {
    const int mode = id >= kPatternVariants ? id - kPatternVariants + 1 : 0;
    setenv("XPOSE_EXP_PATTERN", std::to_string(mode).c_str(), 1);
    if (modes) call(1);  // an untimed call, in which the library copies the mode to the device
  };
  std::string verdict[kVariants] = {"-"};
  for (int id = kPatternVariants; id < kVariants; ++id) verdict[id] = "timing-only";
  set_mode(1);
  {
    // xpose: every matrix of the batch against its transpose.
    CK(cudaMemsetAsync(buf.out, 0xA5, bytes, s));
    call(1);
    unsigned long long* bad;
    CK(cudaMalloc(&bad, 8));
    CK(cudaMemsetAsync(bad, 0, 8, s));
    for (long b = 0; b < c.batch; ++b) {
      const long off = b * c.rows * c.cols * c.e;
      check<<<2048, 256, 0, s>>>(static_cast<const unsigned char*>(buf.in) + off,
                                 static_cast<const unsigned char*>(buf.out) + off, c.e, c.rows, c.cols, c.cols, c.rows,
                                 bad);
    }
    unsigned long long nb = 0;
    CK(cudaMemcpyAsync(&nb, bad, 8, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    verdict[1] = nb == 0 ? "PASSED" : "FAILED(" + std::to_string(nb) + ")";
    for (int id = 2; id < kPatternVariants; ++id) {
      CK(cudaMemsetAsync(buf.out, 0xA5, bytes, s));
      call(id);
      CK(cudaMemsetAsync(bad, 0, 8, s));
      const int vectors = static_cast<int>(tile_bytes / 16);
      const auto* i = static_cast<const unsigned char*>(buf.in);
      const auto* o = static_cast<const unsigned char*>(buf.out);
      switch (id) {
        case 2: pattern_check<kLinear, kLinear><<<2048, 256, 0, s>>>(i, o, g, tiles, vectors, bad); break;
        case 3: pattern_check<kTiled, kLinear><<<2048, 256, 0, s>>>(i, o, g, tiles, vectors, bad); break;
        case 4: pattern_check<kLinear, kTiled><<<2048, 256, 0, s>>>(i, o, g, tiles, vectors, bad); break;
        case 6: pattern_check<kLinear, kLinear><<<2048, 256, 0, s>>>(i, o, g, tiles, vectors, bad); break;
        default: pattern_check<kTiled, kTiled><<<2048, 256, 0, s>>>(i, o, g, tiles, vectors, bad); break;
      }
      count_poisoned<<<2048, 256, 0, s>>>(static_cast<const uint4*>(buf.out), bytes / 16, bad);
      CK(cudaMemcpyAsync(&nb, bad, 8, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
      verdict[id] = nb == 0 ? "PASSED" : "FAILED(" + std::to_string(nb) + ")";
    }
    CK(cudaFree(bad));
  }
  char plan[256];
  const long bs = c.rows * c.cols;
  if (xpose_describe_plan(c.dtype, c.batch, c.rows, c.cols, c.cols, c.rows, bs, bs, 16, "cuda", plan, sizeof plan, msg,
                          sizeof msg) != 0)
    std::snprintf(plan, sizeof plan, "?");
  // The library copies its experiment mode to the device only where it changed, in set_mode's
  // untimed call, before each run's spin kernel.
  const std::vector<float> med =
      rotated_median_times([&](int id, int) { call(id); }, nv, 1, 4, iters, 400000, s,
                           modes ? std::function<void(int)>(set_mode) : std::function<void(int)>());
  std::printf("%s %ldx%ldx%ld tile %dx%dB threads %d blocks/SM %d (persistent %d) bands %d super-tiles %dx%d"
              " | plan %s\n  memcpy %8.2f",
              c.dtype, c.batch, c.rows, c.cols, c.tile_rows, c.tile_row_bytes, c.threads, blocks_per_sm,
              persistent_per_sm, c.bands, c.super_rows, c.super_cols, plan, med[0]);
  print_variants(kNames, med, verdict, nv);
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 30;
  const std::string set = argc > 2 ? argv[2] : "", last = argv[argc - 1];
  const bool modes = set == "modes", writes = set == "writes", orders = set == "orders";
  const bool orders_f32 = set == "orders-f32";
  g_free_occupancy = argc > 2 && last == "free";
  const bool plain = set.empty() || set == "free";
  if (iters < 1 || argc > 4 || !(plain || modes || writes || orders || orders_f32) ||
      (argc == 4 && last != "free")) {
    std::fprintf(stderr, "usage: pattern_probe ROUNDS [modes | writes | orders | orders-f32] [free]\n");
    return 2;
  }
  cudaStream_t s = start_probe(iters, "");
  if (orders || orders_f32) {
    // The order on single squares: super-tiles of the size of a 2048^2 batch matrix and around it.
    const PatternCase u8[] = {{"u8", 1, 1, 8192, 8192, 64, 256, 256, 4, 1, 1, 1},
                              {"u8", 1, 1, 8192, 8192, 64, 256, 256, 4, 1, 32, 8},
                              {"u8", 1, 1, 8192, 8192, 64, 256, 256, 4, 1, 16, 16},
                              {"u8", 1, 1, 8192, 8192, 64, 256, 256, 4, 1, 128, 4},
                              {"u8", 1, 16, 2048, 2048, 64, 256, 256, 4, 1, 1, 1}};
    if (orders)
      for (const auto& c : u8) run_case<4>(c, iters, false, s);
    const PatternCase bf16[] = {{"bf16", 2, 1, 8192, 8192, 128, 256, 256, 3, 1, 1, 1},
                                {"bf16", 2, 1, 8192, 8192, 128, 256, 256, 3, 1, 16, 16},
                                {"bf16", 2, 16, 2048, 2048, 128, 256, 256, 3, 1, 1, 1}};
    if (orders)
      for (const auto& c : bf16) run_case<8>(c, iters, false, s);
    const PatternCase f32[] = {{"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 1, 1},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 32, 32},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 128, 8},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 16, 64},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 64, 16},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 64, 8},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 32, 16},
                               {"f32", 4, 1, 8192, 8192, 64, 256, 512, 4, 1, 64, 32},
                               {"f32", 4, 16, 2048, 2048, 64, 256, 512, 4, 1, 1, 1}};
    for (const auto& c : f32) run_case<2>(c, iters, false, s);
    return 0;
  }
  if (writes) {
    // The write side of f32 1048576x32 (its 32 output rows 4 MiB apart): longer output pieces
    // (taller tiles) and row bands.
    const PatternCase f32_16k[] = {{"f32", 4, 1, 1048576, 32, 128, 128, 512, 4, 1},
                                   {"f32", 4, 1, 1048576, 32, 128, 128, 512, 4, 2},
                                   {"f32", 4, 1, 1048576, 32, 128, 128, 512, 4, 4},
                                   {"f32", 4, 1, 1048576, 32, 128, 128, 512, 4, 16}};
    for (const auto& c : f32_16k) run_case<2>(c, iters, false, s);
    const PatternCase f32_32k[] = {{"f32", 4, 1, 1048576, 32, 256, 128, 512, 4, 1},
                                   {"f32", 4, 1, 1048576, 32, 256, 128, 512, 3, 1},
                                   {"f32", 4, 1, 1048576, 32, 256, 128, 512, 4, 2}};
    for (const auto& c : f32_32k) run_case<4>(c, iters, false, s);
    const PatternCase f32_64k[] = {{"f32", 4, 1, 1048576, 32, 512, 128, 512, 3, 1},
                                   {"f32", 4, 1, 1048576, 32, 512, 128, 512, 2, 1}};
    for (const auto& c : f32_64k) run_case<8>(c, iters, false, s);
    // 8 KiB tiles, as Triton's for this case (64 rows), at 8 warps and at Triton's 4.
    run_case<2>({"f32", 4, 1, 1048576, 32, 64, 128, 256, 8, 1}, iters, false, s);
    run_case<4>({"f32", 4, 1, 1048576, 32, 64, 128, 128, 16, 1}, iters, false, s);
    return 0;
  }
  // Tiles, threads and blocks per SM of the plans tiled_vec runs for these (registers from ptxas:
  // u8 60 -> 4 blocks of 256, bf16 32 KiB tiles 80 -> 3 of 256, f32 32 -> 4 of 512).
  const PatternCase u8[] = {{"u8", 1, 1, 8192, 8192, 64, 256, 256, 4},
                            {"u8", 1, 16, 2048, 2048, 64, 256, 256, 4},
                            {"u8", 1, 1, 16384, 16384, 64, 256, 256, 4},
                            {"u8", 1, 64, 2048, 2048, 64, 256, 256, 4},
                            // The same patterns with twice the blocks in flight (the library's u8
                            // kernel cannot hold them: its registers).
                            {"u8", 1, 1, 8192, 8192, 64, 256, 256, 8},
                            {"u8", 1, 16, 2048, 2048, 64, 256, 256, 8}};
  for (const auto& c : u8) run_case<4>(c, iters, modes, s);
  const PatternCase bf16[] = {{"bf16", 2, 1, 8192, 8192, 128, 256, 256, 3},
                              {"bf16", 2, 16, 2048, 2048, 128, 256, 256, 3}};
  for (const auto& c : bf16) run_case<8>(c, iters, modes, s);
  const PatternCase f32[] = {{"f32", 4, 1, 8192, 8192, 64, 256, 512, 4},
                             {"f32", 4, 16, 2048, 2048, 64, 256, 512, 4},
                             {"f32", 4, 1, 1048576, 32, 128, 128, 512, 4}};
  for (const auto& c : f32) run_case<2>(c, iters, modes, s);
  CK(cudaStreamDestroy(s));
  return 0;
}
