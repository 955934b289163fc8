// Shared by the probes under bench/ (tma_probe.cu, tma_odd_probe.cu, strided_vector_probe.cu,
// few_rows_probe.cu, gather_probe.cu, pattern_probe.cu, tiled_vec_probe.cu); not part of the build:
// error check, mbarrier and cp.async.bulk.tensor wrappers, the 128-byte swizzle's word address, tensor
// map encoding, and the harness (random fill, a GPU check of every element against the input,
// verification of a variant, median timing of interleaved variants, on one buffer pair or rotated past
// the L2).
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "gpu/kernels/word_block_transpose.cuh"

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned phase) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(phase)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int x, int y, std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(x), "r"(y), "r"(smem_addr(bar))
      : "memory");
}
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map), "r"(x), "r"(y),
               "r"(smem_addr(src))
               : "memory");
}
__device__ __forceinline__ void tma_commit_and_wait_read() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// Word (r, wc) of the swizzled input tile (rows of 128 bytes).
__device__ __forceinline__ unsigned a_off(int r, int wc) {
  return r * 128 + ((((wc >> 2) ^ (r & 7))) << 4) + ((wc & 3) << 2);
}

// The words `u` of one word column of 16 / E consecutive rows (row 0 first) as 4 / E output chunks:
// chunk m holds column m of that word column, the rows in order. Built on the library's
// transpose_word_block (src/gpu/kernels/word_block_transpose.cuh), one block per 4 / E rows.
template <int E>
__device__ __forceinline__ void rows_to_chunks(const std::uint32_t (&u)[16 / E], uint4 (&o)[4 / E]) {
  constexpr int kPer = 4 / E;
  if constexpr (E == 4) {
    o[0] = make_uint4(u[0], u[1], u[2], u[3]);
  } else {
    std::uint32_t cols[4][kPer];
#pragma unroll
    for (int g = 0; g < 4; ++g) {
      std::uint32_t rows[kPer];
#pragma unroll
      for (int i = 0; i < kPer; ++i) rows[i] = u[kPer * g + i];
      xpose::gpu::transpose_word_block<E>(rows, cols[g]);
    }
#pragma unroll
    for (int m = 0; m < kPer; ++m) o[m] = make_uint4(cols[0][m], cols[1][m], cols[2][m], cols[3][m]);
  }
}

__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

__global__ void fill_random(std::uint32_t* p, std::size_t words, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    x *= 3266489917u;
    x ^= x >> 16;
    p[i] = x;
  }
}

// Counts the elements (of e bytes) of out that differ from the transposed input.
__global__ void check(const unsigned char* in, const unsigned char* out, int e, long rows, long cols, long ld_in,
                      long ld_out, unsigned long long* bad) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < rows * cols; i += long(gridDim.x) * blockDim.x) {
    const long r = i / cols, c = i % cols;
    const unsigned char* a = in + (r * ld_in + c) * e;
    const unsigned char* b = out + (c * ld_out + r) * e;
    for (int k = 0; k < e; ++k)
      if (a[k] != b[k]) {
        atomicAdd(bad, 1ull);
        break;
      }
  }
}

// Looked up once: the experiments encode maps per call.
static PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  static void* fn = nullptr;
  if (fn) return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  if (!fn || q != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "no cuTensorMapEncodeTiled\n");
    std::exit(1);
  }
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

static CUtensorMapDataType dt(int e) {
  return e == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
         : e == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                  : CU_TENSOR_MAP_DATA_TYPE_UINT32;
}

// A 2-D map of e-byte elements: inner x outer, rows ld elements apart (128-byte swizzle unless told).
static CUtensorMap make_map(void* base, int e, long inner, long outer, long ld, int box_inner, int box_outer,
                            CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B) {
  CUtensorMap m;
  cuuint64_t dims[2] = {cuuint64_t(inner), cuuint64_t(outer)};
  cuuint64_t strides[1] = {cuuint64_t(ld * e)};
  cuuint32_t box[2] = {cuuint32_t(box_inner), cuuint32_t(box_outer)};
  cuuint32_t es[2] = {1, 1};
  CUresult r =
      encode_fn()(&m, dt(e), 2, base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                  promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "encode failed %d\n", int(r));
    std::exit(1);
  }
  return m;
}

// "PASSED" or "FAILED(n)": runs call(id) into an output poisoned with 0xA5 and counts the elements
// (of e bytes) that differ from the transposed input.
inline std::string verify_variant(const std::function<void(int)>& call, int id, const void* in, void* out,
                                  std::size_t out_bytes, int e, long rows, long cols, long ld_in, long ld_out,
                                  cudaStream_t s) {
  unsigned long long* bad;
  CK(cudaMalloc(&bad, 8));
  CK(cudaMemsetAsync(out, 0xA5, out_bytes, s));
  call(id);
  CK(cudaStreamSynchronize(s));  // a failing variant is named by the line below, not by the check
  CK(cudaMemsetAsync(bad, 0, 8, s));
  check<<<2048, 256, 0, s>>>(static_cast<const unsigned char*>(in), static_cast<const unsigned char*>(out), e, rows,
                             cols, ld_in, ld_out, bad);
  unsigned long long nb = 0;
  CK(cudaMemcpyAsync(&nb, bad, 8, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaFree(bad));
  return nb == 0 ? "PASSED" : "FAILED(" + std::to_string(nb) + ")";
}

// Buffer pairs of `pair_bytes` (input and output) enough that the calls between two uses of a pair
// touch 3x the L2, so that every call finds its data cold (as bench/peers.py rotates them): at least
// 2, at most max_pairs.
inline int pairs_past_l2(std::size_t pair_bytes, int max_pairs) {
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  return std::min(max_pairs, std::max(2, static_cast<int>(3.0 * l2 / static_cast<double>(pair_bytes)) + 1));
}

// Median microseconds per call of variants 0 .. nv - 1, timed as bench/peers.py times small cases:
// runs of `calls` calls, each on the next of `pairs` buffer pairs (call(id, pair)), queued behind a
// spin kernel of spin_cycles that holds the stream until the run is enqueued; one warm-up run each,
// then `rounds` rounds in which the variants' order rotates. setup(id), if given, runs before each
// run's spin kernel and is waited for, outside the timing.
inline std::vector<float> rotated_median_times(const std::function<void(int, int)>& call, int nv, int pairs,
                                               int calls, int rounds, long long spin_cycles, cudaStream_t s,
                                               const std::function<void(int)>& setup = {}) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<std::vector<float>> t(nv);
  int next = 0;
  const auto run = [&](int id) {
    if (setup) {
      setup(id);
      CK(cudaStreamSynchronize(s));
    }
    spin<<<1, 1, 0, s>>>(spin_cycles);
    CK(cudaEventRecord(e0, s));
    for (int n = 0; n < calls; ++n, next = (next + 1) % pairs) call(id, next);
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    return ms * 1000 / calls;
  };
  for (int id = 0; id < nv; ++id) run(id);  // warm-up
  for (int r = 0; r < rounds; ++r)
    for (int j = 0; j < nv; ++j) {
      const int id = (j + r) % nv;
      t[id].push_back(run(id));
    }
  std::vector<float> med(nv);
  for (int id = 0; id < nv; ++id) {
    std::sort(t[id].begin(), t[id].end());
    med[id] = t[id][t[id].size() / 2];
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return med;
}

// Median microseconds per call of variants 0 .. nv - 1 on one buffer pair: rounds of 4 calls queued
// behind a spin kernel (so that launch gaps do not count), the variants interleaved and their order
// rotated each round.
inline std::vector<float> median_times(const std::function<void(int)>& call, int nv, int iters, cudaStream_t s) {
  return rotated_median_times([&](int id, int) { call(id); }, nv, 1, 4, iters, 400000, s);
}

// The rest of a case's line after its memcpy time: each variant 1 .. nv - 1 as "name time (ratio to
// memcpy, med[0]) verdict", then the newline.
inline void print_variants(const char* const* names, const std::vector<float>& med, const std::string* verdict,
                           int nv) {
  for (int id = 1; id < nv; ++id)
    std::printf("  %s %8.2f (%.3f) %s", names[id], med[id], med[0] / med[id], verdict[id].c_str());
  std::printf("\n");
  std::fflush(stdout);
}

// One case's device buffers: the input filled with random words, the output as allocated; both freed
// when the case's scope ends.
struct CaseBuffers {
  void* in = nullptr;
  void* out = nullptr;
  CaseBuffers(std::size_t in_bytes, std::size_t out_bytes, std::uint32_t seed) {
    CK(cudaMalloc(&in, in_bytes));
    CK(cudaMalloc(&out, out_bytes));
    fill_random<<<1024, 256>>>(static_cast<std::uint32_t*>(in), in_bytes / 4, seed);
  }
  ~CaseBuffers() {
    cudaFree(in);
    cudaFree(out);
  }
  CaseBuffers(const CaseBuffers&) = delete;
  CaseBuffers& operator=(const CaseBuffers&) = delete;
};

// A probe's stream, after the header line of its output: "# <GPU>, median of <rounds> rounds of 4
// calls<how>; us (ratio to memcpy)".
inline cudaStream_t start_probe(int rounds, const char* how) {
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, median of %d rounds of 4 calls%s; us (ratio to memcpy)\n", p.name, rounds, how);
  return s;
}

// The dtype that xpose's C interface is called with for the TMA probes' element sizes (1, 2, 4 bytes).
inline const char* probe_dtype(int e) { return e == 1 ? "u8" : e == 2 ? "bf16" : "f32"; }
