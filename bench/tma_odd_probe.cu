// Experiment, not part of the build: a TMA transpose for rows that are not on the 16-byte grid (odd
// extents, leading dimensions like 8200), against cudaMemcpy D2D and xpose (libxpose_c) in one
// process. Result: the boxes that start off the grid fault ("illegal instruction"), so it was never
// timed; bench/results/h200_2026-11-25zn_tma_odd_probe.txt. From the repository root, after building
// build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc bench/tma_odd_probe.cu -o tma_odd_probe -Lbuild-gpu/src \
//        -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src && ./tma_odd_probe 20
//
// The idea tested: a tensor map needs row strides that are multiples of 16 bytes. Rows of p bytes
// repeat their place on the 16-byte grid every g = 16 / gcd(p, 16) rows, so the matrix is seen as
// ceil(rows / g) groups of g rows, g * p bytes apart (a legal stride), row r = g * y + k at element
// (k * ld + column, y). A tile of 128 input rows x 128 bytes would load as g boxes (one per k,
// 128 / g rows each) at any column, and its transpose store as g_out x (256 / 128 for 2-byte
// elements) boxes the same way, the copy engine realigning, with no halo and no realigning pass. A
// box cannot stop at a row's end (the next row follows inside the same group), so tiles on the
// bottom or right edge store element by element from shared memory.
//
// Loads of the last group may run past the last row: the probe allocates the input rounded up to
// whole groups. Every variant is verified on the GPU against the input (output poisoned first);
// timing as in tma_probe.cu. ONLY_CASE=i, ONLY_VARIANTS="23" (verify only) and ALIGN_X=1 (box columns
// rounded down to the grid: wrong results, to see whether the start is what faults) are for that run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "probe_common.cuh"
#include "xpose/xpose_c.h"

constexpr int kTileRows = 128;  // input rows of a tile; its input row piece is 128 bytes

// Rows of p bytes: how many rows apart two rows sit at the same place on the 16-byte grid.
static int grid_period(long p) { return 16 / std::gcd(p, 16L); }

template <int E>
__global__ void __launch_bounds__(256)
    tma_odd(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout, unsigned char* out,
            int g_in, int g_out, long rows, long cols, long ld_in, long ld_out, int tiles_r, int swz, int align_x) {
  constexpr int TR = kTileRows, W = 128 / E;  // W input columns = output rows of a tile
  constexpr int kPer = 4 / E, kV = 16 / E;    // output rows per word; input rows per 16-byte output chunk
  constexpr int NB = TR * E / 128;            // 128-byte boxes per output row piece
  constexpr int kQ = TR / kV;                 // 16-byte chunks per output row piece
  extern __shared__ unsigned char smem_raw[];
  unsigned char* A =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* B = A + TR * 128;
  __shared__ __align__(8) std::uint64_t bar;
  const int tr = blockIdx.x % tiles_r, tc = blockIdx.x / tiles_r;
  const long r0 = long(tr) * TR, c0 = long(tc) * W;
  const int in_box_rows = TR / g_in, out_box_rows = W / g_out;
  const int in_shift = __ffs(g_in) - 1, out_shift = __ffs(g_out) - 1;  // g is a power of two
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_expect_tx(&bar, TR * 128);
    for (int k = 0; k < g_in; ++k)
      tma_load_2d(A + k * in_box_rows * 128, &tin, int(k * ld_in + c0) & ~align_x, int(r0 / g_in), &bar);
  }
  __syncthreads();
  mbar_wait(&bar, 0);

  // Lane -> word column: the 8 lanes of each 16-byte store phase take output rows in 8 different
  // rows of their box, so that the swizzle spreads them over the banks.
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lp = lane & 7, ph = lane >> 3;
  const int a = max(1, g_out / kPer);
  const int wcol = lp * a + ph % a + 8 * a * (ph / a);
  for (int q = warp; q < kQ; q += 8) {
    std::uint32_t u[kV];
#pragma unroll
    for (int i = 0; i < kV; ++i) {
      const int row = kV * q + i, s = (row & (g_in - 1)) * in_box_rows + (row >> in_shift);
      u[i] = *reinterpret_cast<const std::uint32_t*>(A + s * 128 + ((((wcol >> 2) ^ (s & swz))) << 4) + ((wcol & 3) << 2));
    }
    uint4 o[kPer];
    rows_to_chunks<E>(u, o);
    const int b = q >> 3, j = q & 7;
#pragma unroll
    for (int m = 0; m < kPer; ++m) {
      const int cl = wcol * kPer + m, s = ((cl & (g_out - 1)) * NB + b) * out_box_rows + (cl >> out_shift);
      *reinterpret_cast<uint4*>(B + s * 128 + ((j ^ (s & swz)) << 4)) = o[m];
    }
  }
  fence_proxy_async();
  __syncthreads();
  if (r0 + TR <= rows && c0 + W <= cols) {
    if (threadIdx.x == 0) {
      for (int k = 0; k < g_out; ++k)
        for (int b = 0; b < NB; ++b)
          tma_store_2d(&tout, B + (k * NB + b) * out_box_rows * 128, int(k * ld_out + r0 + b * (128 / E)) & ~align_x,
                       int(c0 / g_out));
      tma_commit_and_wait_read();
    }
    return;
  }
  const int nr = int(min(long(TR), rows - r0)), nc = int(min(long(W), cols - c0));
  for (int idx = threadIdx.x; idx < nr * nc; idx += blockDim.x) {
    const int cl = idx / nr, r = idx % nr, byte = r * E;
    const int s = ((cl & (g_out - 1)) * NB + (byte >> 7)) * out_box_rows + (cl >> out_shift);
    const unsigned char* src = B + s * 128 + ((((byte & 127) >> 4) ^ (s & swz)) << 4) + (byte & 15);
    unsigned char* dst = out + ((c0 + cl) * ld_out + r0 + r) * E;
#pragma unroll
    for (int e = 0; e < E; ++e) dst[e] = src[e];
  }
}

struct Case {
  int e;
  long rows, cols, ld_in, ld_out;
};

template <int E>
void run_odd(const Case& k, const void* in, void* out, CUtensorMapL2promotion promotion, CUtensorMapSwizzle swizzle,
             cudaStream_t s) {
  constexpr int W = 128 / E;
  const int g_in = grid_period(k.ld_in * E), g_out = grid_period(k.ld_out * E);
  // Encoded per call (about a microsecond of host time, outside the timed stream work).
  const CUtensorMap tin = make_map(const_cast<void*>(in), E, (g_in - 1) * k.ld_in + k.cols,
                                   (k.rows + g_in - 1) / g_in, g_in * k.ld_in, W, kTileRows / g_in, promotion, swizzle);
  const CUtensorMap tout =
      make_map(out, E, (g_out - 1) * k.ld_out + k.rows, k.cols / g_out, g_out * k.ld_out, 128 / E, W / g_out, promotion,
               swizzle);
  // ALIGN_X=1 (debugging only, wrong results): box columns rounded down to the 16-byte grid.
  static const int align_x = std::getenv("ALIGN_X") ? 16 / E - 1 : 0;
  const int tiles_r = int((k.rows + kTileRows - 1) / kTileRows), tiles_c = int((k.cols + W - 1) / W);
  const int smem = 2 * kTileRows * 128 + 1024;
  static bool set = false;
  if (!set) {
    CK(cudaFuncSetAttribute(tma_odd<E>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    set = true;
  }
  tma_odd<E><<<tiles_r * tiles_c, 256, smem, s>>>(tin, tout, static_cast<unsigned char*>(out), g_in, g_out, k.rows,
                                                   k.cols, k.ld_in, k.ld_out, tiles_r,
                                                   swizzle == CU_TENSOR_MAP_SWIZZLE_128B ? 7 : 0, align_x);
  CK(cudaGetLastError());
}

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::vector<Case> cases = {
      {2, 8191, 8193, 8193, 8191},     {1, 8191, 8193, 8193, 8191},     {4, 8191, 8193, 8193, 8191},
      {2, 16385, 16383, 16383, 16385}, {1, 16385, 16383, 16383, 16385}, {2, 8192, 8192, 8200, 8200},
      {1, 8192, 8192, 8200, 8200},     {4, 8192, 8192, 8200, 8200},     {2, 8192, 8192, 8197, 8199},
      {1, 3001, 2999, 2999, 3001},     {2, 8192, 8192, 8192, 8192},     {1, 8192, 8192, 8192, 8192}};
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  std::printf("# GPU: ");
  {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    std::printf("%s\n", p.name);
  }
  const char* only = std::getenv("ONLY_CASE");  // index of one case to run (debugging)
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    if (only && std::atoi(only) != int(ci)) continue;
    const Case& k = cases[ci];
    const long g_in = grid_period(k.ld_in * k.e);
    const std::size_t in_bytes = std::size_t((k.rows + g_in - 1) / g_in * g_in) * k.ld_in * k.e;
    const std::size_t out_bytes = std::size_t(k.cols) * k.ld_out * k.e;
    const std::size_t data = std::size_t(k.rows) * k.cols * k.e;
    const CaseBuffers buffers(in_bytes, out_bytes, 12345u + k.e);
    void *in = buffers.in, *out = buffers.out;
    const char* dn = probe_dtype(k.e);
    // Variants: 128-byte swizzle with L2 promotion of 256 bytes or none; no swizzle (bank conflicts).
    const CUtensorMapL2promotion promo[3] = {CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
    const CUtensorMapSwizzle swz[3] = {CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_NONE};
    const char* names[5] = {"memcpy", "xpose", "tma_sw_p256", "tma_sw_pnone", "tma_nosw_p256"};
    constexpr int NV = 5;
    auto call = [&](int id) {
      if (id == 0) {
        CK(cudaMemcpyAsync(out, in, data, cudaMemcpyDeviceToDevice, s));
      } else if (id == 1) {
        char msg[256];
        if (xpose_transpose(dn, 1, k.rows, k.cols, k.ld_in, k.ld_out, 0, 0, in, out, s, "cuda", msg, sizeof msg) != 0) {
          std::fprintf(stderr, "xpose: %s\n", msg);
          std::exit(1);
        }
      } else if (k.e == 1) {
        run_odd<1>(k, in, out, promo[id - 2], swz[id - 2], s);
      } else if (k.e == 2) {
        run_odd<2>(k, in, out, promo[id - 2], swz[id - 2], s);
      } else {
        run_odd<4>(k, in, out, promo[id - 2], swz[id - 2], s);
      }
    };
    std::string verdict[NV];
    const char* only_variants = std::getenv("ONLY_VARIANTS");  // e.g. "23": verify these only, no timing
    for (int id = 1; id < NV; ++id) {
      if (only_variants && !std::strchr(only_variants, '0' + id)) continue;
      verdict[id] = verify_variant(call, id, in, out, out_bytes, k.e, k.rows, k.cols, k.ld_in, k.ld_out, s);
      if (only_variants) std::printf("case %zu %s: %s\n", ci, names[id], verdict[id].c_str());
    }
    if (only_variants) continue;
    const std::vector<float> med = median_times(call, NV, iters, s);
    std::printf("%-4s %6ldx%-6ld ld %ld/%ld g %ld/%d  memcpy %8.2f us", dn, k.rows, k.cols, k.ld_in, k.ld_out, g_in,
                grid_period(k.ld_out * k.e), med[0]);
    print_variants(names, med, verdict, NV);
  }
  return 0;
}
