// Experiment, not part of the build: copies of a vector whose elements are evenly spaced on one side
// (a row vector written into a column with ld_out > 1, a column read with ld_in > 1), the transposes
// that scatter or gather single elements. Timed against cudaMemcpy D2D of the same useful bytes and
// xpose (libxpose_c) in one process. From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Isrc bench/strided_vector_probe.cu -o strided_vector_probe \
//        -Lbuild-gpu/src -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src && ./strided_vector_probe 20
// Variants: one element a thread (elem1); U elements a thread, the warp's accesses adjacent on the
// packed side, every load issued before the first store (elemU4, elemU8); 16 bytes of the packed
// side a thread as one vector access, scattered or gathered element by element (vec16, vec16x2: two
// vectors a thread). Every variant is verified on the GPU (output poisoned first); timing as in
// tma_probe.cu (bench/probe_common.cuh).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe_common.cuh"
#include "xpose/xpose_c.h"

template <int E>
struct Elem;
template <>
struct Elem<1> {
  using T = std::uint8_t;
};
template <>
struct Elem<2> {
  using T = std::uint16_t;
};
template <>
struct Elem<4> {
  using T = std::uint32_t;
};
template <>
struct Elem<8> {
  using T = uint2;
};
template <>
struct Elem<16> {
  using T = uint4;
};

// out[i * s_out] = in[i * s_in], i < n; U elements a thread, blockDim apart.
template <int E, int U>
__global__ void __launch_bounds__(256) strided_elems(const void* in, void* out, long n, long s_in, long s_out) {
  using T = typename Elem<E>::T;
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  const long base = long(blockIdx.x) * blockDim.x * U + threadIdx.x;
  T v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long i = base + long(u) * blockDim.x;
    if (i < n) v[u] = src[i * s_in];
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long i = base + long(u) * blockDim.x;
    if (i < n) dst[i * s_out] = v[u];
  }
}

// One side packed (s == 1), 16-byte aligned: V 16-byte vectors a thread on that side, the other side
// element by element. n a multiple of 16 / E (the probe's cases are).
template <int E, int V, bool kPackedIn>
__global__ void __launch_bounds__(256) strided_vec16(const void* in, void* out, long n, long stride) {
  using T = typename Elem<E>::T;
  constexpr int kPer = 16 / E;
  const long vecs = n / kPer;
  const long first = long(blockIdx.x) * blockDim.x * V + threadIdx.x;
  if constexpr (kPackedIn) {
    uint4 w[V];
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const long q = first + long(k) * blockDim.x;
      if (q < vecs) w[k] = static_cast<const uint4*>(in)[q];
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const long q = first + long(k) * blockDim.x;
      if (q >= vecs) break;
      const T* e = reinterpret_cast<const T*>(&w[k]);
      T* dst = static_cast<T*>(out) + q * kPer * stride;
#pragma unroll
      for (int j = 0; j < kPer; ++j) dst[j * stride] = e[j];
    }
  } else {
    uint4 w[V];
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const long q = first + long(k) * blockDim.x;
      if (q >= vecs) break;
      T* e = reinterpret_cast<T*>(&w[k]);
      const T* src = static_cast<const T*>(in) + q * kPer * stride;
#pragma unroll
      for (int j = 0; j < kPer; ++j) e[j] = src[j * stride];
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const long q = first + long(k) * blockDim.x;
      if (q < vecs) static_cast<uint4*>(out)[q] = w[k];
    }
  }
}

struct Case {
  const char* dtype;
  int e;
  long rows, cols, ld_in, ld_out;  // rows == 1: a row into a column; cols == 1: a column into a row
};

template <int E>
void run_variant(int v, const Case& k, const void* in, void* out, cudaStream_t s) {
  const long n = k.rows * k.cols;
  const long s_in = k.rows == 1 ? 1 : k.ld_in, s_out = k.rows == 1 ? k.ld_out : 1;
  const bool packed_in = s_in == 1;
  const long stride = packed_in ? s_out : s_in;
  constexpr int kPer = 16 / E;
  auto blocks = [&](long per_block) { return unsigned((n + per_block - 1) / per_block); };
  switch (v) {
    case 0: strided_elems<E, 1><<<blocks(256), 256, 0, s>>>(in, out, n, s_in, s_out); break;
    case 1: strided_elems<E, 4><<<blocks(1024), 256, 0, s>>>(in, out, n, s_in, s_out); break;
    case 2: strided_elems<E, 8><<<blocks(2048), 256, 0, s>>>(in, out, n, s_in, s_out); break;
    case 3:
      if (packed_in)
        strided_vec16<E, 1, true><<<blocks(256 * kPer), 256, 0, s>>>(in, out, n, stride);
      else
        strided_vec16<E, 1, false><<<blocks(256 * kPer), 256, 0, s>>>(in, out, n, stride);
      break;
    default:
      if (packed_in)
        strided_vec16<E, 2, true><<<blocks(512 * kPer), 256, 0, s>>>(in, out, n, stride);
      else
        strided_vec16<E, 2, false><<<blocks(512 * kPer), 256, 0, s>>>(in, out, n, stride);
  }
  CK(cudaGetLastError());
}

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::vector<Case> cases = {
      {"c128", 16, 1, 2097152, 2097152, 65}, {"c128", 16, 2097152, 1, 65, 2097152}, {"f32", 4, 8388608, 1, 65, 8388608},
      {"f32", 4, 1, 8388608, 8388608, 65},   {"f64", 8, 1, 4194304, 4194304, 3},    {"f64", 8, 4194304, 1, 3, 4194304},
      {"f32", 4, 1, 8388608, 8388608, 17},   {"bf16", 2, 1, 16777216, 16777216, 2}, {"bf16", 2, 16777216, 1, 2, 16777216},
      {"u8", 1, 33554432, 1, 4, 33554432},   {"u8", 1, 1, 33554432, 33554432, 4},   {"u8", 1, 1, 33554432, 33554432, 65}};
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# GPU: %s\n", p.name);
  const char* names[7] = {"memcpy", "xpose", "elem1", "elemU4", "elemU8", "vec16", "vec16x2"};
  constexpr int NV = 7;
  for (const Case& k : cases) {
    const std::size_t in_bytes = std::size_t((k.rows - 1) * k.ld_in + k.cols) * k.e;
    const std::size_t out_bytes = std::size_t((k.cols - 1) * k.ld_out + k.rows) * k.e;
    const std::size_t data = std::size_t(k.rows) * k.cols * k.e;
    const CaseBuffers buffers(in_bytes, std::max(out_bytes, data), 777u + k.e);
    void *in = buffers.in, *out = buffers.out;
    auto call = [&](int id) {
      if (id == 0) {
        CK(cudaMemcpyAsync(out, in, data, cudaMemcpyDeviceToDevice, s));
      } else if (id == 1) {
        char msg[256];
        if (xpose_transpose(k.dtype, 1, k.rows, k.cols, k.ld_in, k.ld_out, 0, 0, in, out, s, "cuda", msg, sizeof msg)) {
          std::fprintf(stderr, "xpose: %s\n", msg);
          std::exit(1);
        }
      } else {
        const int v = id - 2;
        switch (k.e) {
          case 1: run_variant<1>(v, k, in, out, s); break;
          case 2: run_variant<2>(v, k, in, out, s); break;
          case 4: run_variant<4>(v, k, in, out, s); break;
          case 8: run_variant<8>(v, k, in, out, s); break;
          default: run_variant<16>(v, k, in, out, s);
        }
      }
    };
    std::string verdict[NV];
    for (int id = 1; id < NV; ++id)
      verdict[id] = verify_variant(call, id, in, out, out_bytes, k.e, k.rows, k.cols, k.ld_in, k.ld_out, s);
    const std::vector<float> med = median_times(call, NV, iters, s);
    char plan[256] = "", msg[256];
    xpose_describe_plan(k.dtype, 1, k.rows, k.cols, k.ld_in, k.ld_out, 0, 0, 0, "cuda", plan, sizeof plan, msg, sizeof msg);
    std::printf("%-4s %8ldx%-8ld ld %ld/%ld  memcpy %8.2f us  [xpose: %s]\n", k.dtype, k.rows, k.cols, k.ld_in, k.ld_out,
                med[0], plan);
    for (int id = 1; id < NV; ++id)
      std::printf("    %-8s %9.2f us (%.3f) %s\n", names[id], med[id], med[0] / med[id], verdict[id].c_str());
    std::fflush(stdout);
  }
  return 0;
}
