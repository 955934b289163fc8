// Experiment, not part of the build: the gather kernel on small square matrices, with and without the
// per-block check of whether its tile is cut by the matrix's edges (kTilesWhole), launched directly in
// one process against cudaMemcpy D2D and xpose (libxpose_c). Timing as in bench/few_rows_probe.cu
// (buffer pairs rotated past 3x the L2, runs behind a spin kernel, rounds in rotated order, median),
// every variant verified first. From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Isrc -Ibench bench/gather_probe.cu \
//        -o gather_probe -Lbuild-gpu/src -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src && ./gather_probe 40
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "gpu/kernels/gather.cuh"
#include "probe_common.cuh"
#include "xpose/xpose_c.h"

using xpose::gpu::GatherArgs;
using xpose::gpu::GatherTile;

// The library's tile for each case (src/gpu/launch/gather.cu: with_tile) at the sizes probed here.
using U8Tile = GatherTile<1, false, 2, 2, 2, 1>;
using Bf16TinyTile = GatherTile<2, true, 2, 2, 2, 1>;  // matrices of at most 256 KiB
using Bf16Tile = GatherTile<2, true, 4, 2, 4, 1>;
using F32Tile = GatherTile<4, false, 4, 2, 4, 1>;
using F64Tile = GatherTile<8, false, 2, 2, 4, 2>;

template <typename Tile>
GatherArgs<int> args_for(long n) {
  GatherArgs<int> a;
  a.tiles_y = xpose::gpu::make_fast_div((n + Tile::kRows - 1) / Tile::kRows);
  a.tiles_c = xpose::gpu::make_fast_div((n + Tile::kTileCols - 1) / Tile::kTileCols);
  a.rows = a.cols = static_cast<int>(n);
  a.ld_in_bytes = a.ld_out_bytes = static_cast<int>(n * Tile::kE);
  a.bs_in_bytes = a.bs_out_bytes = 0;
  return a;
}

template <typename Tile, bool kWhole>
void launch(const void* in, void* out, long n, cudaStream_t s) {
  const long tiles = ((n + Tile::kRows - 1) / Tile::kRows) * ((n + Tile::kTileCols - 1) / Tile::kTileCols);
  xpose::gpu::gather_kernel<Tile, int, false, kWhole><<<tiles, Tile::kThreads, 0, s>>>(
      static_cast<const unsigned char*>(in), static_cast<unsigned char*>(out), args_for<Tile>(n));
}

struct Variant {
  std::string name;
  std::function<void(const void*, void*, cudaStream_t)> launch;
};

template <typename Tile>
void run_case(const char* dtype, long n, int rounds, cudaStream_t s) {
  constexpr int e = Tile::kE;
  const std::size_t bytes = static_cast<std::size_t>(n) * n * e;
  const int pairs = pairs_past_l2(2 * bytes, 2048);
  std::vector<CaseBuffers*> buf;
  for (int p = 0; p < pairs; ++p) buf.push_back(new CaseBuffers(bytes, bytes, 777u + p));
  const int calls = std::min(pairs, 256);
  std::vector<Variant> vs = {
      {"memcpy", [bytes](const void* in, void* out,
                         cudaStream_t st) { CK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, st)); }},
      {"xpose", [dtype, n](const void* in, void* out, cudaStream_t st) {
         char msg[256];
         if (xpose_transpose(dtype, 1, n, n, 0, 0, 0, 0, in, out, st, "cuda", msg, sizeof msg) != 0) {
           std::fprintf(stderr, "xpose: %s\n", msg);
           std::exit(1);
         }
       }},
      {"checked", [n](const void* in, void* out, cudaStream_t st) { launch<Tile, false>(in, out, n, st); }},
      {"whole", [n](const void* in, void* out, cudaStream_t st) { launch<Tile, true>(in, out, n, st); }},
  };
  const int nv = static_cast<int>(vs.size());
  std::vector<std::string> verdict(nv, "-");
  for (int id = 1; id < nv; ++id) {
    const auto call = [&](int v) { vs[v].launch(buf[0]->in, buf[0]->out, s); };
    verdict[id] = verify_variant(call, id, buf[0]->in, buf[0]->out, bytes, e, n, n, n, n, s);
  }
  const std::vector<float> med = rotated_median_times(
      [&](int id, int p) { vs[id].launch(buf[p]->in, buf[p]->out, s); }, nv, pairs, calls, rounds, 4000000, s);
  char plan[256], msg[256];
  xpose_describe_plan(dtype, 1, n, n, 0, 0, 0, 0, 16, "cuda", plan, sizeof plan, msg, sizeof msg);
  std::printf("%s %ldx%ld (%d pairs, %d calls a run, %d rounds; xpose plan %s)\n", dtype, n, n, pairs, calls, rounds,
              plan);
  for (int id = 0; id < nv; ++id)
    std::printf("  %-8s %8.3f us  memcpy/this %.3f  checked/this %.3f  %s\n", vs[id].name.c_str(), med[id],
                med[0] / med[id], med[2] / med[id], verdict[id].c_str());
  std::fflush(stdout);
  for (auto* b : buf) delete b;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, %d SMs\n", p.name, p.multiProcessorCount);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  run_case<Bf16TinyTile>("bf16", 256, rounds, s);
  run_case<U8Tile>("u8", 256, rounds, s);
  run_case<F32Tile>("f32", 256, rounds, s);
  run_case<F64Tile>("f64", 256, rounds, s);
  run_case<Bf16Tile>("bf16", 1024, rounds, s);
  run_case<U8Tile>("u8", 1024, rounds, s);
  run_case<F64Tile>("f64", 1024, rounds, s);
  return 0;
}
