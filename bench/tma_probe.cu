// Experiment, not part of the build: a TMA (cp.async.bulk.tensor) transpose for 1-, 2- and 4-byte
// elements, timed against cudaMemcpy D2D and xpose (libxpose_c) in one process. Results and how to
// read them: bench/results/h200_2026-11-25zf_tma_probe.txt (run 2 is this file; run 1 an earlier form
// with one-tile kernels of 128 and 256 rows). Not kept: level with the library on the u8 and bf16
// squares, slower elsewhere. From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc bench/tma_probe.cu -o tma_probe -Lbuild-gpu/src -lxpose_c \
//        -Xlinker -rpath -Xlinker $PWD/build-gpu/src && ./tma_probe 20
// Tile: TR input rows x 128 bytes of input row, loaded by one TMA box (128-byte swizzle); threads
// gather word columns, transpose them in registers and write a swizzled output tile, which TMA stores
// in boxes of 128 / E output rows x 128 bytes. Variants: one tile per block (tma128), and persistent
// blocks with S input stages in flight and two output buffers (p128s2, p128s3, p64s4). Each variant
// is verified on the GPU against the input (output poisoned first), then timed: rounds of 4 calls
// queued behind a spin kernel, variants interleaved, median. The 4096^2 cases fit the L2 (no
// rotation): they time the cache.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "probe_common.cuh"
#include "xpose/xpose_c.h"

template <int E, int TR>
__device__ __forceinline__ void transpose_tile(const unsigned char* A, unsigned char* B) {
  constexpr int kPer = 4 / E;
  constexpr int kV = 16 / E;
  constexpr int kOutRows = 128 / E;
  constexpr int kBoxBytes = kOutRows * 128;
  static_assert(TR * E % 128 == 0, "output boxes of 128 bytes");
  constexpr int kQ = TR / kV;
  constexpr int kPerThread = (kQ + 7) / 8;
  const int wc = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int q = warp + 8 * k;
    if (kQ % 8 != 0 && q >= kQ) break;
    std::uint32_t u[kV];
#pragma unroll
    for (int i = 0; i < kV; ++i) u[i] = *reinterpret_cast<const std::uint32_t*>(A + a_off(kV * q + i, wc));
    uint4 out[kPer];
    rows_to_chunks<E>(u, out);
    const int b = q >> 3, j = q & 7;
    // Rotate which output row each store instruction takes, so the 8 lanes of a store phase hit 8 slots.
    const int rot = E == 4 ? 0 : E == 2 ? ((wc >> 2) & 1) : ((wc >> 1) & 3);
#pragma unroll
    for (int s = 0; s < kPer; ++s) {
      const int m = s ^ rot;
      uint4 v = out[0];
#pragma unroll
      for (int mm = 1; mm < kPer; ++mm)
        if (m == mm) v = out[mm];
      const int c = wc * kPer + m;
      *reinterpret_cast<uint4*>(B + b * kBoxBytes + c * 128 + ((j ^ (c & 7)) << 4)) = v;
    }
  }
}

template <int E, int TR>
__global__ void __launch_bounds__(256)
    tma_transpose(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout, int tiles_r) {
  constexpr int kOutRows = 128 / E;  // output rows per tile (input columns)
  constexpr int kBoxBytes = kOutRows * 128;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* A = smem;
  unsigned char* B = smem + TR * 128;
  __shared__ __align__(8) std::uint64_t bar;
  const int tr = blockIdx.x % tiles_r, tc = blockIdx.x / tiles_r;
  const int r0 = tr * TR, c0 = tc * kOutRows;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_expect_tx(&bar, TR * 128);
    tma_load_2d(A, &tin, c0, r0, &bar);
  }
  __syncthreads();
  mbar_wait(&bar, 0);
  transpose_tile<E, TR>(A, B);
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int b = 0; b < TR * E / 128; ++b) tma_store_2d(&tout, B + b * kBoxBytes, r0 + b * (128 / E), c0);
    tma_commit_and_wait_read();
  }
}

struct Case {
  int e;
  long rows, cols, ld_in, ld_out;
};

// The input and output tensor maps of one launcher (E and TR fixed), encoded again only when the
// buffers or the case change.
struct TileMaps {
  CUtensorMap in_map, out_map;
  const void* in = nullptr;
  void* out = nullptr;
  const Case* k = nullptr;
  void refresh(const Case& c, const void* src, void* dst, int e, int tr) {
    if (src == in && dst == out && &c == k) return;
    in_map = make_map(const_cast<void*>(src), e, c.cols, c.rows, c.ld_in, 128 / e, tr);
    out_map = make_map(dst, e, c.rows, c.cols, c.ld_out, 128 / e, 128 / e);
    in = src, out = dst, k = &c;
  }
};

template <int E, int TR>
void run_tma(const Case& k, const void* in, void* out, cudaStream_t s) {
  static TileMaps maps;
  maps.refresh(k, in, out, E, TR);
  const int tiles_r = int((k.rows + TR - 1) / TR), tiles_c = int((k.cols + 128 / E - 1) / (128 / E));
  const int smem = 2 * TR * 128 + 1024;
  static bool set = false;
  if (!set) {
    CK(cudaFuncSetAttribute(tma_transpose<E, TR>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    set = true;
  }
  tma_transpose<E, TR><<<tiles_r * tiles_c, 256, smem, s>>>(maps.in_map, maps.out_map, tiles_r);
}

// Persistent: tiles blockIdx.x, + gridDim.x, ...; S input stages in flight (TMA loads, no registers), two
// output buffers (the store of tile i overlaps the transpose of tile i + 1).
template <int E, int TR, int S>
__global__ void __launch_bounds__(256)
    tma_persistent(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout, int tiles_r,
                   int tiles) {
  constexpr int kOutRows = 128 / E;
  constexpr int kTileBytes = TR * 128;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* A = smem;                   // S stages
  unsigned char* B = smem + S * kTileBytes;  // 2 buffers
  __shared__ __align__(8) std::uint64_t full[S];
  const int first = blockIdx.x, step = gridDim.x;
  auto issue = [&](int i) {  // load of this block's i-th tile into stage i % S
    const int t = first + i * step;
    if (t >= tiles) return;
    const int tr = t % tiles_r, tc = t / tiles_r;
    mbar_expect_tx(&full[i % S], kTileBytes);
    tma_load_2d(A + (i % S) * kTileBytes, &tin, tc * kOutRows, tr * TR, &full[i % S]);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) mbar_init(&full[s], 1);
    for (int i = 0; i < S; ++i) issue(i);
  }
  __syncthreads();
  for (int i = 0;; ++i) {
    const int t = first + i * step;
    if (t >= tiles) break;
    const int tr = t % tiles_r, tc = t / tiles_r;
    mbar_wait(&full[i % S], (i / S) & 1);
    transpose_tile<E, TR>(A + (i % S) * kTileBytes, B + (i & 1) * kTileBytes);
    fence_proxy_async();
    __syncthreads();
    if (threadIdx.x == 0) {
#pragma unroll
      for (int b = 0; b < TR * E / 128; ++b)
        tma_store_2d(&tout, B + (i & 1) * kTileBytes + b * kOutRows * 128, tr * TR + b * kOutRows, tc * kOutRows);
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      issue(i + S);
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <int E, int TR, int S>
void run_persistent(const Case& k, const void* in, void* out, cudaStream_t s) {
  static TileMaps maps;
  maps.refresh(k, in, out, E, TR);
  const int tiles_r = int((k.rows + TR - 1) / TR), tiles_c = int((k.cols + 128 / E - 1) / (128 / E));
  const int smem = (S + 2) * TR * 128 + 1024;
  static int grid_per_sm = 0;
  if (!grid_per_sm) {
    CK(cudaFuncSetAttribute(tma_persistent<E, TR, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&grid_per_sm, tma_persistent<E, TR, S>, 256, smem));
    std::printf("  [persistent E=%d TR=%d S=%d: %d blocks/SM]\n", E, TR, S, grid_per_sm);
  }
  const int tiles = tiles_r * tiles_c;
  const int grid = std::min(tiles, grid_per_sm * 132);
  tma_persistent<E, TR, S><<<grid, 256, smem, s>>>(maps.in_map, maps.out_map, tiles_r, tiles);
}

// f(std::integral_constant<int, E>) for element size e (1, 2 or 4).
template <typename F>
void by_size(int e, F&& f) {
  if (e == 1)
    f(std::integral_constant<int, 1>{});
  else if (e == 2)
    f(std::integral_constant<int, 2>{});
  else
    f(std::integral_constant<int, 4>{});
}

int main(int argc, char** argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 25;
  std::vector<Case> cases = {
      {1, 8192, 8192, 8192, 8192},     {1, 16384, 16384, 16384, 16384}, {2, 8192, 8192, 8192, 8192},
      {2, 16384, 16384, 16384, 16384}, {4, 8192, 8192, 8192, 8192},     {4, 16384, 16384, 16384, 16384},
      {4, 8192, 8192, 8200, 8200},     {2, 8192, 8192, 8200, 8200},     {4, 1048576, 32, 32, 1048576},
      {1, 4096, 4096, 4096, 4096},     {2, 4096, 4096, 4096, 4096}};
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  for (const Case& k : cases) {
    const std::size_t in_bytes = std::size_t(k.rows) * k.ld_in * k.e, out_bytes = std::size_t(k.cols) * k.ld_out * k.e;
    const std::size_t data = std::size_t(k.rows) * k.cols * k.e;
    const CaseBuffers buffers(in_bytes, out_bytes, 12345u + k.e);
    void *in = buffers.in, *out = buffers.out;
    const char* dn = probe_dtype(k.e);
    auto lib = [&] {
      char msg[256];
      if (xpose_transpose(dn, 1, k.rows, k.cols, k.ld_in, k.ld_out, 0, 0, in, out, s, "cuda", msg, sizeof msg) != 0) {
        std::fprintf(stderr, "xpose: %s\n", msg);
        std::exit(1);
      }
    };
    // One tile per block at 128 rows; persistent at 128 rows with 2 or 3 stages, and 4 stages of 64 rows
    // (of 128 for 1-byte elements, whose output boxes need 128 rows).
    auto tma = [&] { by_size(k.e, [&](auto E) { run_tma<decltype(E)::value, 128>(k, in, out, s); }); };
    auto p1 = [&] { by_size(k.e, [&](auto E) { run_persistent<decltype(E)::value, 128, 2>(k, in, out, s); }); };
    auto p2 = [&] { by_size(k.e, [&](auto E) { run_persistent<decltype(E)::value, 128, 3>(k, in, out, s); }); };
    auto p3 = [&] {
      by_size(k.e, [&](auto E) {
        constexpr int e = decltype(E)::value;
        run_persistent<e, e == 1 ? 128 : 64, 4>(k, in, out, s);
      });
    };
    auto memcpy_fn = [&] { CK(cudaMemcpyAsync(out, in, data, cudaMemcpyDeviceToDevice, s)); };
    const char* names[6] = {"memcpy", "xpose", "tma128", "p128s2", "p128s3", "p64s4(u8:128s4)"};
    constexpr int NV = 6;
    auto call = [&](int id) {
      if (id == 0)
        memcpy_fn();
      else if (id == 1)
        lib();
      else if (id == 2)
        tma();
      else if (id == 3)
        p1();
      else if (id == 4)
        p2();
      else
        p3();
    };
    std::string verdict[NV];
    for (int id = 1; id < NV; ++id)
      verdict[id] = verify_variant(call, id, in, out, out_bytes, k.e, k.rows, k.cols, k.ld_in, k.ld_out, s);
    const std::vector<float> med = median_times(call, NV, iters, s);
    std::printf("%-4s %7ldx%-7ld ld %ld/%ld  memcpy %8.2f us", dn, k.rows, k.cols, k.ld_in, k.ld_out, med[0]);
    print_variants(names, med, verdict, NV);
  }
  return 0;
}
