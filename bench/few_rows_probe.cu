// Experiment, not part of the build: few-row f32 transposes (R x cols -> cols x R, R = 2 to 4), the
// shape of the suite's f32 3x1048576 on which the Triton peer ran 1-3% faster than xpose in every full
// run. Variants of one thread per V columns of every row (R x V words, R loads of V words), differing in
// block size, in how a warp's 32 output runs reach memory and in the instructions before the loads
// (the library's one-run kernel's prologue, piece by piece), against cudaMemcpy D2D, xpose
// (libxpose_c) and the library's kernels launched directly, in one process. Results:
// bench/results/h200_2026-11-30l_few_rows_probe.txt. From the repository root, after building build-gpu/:
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Isrc -Ibench bench/few_rows_probe.cu \
//        -o few_rows_probe -Lbuild-gpu/src -lxpose_c -Xlinker -rpath -Xlinker $PWD/build-gpu/src && ./few_rows_probe 40
// Timing as bench/peers.py does it for small cases: buffer pairs rotated so that the calls between
// two uses of a pair touch 3x the L2 (every call finds its data cold), runs of calls queued behind a
// spin kernel, median time per call over rounds in which the variants' order rotates. Every variant
// is verified against the input first (output poisoned).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>  // std::conditional_t
#include <vector>

#include "gpu/kernels/skinny_rows_regs.cuh"
#include "probe_common.cuh"
#include "xpose/xpose_c.h"

enum Store { kStaged, kDirect, kScalar };

// V floats as one access (V = 1, 2 or 4).
template <int V>
using FloatVec = std::conditional_t<V == 4, float4, std::conditional_t<V == 2, float2, float>>;

// Word k of a thread's output run: output element k = (column k / R, row k % R).
template <int R, int V>
__device__ __forceinline__ float run_word(const float (&x)[R][V], int k) {
  return x[k % R][k / R];
}

// A warp's 32 output runs (one contiguous stretch from dst - lane * R * V) through its stage in shared
// memory: each lane writes its run in the widest units its length allows, then 16-byte stores cover
// 512 contiguous bytes per instruction (the library's skinny_rows_regs_one_run_kernel).
template <int R, int V>
__device__ __forceinline__ void store_run_staged(const float (&x)[R][V], float* st, float* dst, int lane) {
  constexpr int kRun = R * V;
  constexpr int kUnit = kRun % 4 == 0 ? 4 : kRun % 2 == 0 ? 2 : 1;  // words per shared store
#pragma unroll
  for (int k = 0; k < kRun; k += kUnit) {
    if constexpr (kUnit == 4)
      *reinterpret_cast<float4*>(st + lane * kRun + k) = make_float4(
          run_word<R, V>(x, k), run_word<R, V>(x, k + 1), run_word<R, V>(x, k + 2), run_word<R, V>(x, k + 3));
    else if constexpr (kUnit == 2)
      *reinterpret_cast<float2*>(st + lane * kRun + k) = make_float2(run_word<R, V>(x, k), run_word<R, V>(x, k + 1));
    else
      st[lane * kRun + k] = run_word<R, V>(x, k);
  }
  __syncwarp();
  float* stretch = dst - lane * kRun;
#pragma unroll
  for (int q = lane; q < 32 * kRun / 4; q += 32)
    *reinterpret_cast<float4*>(stretch + 4 * q) = *reinterpret_cast<const float4*>(st + 4 * q);
}

// One thread per V columns of all R rows; cols a multiple of V * T (the probe's shapes are).
// kStaged: store_run_staged; kDirect: each
// run straight from registers in the widest vectors its length allows; kScalar: word by word.
template <int R, int V, int T, Store S>
__global__ void __launch_bounds__(T, 2048 / T) rows_probe(const float* __restrict__ in, float* __restrict__ out,
                                                          long cols) {
  using Vec = FloatVec<V>;
  constexpr int kRun = R * V;  // words
  const long t = blockIdx.x * static_cast<long>(T) + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float x[R][V];
#pragma unroll
  for (int s = 0; s < R; ++s) {
    const Vec v = *reinterpret_cast<const Vec*>(in + s * cols + t * V);
    const float* f = reinterpret_cast<const float*>(&v);
#pragma unroll
    for (int j = 0; j < V; ++j) x[s][j] = f[j];
  }
  float* dst = out + t * kRun;
  if constexpr (S == kStaged) {
    __shared__ __align__(16) float stage[T / 32][32 * kRun];
    store_run_staged<R, V>(x, stage[warp], dst, lane);
  } else if constexpr (S == kDirect) {
    if constexpr (kRun % 4 == 0) {
#pragma unroll
      for (int k = 0; k < kRun; k += 4)
        *reinterpret_cast<float4*>(dst + k) = make_float4(run_word<R, V>(x, k), run_word<R, V>(x, k + 1),
                                                          run_word<R, V>(x, k + 2), run_word<R, V>(x, k + 3));
    } else if constexpr (kRun % 2 == 0) {
#pragma unroll
      for (int k = 0; k < kRun; k += 2)
        *reinterpret_cast<float2*>(dst + k) = make_float2(run_word<R, V>(x, k), run_word<R, V>(x, k + 1));
    } else {
#pragma unroll
      for (int k = 0; k < kRun; ++k) dst[k] = run_word<R, V>(x, k);
    }
  } else {
#pragma unroll
    for (int k = 0; k < kRun; ++k) dst[k] = run_word<R, V>(x, k);
  }
}

// The same bytes copied, each thread R vectors of V words from the same places into its run: the
// floor for this access pattern.
template <int R, int V, int T>
__global__ void __launch_bounds__(T, 2048 / T) copy_probe(const float* __restrict__ in, float* __restrict__ out,
                                                          long cols) {
  using Vec = FloatVec<V>;
  const long t = blockIdx.x * static_cast<long>(T) + threadIdx.x;
#pragma unroll
  for (int s = 0; s < R; ++s)
    reinterpret_cast<Vec*>(out + t * R * V)[s] = *reinterpret_cast<const Vec*>(in + s * cols + t * V);
}

struct Variant {
  std::string name;
  std::function<void(const float*, float*, long, cudaStream_t)> launch;
};

// The probe's one-run kernel (4 columns a thread, 256-thread blocks, staged stores) with the library
// one-run kernel's parameter list and its prologue, piece by piece: kCheck 1 branches on
// whether the run is whole before its loads, 2 loads a clamped run instead (no branch); kVote takes
// the staged path only where the warp's 32 runs are whole (else each run from registers); kBatch
// adds the matrix offsets of blockIdx.y.
template <int R, int kCheck, bool kVote, bool kBatch>
__global__ void __launch_bounds__(256, 8)
    staged_prologue(const unsigned char* __restrict__ in_b, const unsigned char* __restrict__ in_end,
                    unsigned char* __restrict__ out_b, std::int64_t ld_in, std::int64_t bs_in, std::int64_t bs_out,
                    std::int64_t cols, std::int64_t runs) {
  constexpr int V = 4, kRun = R * V, T = 256;
  const long t = blockIdx.x * static_cast<long>(T) + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if constexpr (kBatch) in_b += blockIdx.y * bs_in, out_b += blockIdx.y * bs_out;
  const bool whole = kCheck == 0 || (t < runs && t * V + V <= cols);
  float x[R][V];
  const auto load = [&](long tt) {
#pragma unroll
    for (int s = 0; s < R; ++s) {
      const float4 v = *reinterpret_cast<const float4*>(in_b + s * ld_in + tt * 16);
      x[s][0] = v.x, x[s][1] = v.y, x[s][2] = v.z, x[s][3] = v.w;
    }
  };
  if (kCheck == 2) load(whole ? t : 0);
  else if (whole) load(t);
  float* dst = reinterpret_cast<float*>(out_b) + t * kRun;
  __shared__ __align__(16) float stage[T / 32][32 * kRun];
  if (!kVote || __all_sync(~0u, whole)) {
    store_run_staged<R, V>(x, stage[warp], dst, lane);
  } else if (whole) {
#pragma unroll
    for (int k = 0; k < kRun; k += 4)
      *reinterpret_cast<float4*>(dst + k) = make_float4(run_word<R, V>(x, k), run_word<R, V>(x, k + 1),
                                                        run_word<R, V>(x, k + 2), run_word<R, V>(x, k + 3));
  }
  (void)in_end;
}

template <int R, int kCheck, bool kVote, bool kBatch>
Variant prologue_variant() {
  return {"pro_c" + std::to_string(kCheck) + (kVote ? "_vote" : "") + (kBatch ? "_batch" : ""),
          [](const float* in, float* out, long cols, cudaStream_t s) {
            const auto* i = reinterpret_cast<const unsigned char*>(in);
            staged_prologue<R, kCheck, kVote, kBatch><<<cols / 4 / 256, 256, 0, s>>>(
                i, i + R * cols * 4, reinterpret_cast<unsigned char*>(out), cols * 4, 0, 0, cols, cols / 4);
          }};
}

template <int R, int V, int T, Store S>
Variant probe_variant(const char* store) {
  return {std::string(store) + "_v" + std::to_string(V) + "_t" + std::to_string(T),
          [](const float* in, float* out, long cols, cudaStream_t s) {
            rows_probe<R, V, T, S><<<cols / V / T, T, 0, s>>>(in, out, cols);
          }};
}

// The library's one-run kernel launched directly: its whole-grid instance, or the one that checks
// each block.
template <int R, bool kWholeGrid>
Variant lib_one_run_variant(const char* name) {
  return {name, [](const float* in, float* out, long cols, cudaStream_t s) {
            const auto* i = reinterpret_cast<const unsigned char*>(in);
            xpose::gpu::skinny_rows_regs_one_run_kernel<4, R, false, false, kWholeGrid><<<cols / 4 / 256, 256, 0, s>>>(
                i, i + R * cols * 4, reinterpret_cast<unsigned char*>(out), cols * 4, 0, 0, cols, cols / 4,
                xpose::gpu::one_run_whole_blocks(cols, 256, 4));
          }};
}

template <int R>
std::vector<Variant> variants() {
  return {
      probe_variant<R, 4, 256, kStaged>("staged"),  // the library's kernel, as written here
      probe_variant<R, 4, 128, kStaged>("staged"),
      probe_variant<R, 4, 64, kStaged>("staged"),
      probe_variant<R, 2, 256, kStaged>("staged"),
      probe_variant<R, 1, 128, kStaged>("staged"),
      probe_variant<R, 4, 128, kDirect>("direct"),
      probe_variant<R, 2, 128, kDirect>("direct"),
      probe_variant<R, 4, 128, kScalar>("scalar"),
      prologue_variant<R, 0, false, false>(),
      prologue_variant<R, 1, false, false>(),
      prologue_variant<R, 2, false, false>(),
      prologue_variant<R, 0, true, false>(),
      prologue_variant<R, 0, false, true>(),
      prologue_variant<R, 1, true, true>(),
      prologue_variant<R, 2, true, true>(),
      lib_one_run_variant<R, true>("lib_whole_grid"),
      lib_one_run_variant<R, false>("lib_one_run"),
      {"lib_loop_u2", [](const float* in, float* out, long cols, cudaStream_t s) {
         const auto* i = reinterpret_cast<const unsigned char*>(in);
         xpose::gpu::MatrixGeometry g{};
         g.rows = R, g.cols = cols, g.ld_in = cols, g.ld_out = R, g.batch = 1, g.bs_in = R * cols, g.bs_out = R * cols;
         xpose::gpu::skinny_rows_regs_kernel<4, R, 2><<<cols / 4 / 512, 256, 0, s>>>(
             i, i + R * cols * 4, reinterpret_cast<unsigned char*>(out), g, cols / 4);
       }},
      {"copy_v4_t256", [](const float* in, float* out, long cols,
                          cudaStream_t s) { copy_probe<R, 4, 256><<<cols / 4 / 256, 256, 0, s>>>(in, out, cols); }},
  };
}

template <int R>
void run_case(long cols, int rounds, cudaStream_t s) {
  const std::size_t bytes = static_cast<std::size_t>(R) * cols * 4;
  const int pairs = pairs_past_l2(2 * bytes, 1 << 20);
  std::vector<CaseBuffers*> buf;
  for (int p = 0; p < pairs; ++p) buf.push_back(new CaseBuffers(bytes, bytes, 1234u + p));
  const int calls = std::max(pairs, 32);
  std::vector<Variant> vs = variants<R>();
  vs.insert(vs.begin(), {"xpose", [](const float* in, float* out, long c, cudaStream_t st) {
                           char msg[256];
                           if (xpose_transpose("f32", 1, R, c, 0, 0, 0, 0, in, out, st, "cuda", msg, sizeof msg) != 0) {
                             std::fprintf(stderr, "xpose: %s\n", msg);
                             std::exit(1);
                           }
                         }});
  vs.insert(vs.begin(), {"memcpy", [bytes](const float* in, float* out, long, cudaStream_t st) {
                           CK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, st));
                         }});
  const int nv = static_cast<int>(vs.size());
  std::vector<std::string> verdict(nv, "-");
  for (int id = 2; id < nv; ++id) {
    const auto call = [&](int v) {
      vs[v].launch(static_cast<const float*>(buf[0]->in), static_cast<float*>(buf[0]->out), cols, s);
    };
    if (vs[id].name.rfind("copy", 0) == 0) continue;  // not a transpose
    verdict[id] = verify_variant(call, id, buf[0]->in, buf[0]->out, bytes, 4, R, cols, cols, R, s);
  }
  const std::vector<float> med = rotated_median_times(
      [&](int id, int p) {
        vs[id].launch(static_cast<const float*>(buf[p]->in), static_cast<float*>(buf[p]->out), cols, s);
      },
      nv, pairs, calls, rounds, 2000000, s);
  char plan[256], msg[256];
  xpose_describe_plan("f32", 1, R, cols, 0, 0, 0, 0, 16, "cuda", plan, sizeof plan, msg, sizeof msg);
  std::printf("f32 %dx%ld (%d pairs, %d calls a run, %d rounds; xpose plan %s)\n", R, cols, pairs, calls, rounds, plan);
  for (int id = 0; id < nv; ++id)
    std::printf("  %-16s %8.3f us  memcpy/this %.3f  xpose/this %.3f  %s\n", vs[id].name.c_str(), med[id],
                med[0] / med[id], med[1] / med[id], verdict[id].c_str());
  std::fflush(stdout);
  for (auto* b : buf) delete b;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, %d SMs\n", p.name, p.multiProcessorCount);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  run_case<3>(1048576, rounds, s);
  run_case<3>(1048576 * 4, rounds, s);
  run_case<2>(1048576, rounds, s);
  run_case<4>(1048576, rounds, s);
  return 0;
}
