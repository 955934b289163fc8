// Microbenchmark: what stores and loads that start inside a 32-byte sector cost (H200 results and how
// to read them: bench/results/h200_2026-11-24m_partial_sectors.txt). Not part of the build:
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/partial_sectors.cu -o partial_sectors && ./partial_sectors
// A 64 MiB copy in runs of P bytes; each warp instruction moves 256 / P runs far apart, consecutive
// warps the consecutive runs of each region. Shifting the source or destination by S bytes starts
// every run S bytes into a sector, so two warps write each run's end sectors in parts. Then shifts
// within a 128-byte line, and one warp writing every sector in two halves (kernel `halves`).
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <type_traits>
#include <cuda_runtime.h>

template <int V>
__global__ void pieces(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, long long region,
                       int P, int sin, int sout, long long per_region_pieces) {
  const int lane = threadIdx.x & 31;
  const int lanes_per_piece = P / V;
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const int j = lane / lanes_per_piece, o = (lane % lanes_per_piece) * V;
  const long long nwarps = (gridDim.x * (long long)blockDim.x) >> 5;
  using T = typename std::conditional<V == 8, uint2, uint4>::type;
  for (long long w0 = warp; w0 < per_region_pieces; w0 += 4 * nwarps) {
    T v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long w = w0 + k * nwarps;
      if (w < per_region_pieces) v[k] = *reinterpret_cast<const T*>(in + sin + j * region + w * P + o);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long w = w0 + k * nwarps;
      if (w < per_region_pieces) *reinterpret_cast<T*>(out + sout + j * region + w * P + o) = v[k];
    }
  }
}

// Sectors written in halves by one warp: each warp copies 1024-byte blocks with two 16-byte store
// instructions per lane. kHalves false: instruction 1 writes bytes [0, 512) and instruction 2 [512,
// 1024), whole sectors each; true: instruction 1 the first half of every sector, 2 the second.
template <bool kHalves>
__global__ void halves(const uint4* __restrict__ in, uint4* __restrict__ out, long long blocks) {
  const int lane = threadIdx.x & 31;
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = (gridDim.x * (long long)blockDim.x) >> 5;
  const int off0 = kHalves ? 2 * lane : lane, off1 = kHalves ? 2 * lane + 1 : 32 + lane;
  for (long long b0 = warp; b0 < blocks; b0 += 2 * nwarps) {
    uint4 v[2][2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long b = b0 + k * nwarps;
      if (b < blocks) v[k][0] = in[b * 64 + off0], v[k][1] = in[b * 64 + off1];
    }
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long b = b0 + k * nwarps;
      if (b < blocks) out[b * 64 + off0] = v[k][0];
    }
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long b = b0 + k * nwarps;
      if (b < blocks) out[b * 64 + off1] = v[k][1];
    }
  }
}

int main() {
  const long long N = 64ll << 20;
  unsigned char *a, *b;
  cudaMalloc(&a, N + 4096); cudaMalloc(&b, N + 4096);
  cudaMemset(a, 1, N + 4096); cudaMemset(b, 0, N + 4096);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto time = [&](auto fn) {
    std::vector<float> t;
    for (int i = 0; i < 25; ++i) {
      cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (i >= 5) t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end()); return t[t.size() / 2];
  };
  const float mc = time([&] { cudaMemcpyAsync(b, a, N, cudaMemcpyDeviceToDevice); });
  printf("memcpy 64MiB %.2f us\n", mc);
  // Runs starting 8 or 16 bytes into a sector, and (16-byte accesses) 32-96 bytes into a 128-byte line.
  struct Config {
    int V, P;
    std::vector<std::pair<int, int>> shifts;  // (source, destination) shifts in bytes
  };
  const std::vector<std::pair<int, int>> sector_shifts = {{0, 0}, {0, 8}, {8, 0}, {8, 8}, {0, 16}, {16, 0}};
  const std::vector<std::pair<int, int>> line_shifts = {{0, 0}, {0, 16}, {0, 32}, {0, 64}, {0, 96}, {32, 0}, {64, 0}};
  std::vector<Config> configs;
  for (int V : {8, 16})
    for (int P : {32, 64, 128, 256}) configs.push_back({V, P, sector_shifts});
  for (int P : {64, 128, 256, 512}) configs.push_back({16, P, line_shifts});
  for (const Config& c : configs) {
    if (c.P < c.V) continue;
    const int ppi = 32 / (c.P / c.V);  // pieces per instruction
    const long long region = N / ppi;
    const long long prp = region / c.P;
    for (const std::pair<int, int>& shift : c.shifts) {
      const int si = shift.first, so = shift.second;
      if (c.V == 16 && ((si | so) & 15)) continue;
      const float us = time([&] {
        if (c.V == 8) pieces<8><<<132 * 8, 256>>>(a, b, region, c.P, si, so, prp);
        else pieces<16><<<132 * 8, 256>>>(a, b, region, c.P, si, so, prp);
      });
      printf("V=%2d P=%3d in+%2d out+%2d  %.2f us  %.3f x memcpy\n", c.V, c.P, si, so, us, mc / us);
    }
  }
  const auto* in16 = reinterpret_cast<const uint4*>(a);
  auto* out16 = reinterpret_cast<uint4*>(b);
  const float whole = time([&] { halves<false><<<132 * 8, 256>>>(in16, out16, N / 1024); });
  const float split = time([&] { halves<true><<<132 * 8, 256>>>(in16, out16, N / 1024); });
  printf("one warp, two store instructions per 1024 bytes: whole sectors %.2f us (%.3f x memcpy), halves %.2f us "
         "(%.3f x memcpy)\n", whole, mc / whole, split, mc / split);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
