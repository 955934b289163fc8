// Experiment, not part of the build: three questions about tiled_vec's kernel on the large squares
// and batches of 1- and 2-byte elements, asked in one process against cudaMemcpy D2D, xpose
// (libxpose_c, the plan's kernel) and the library's kernel instantiated here on the probe's tile and
// grid; every transpose verified against its input, the output poisoned first.
// - (default) Is the store phase's instruction count what holds them? It is done here with
//   ldmatrix.trans (sm_75 and later) instead of 32-bit shared-memory reads and byte permutes, after the
//   library's load phase (vec_issue_loads) into a tile swizzled so that the eight rows each ldmatrix
//   matrix reads lie in different banks. One ldmatrix.x4.trans gives each lane the 2-byte column of
//   8 rows: for bf16 a whole 16-byte output vector, for u8 (two calls, then 8 byte permutes) two
//   vectors of 16 rows, where the library's kernel reads 4 words and permutes 12 times per u8
//   vector. Each kernel down the matrix first (the library's order) and across first (Triton's).
// - sizes: how the time over memcpy's splits into a part per call and a part per byte (batches of
//   2048^2).
// - tail: what the last wave of blocks costs: the library's tile transpose with its last one or two
//   waves of tiles (a wave: the blocks resident on the GPU at once) cut into 2 or 4 parts of fewer
//   rows, one block each.
// From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Isrc bench/tiled_vec_probe.cu \
//        -o tiled_vec_probe -Lbuild-gpu/src -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src
//   ./tiled_vec_probe 40 [sizes | tail]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "gpu/kernels/tiled_vec.cuh"
#include "probe_common.cuh"
#include "xpose/xpose_c.h"

namespace {

using xpose::gpu::MatrixGeometry;
using xpose::gpu::TileGrid;
using xpose::gpu::VecTile;
using xpose::gpu::VecTilePos;
using xpose::gpu::VecWords;

// The library's ldmatrix store phase (tiled_vec_ldmatrix.cuh) on any tile it fits, 16 and 32 KiB ones
// too, which the library keeps on the generic phase, with its own register cap. Whole tiles only (the
// probe's cases split into them). (Its runs in bench/results/h200_2026-12-01h_tiled_vec_probe.txt used
// the probe's own copy of that phase, written before the library had it: the same layout and lane map.)
template <typename Tile, int kMinBlocks>
__global__ void __launch_bounds__(Tile::kThreads, kMinBlocks)
    ldsm_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                TileGrid grid) {
  constexpr int E = Tile::kE;
  static_assert(E <= 2 && Tile::kVBytes == 16, "packed elements, 16-byte accesses");
  alignas(128) __shared__ unsigned char tile[Tile::kTileB];
  const int tid = threadIdx.x;
  const VecTilePos p = xpose::gpu::vec_tile_position<Tile, TileGrid, false>(in, out, g, grid, blockIdx.x);
  {
    VecWords<16> v[Tile::kLoadsPerThread];
    xpose::gpu::vec_issue_loads<Tile, false>(p, g.ld_in * E, tid, v);
#pragma unroll
    for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
      const int idx = k * Tile::kThreads + tid;
      const int at = xpose::gpu::ldmatrix_tile_offset<E, Tile::kRowB>(idx / Tile::kVecsPerRow, idx % Tile::kVecsPerRow);
      xpose::gpu::store_vec<16>(tile + at, v[k]);
    }
  }
  __syncthreads();
  xpose::gpu::ldmatrix_store_tile<Tile>(p.dst, g.ld_out * E, p.rows_valid, p.bytes_valid, tile, tid);
}

// The library's tile transpose with its last tiles (in grid order, from whole_tiles on) cut into
// kSplit parts of kRows / kSplit rows, one block each: the blocks that end the kernel then hold
// smaller tiles, as a test of how much the last wave costs.
template <typename Tile, int kSplit, int kMinBlocks>
__global__ void __launch_bounds__(Tile::kThreads, kMinBlocks)
    tail_split_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                      TileGrid grid, std::uint32_t whole_tiles) {
  alignas(16) __shared__ unsigned char tile[Tile::kTileB];
  const std::uint32_t b = blockIdx.x;
  const bool part = b >= whole_tiles;
  VecTilePos p = xpose::gpu::vec_tile_position<Tile, TileGrid, false>(
      in, out, g, grid, part ? whole_tiles + (b - whole_tiles) / kSplit : b);
  if (part) {
    constexpr int kPartRows = Tile::kRows / kSplit;
    const int k = static_cast<int>((b - whole_tiles) % kSplit);
    p.src += k * kPartRows * g.ld_in * Tile::kE;
    p.dst += k * kPartRows * Tile::kE;
    p.rows_valid = min(p.rows_valid - k * kPartRows, kPartRows);
  }
  xpose::gpu::vec_transpose_tile<Tile, false>(p, g.ld_in * Tile::kE, g.ld_out * Tile::kE, tile, threadIdx.x);
}

struct Case {
  const char* dtype;
  int e;
  long batch, rows, cols;
};

// Kernels of one tile shape (kThreads a block): the library's, the ldmatrix one and the split-tail
// one. The ldmatrix one's register cap asks for the library's blocks per SM for the tile, or kBlocks
// where given.
template <int E, int kRowBytes, int kTileBytes, int kThreads = xpose::tiled_vec_threads(E, kTileBytes),
          int kBlocks = 0>
struct TileKernels {
  using Tile = VecTile<E, 16, kRowBytes, kTileBytes, kThreads>;
  // The split kernels' cap: the library's blocks per SM as its kernel gets them (f32 16 KiB tiles:
  // 32 registers, four blocks of 512 threads, where the cap asks for two).
  static constexpr int kTailBlocks = E == 4 ? 4 : xpose::gpu::tiled_vec_min_blocks<Tile, false>();
  // Variants of the modes: orders (0-3) the library's kernel and the ldmatrix one, each down the
  // matrix first (the library's order) and across first (Triton's); tail (0-4) the library's kernel
  // whole, then with the last wave or two of tiles (wave: the blocks resident on the GPU at once)
  // split in 2 or 4.
  static void launch(bool tail, int variant, const void* in, void* out, const MatrixGeometry& g, const TileGrid& down,
                     const TileGrid& across, long tiles, cudaStream_t s) {
    const auto* i = static_cast<const unsigned char*>(in);
    auto* o = static_cast<unsigned char*>(out);
    if (!tail) {
      const TileGrid& grid = variant % 2 == 0 ? down : across;
      if constexpr (E <= 2) {
        if (variant >= 2) {
          constexpr int kCap = kBlocks > 0 ? kBlocks : xpose::gpu::tiled_vec_min_blocks<Tile, false>();
          ldsm_kernel<Tile, kCap><<<tiles, Tile::kThreads, 0, s>>>(i, o, g, grid);
          return;
        }
      }
      xpose::gpu::tiled_vec_kernel<Tile><<<tiles, Tile::kThreads, 0, s>>>(i, o, g, grid);
      return;
    }
    if (variant == 0) {
      xpose::gpu::tiled_vec_kernel<Tile><<<tiles, Tile::kThreads, 0, s>>>(i, o, g, down);
      return;
    }
    int sms = 0, per_sm = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tail_split_kernel<Tile, 2, kTailBlocks>, Tile::kThreads,
                                                     0));
    const long wave = static_cast<long>(sms) * per_sm;
    const long split = std::min(tiles, (variant == 2 ? 2 : 1) * wave);
    const auto whole = static_cast<std::uint32_t>(tiles - split);
    if (variant <= 2)
      tail_split_kernel<Tile, 2, kTailBlocks><<<whole + 2 * split, Tile::kThreads, 0, s>>>(i, o, g, down, whole);
    else if (variant == 3)
      tail_split_kernel<Tile, 4, kTailBlocks><<<whole + 4 * split, Tile::kThreads, 0, s>>>(i, o, g, down, whole);
    else
      tail_split_kernel<Tile, 2, kTailBlocks><<<2 * tiles, Tile::kThreads, 0, s>>>(i, o, g, down, 0);
  }
  static long tiles_of(const Case& c) {
    return c.batch * (c.rows / Tile::kRows) * (c.cols / Tile::kCols);
  }
  static bool fits(const Case& c) { return c.rows % Tile::kRows == 0 && c.cols % Tile::kCols == 0; }
};

// "PASSED" or "FAILED(n)": run() into an output poisoned with 0xA5, every matrix of the batch
// checked against its input's transpose.
std::string verify_batch(const std::function<void()>& run, const Case& c, const CaseBuffers& b, std::size_t bytes,
                         cudaStream_t s) {
  unsigned long long* bad;
  CK(cudaMalloc(&bad, 8));
  CK(cudaMemsetAsync(b.out, 0xA5, bytes, s));
  run();
  CK(cudaMemsetAsync(bad, 0, 8, s));
  const long matrix_bytes = c.rows * c.cols * c.e;
  for (long m = 0; m < c.batch; ++m)
    check<<<2048, 256, 0, s>>>(static_cast<const unsigned char*>(b.in) + m * matrix_bytes,
                               static_cast<const unsigned char*>(b.out) + m * matrix_bytes, c.e, c.rows, c.cols, c.cols,
                               c.rows, bad);
  unsigned long long nb = 0;
  CK(cudaMemcpyAsync(&nb, bad, 8, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaFree(bad));
  return nb == 0 ? "PASSED" : "FAILED(" + std::to_string(nb) + ")";
}

template <typename K>
void run_case(const Case& c, int iters, cudaStream_t s, bool tail = false);

// Every case, on each tile shape in turn.
template <typename... Ks, std::size_t N>
void run_cases(const Case (&cases)[N], int iters, cudaStream_t s) {
  for (const Case& c : cases) (run_case<Ks>(c, iters, s), ...);
}

template <typename K>
void run_case(const Case& c, int iters, cudaStream_t s, bool tail) {
  using Tile = typename K::Tile;
  if (!K::fits(c)) return;
  const std::size_t bytes = static_cast<std::size_t>(c.batch) * c.rows * c.cols * c.e;
  const long bs = c.rows * c.cols;
  const MatrixGeometry g{c.rows, c.cols, c.batch, c.cols, c.rows, bs, bs, c.rows / Tile::kRows};
  // Down the matrix first (the library's order) and across first (Triton's).
  const TileGrid down = xpose::gpu::make_tile_grid(c.rows / Tile::kRows, c.cols / Tile::kCols, true);
  const TileGrid across = xpose::gpu::make_tile_grid(c.rows / Tile::kRows, c.cols / Tile::kCols, false);
  const long tiles = K::tiles_of(c);
  const int pairs = pairs_past_l2(2 * bytes, 8);
  std::vector<CaseBuffers*> bufs;
  for (int k = 0; k < pairs; ++k) bufs.push_back(new CaseBuffers(bytes, bytes, 0x1d5a0000u + k));
  char msg[256];
  const auto call = [&](int id, int pair) {
    CaseBuffers& b = *bufs[pair];
    if (id == 0) {
      CK(cudaMemcpyAsync(b.out, b.in, bytes, cudaMemcpyDeviceToDevice, s));
    } else if (id == 1) {
      if (xpose_transpose(c.dtype, c.batch, c.rows, c.cols, c.cols, c.rows, bs, bs, b.in, b.out, s, "cuda", msg,
                          sizeof msg) != 0) {
        std::fprintf(stderr, "xpose: %s\n", msg);
        std::exit(1);
      }
    } else {
      K::launch(tail, id - 2, b.in, b.out, g, down, across, tiles, s);
    }
  };
  const int nv = tail ? 7 : 6;
  const char* orders[] = {"memcpy", "xpose", "lib_down", "lib_across", "ldsm_down", "ldsm_across"};
  const char* tails[] = {"memcpy", "xpose", "lib", "split2_1wave", "split2_2waves", "split4_1wave", "split2_all"};
  const char* const* names = tail ? tails : orders;
  std::vector<std::string> verdict(nv, "-");
  for (int id = 1; id < nv; ++id) verdict[id] = verify_batch([&] { call(id, 0); }, c, *bufs[0], bytes, s);
  const std::vector<float> med = rotated_median_times(call, nv, pairs, 4, iters, 400000, s);
  char plan[256];
  if (xpose_describe_plan(c.dtype, c.batch, c.rows, c.cols, c.cols, c.rows, bs, bs, 16, "cuda", plan, sizeof plan, msg,
                          sizeof msg) != 0)
    std::snprintf(plan, sizeof plan, "?");
  int lib_blocks = 0;  // resident blocks per SM of the library's kernel (its registers decide)
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&lib_blocks, xpose::gpu::tiled_vec_kernel<Tile>, Tile::kThreads,
                                                   0));
  std::printf("%s %ldx%ldx%ld tile %dx%dB threads %d blocks/SM %d | plan %s\n  memcpy %8.2f", c.dtype, c.batch,
              c.rows, c.cols, Tile::kRows, Tile::kRowB, Tile::kThreads, lib_blocks, plan, med[0]);
  print_variants(names, med, verdict.data(), nv);
  for (auto* b : bufs) delete b;
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 30;
  const std::string set = argc > 2 ? argv[2] : "";
  const bool known = set.empty() || set == "sizes" || set == "tail" || set == "u8-shapes" || set == "u8-mid" ||
                     set == "u8-large" || set == "bf16-mid";
  if (iters < 1 || argc > 3 || !known) {
    std::fprintf(stderr, "usage: tiled_vec_probe ROUNDS [sizes | tail | u8-shapes | u8-mid | u8-large | bf16-mid]\n");
    return 2;
  }
  cudaStream_t s = start_probe(iters, " on buffer pairs rotated past the L2");
  if (set == "sizes") {
    // Batches of 2048^2, 32 to 256 MiB (u8) and 32 to 512 MiB (bf16).
    for (long b : {8, 16, 32, 64}) run_case<TileKernels<1, 256, 16384>>({"u8", 1, b, 2048, 2048}, iters, s);
    for (long b : {4, 8, 16, 32, 64}) run_case<TileKernels<2, 256, 32768>>({"bf16", 2, b, 2048, 2048}, iters, s);
    return 0;
  }
  if (set == "u8-shapes") {
    // Where u8's 128 x 128 tiles (Triton's) with the ldmatrix store phase beat the plan: batches and
    // single matrices of 1 to 256 MiB.
    const Case cases[] = {{"u8", 1, 256, 1024, 1024}, {"u8", 1, 64, 1024, 1024}, {"u8", 1, 16, 1024, 1024},
                          {"u8", 1, 256, 2048, 2048}, {"u8", 1, 64, 2048, 2048}, {"u8", 1, 16, 2048, 2048},
                          {"u8", 1, 4, 2048, 2048},   {"u8", 1, 16, 4096, 4096}, {"u8", 1, 4, 4096, 4096},
                          {"u8", 1, 1, 4096, 4096},   {"u8", 1, 1, 2048, 2048},  {"u8", 1, 1, 4096, 16384},
                          {"u8", 1, 1, 16384, 4096},  {"u8", 1, 1, 8192, 8192}};
    run_cases<TileKernels<1, 128, 16384>>(cases, iters, s);
    return 0;
  }
  if (set == "u8-mid") {
    // Single u8 matrices of 1 to 16 MiB, where the plan's tiles are 8 KiB: 16 and 8 KiB ldmatrix tiles.
    const Case cases[] = {{"u8", 1, 1, 1024, 1024}, {"u8", 1, 1, 1536, 1536}, {"u8", 1, 1, 2048, 2048},
                          {"u8", 1, 1, 3072, 3072}, {"u8", 1, 1, 4096, 4096}, {"u8", 1, 1, 2048, 8192},
                          {"u8", 1, 1, 8192, 2048}, {"u8", 1, 2, 2048, 2048}, {"u8", 1, 1, 1024, 4096}};
    run_cases<TileKernels<1, 128, 16384>, TileKernels<1, 128, 8192>>(cases, iters, s);
    return 0;
  }
  if (set == "u8-large") {
    // The 8 KiB ldmatrix tiles on the suite's large u8 cases.
    const Case cases[] = {{"u8", 1, 1, 8192, 8192},   {"u8", 1, 1, 16384, 16384}, {"u8", 1, 64, 2048, 2048},
                          {"u8", 1, 256, 1024, 1024}, {"u8", 1, 16, 4096, 4096},  {"u8", 1, 1, 4096, 16384},
                          {"u8", 1, 1, 16384, 4096}};
    run_cases<TileKernels<1, 128, 8192>, TileKernels<1, 128, 8192, 128>>(cases, iters, s);
    return 0;
  }
  if (set == "bf16-mid") {
    // bf16 matrices of 2 to 32 MiB: 8 KiB ldmatrix tiles of 64 and 32 rows.
    const Case cases[] = {{"bf16", 2, 1, 1024, 1024}, {"bf16", 2, 1, 1536, 1536}, {"bf16", 2, 1, 2048, 2048},
                          {"bf16", 2, 1, 3072, 3072}, {"bf16", 2, 1, 4096, 4096}, {"bf16", 2, 2, 2048, 2048},
                          {"bf16", 2, 1, 2048, 8192}};
    run_cases<TileKernels<2, 128, 8192>, TileKernels<2, 256, 8192>>(cases, iters, s);
    return 0;
  }
  if (set == "tail") {
    for (const Case& c : {Case{"u8", 1, 1, 8192, 8192}, Case{"u8", 1, 16, 2048, 2048}, Case{"u8", 1, 1, 16384, 16384}})
      run_case<TileKernels<1, 256, 16384>>(c, iters, s, true);
    for (const Case& c : {Case{"bf16", 2, 1, 8192, 8192}, Case{"bf16", 2, 16, 2048, 2048}})
      run_case<TileKernels<2, 256, 32768>>(c, iters, s, true);
    for (const Case& c : {Case{"f32", 4, 1, 8192, 8192}, Case{"f32", 4, 16, 2048, 2048}})
      run_case<TileKernels<4, 256, 16384>>(c, iters, s, true);
    return 0;
  }
  const Case u8[] = {{"u8", 1, 1, 8192, 8192}, {"u8", 1, 1, 16384, 16384}, {"u8", 1, 64, 2048, 2048}};
  // Triton's u8 tile is the third, 4 warps; the ldmatrix kernel capped for 6 blocks (at 8 it spills;
  // the library's kernel takes its own cap, 8 blocks, and spills 48 bytes).
  run_cases<TileKernels<1, 256, 16384>, TileKernels<1, 128, 16384>, TileKernels<1, 128, 16384, 128, 6>>(u8, iters,
                                                                                                       s);
  const Case bf16[] = {{"bf16", 2, 1, 8192, 8192}, {"bf16", 2, 1, 16384, 16384}, {"bf16", 2, 64, 2048, 2048}};
  run_cases<TileKernels<2, 256, 32768>, TileKernels<2, 256, 16384>>(bf16, iters, s);
  CK(cudaStreamDestroy(s));
  return 0;
}
