// The one place that names CUDA or HIP: a thin layer so kernels and launchers build with nvcc and hipcc.
#pragma once

#include <cstdint>
#include <string>

#include "xpose/status.hpp"

#if defined(XPOSE_HIP)
#include <hip/hip_runtime.h>
#else
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#endif

namespace xpose::rt {

#if defined(XPOSE_HIP)
using Error = hipError_t;
using Stream = hipStream_t;
using Event = hipEvent_t;
using DeviceProp = hipDeviceProp_t;
constexpr Error kSuccess = hipSuccess;
constexpr const char* kVendor = "AMD";
inline const char* error_string(Error e) { return hipGetErrorString(e); }
inline Error get_device_count(int* n) { return hipGetDeviceCount(n); }
inline Error get_device(int* d) { return hipGetDevice(d); }
inline Error get_device_properties(DeviceProp* p, int d) { return hipGetDeviceProperties(p, d); }
inline Error runtime_version(int* v) { return hipRuntimeGetVersion(v); }
inline Error driver_version(int* v) { return hipDriverGetVersion(v); }
inline Error malloc_device(void** p, size_t n) { return hipMalloc(p, n); }
inline Error free_device(void* p) { return hipFree(p); }
inline Error copy_h2d(void* d, const void* s, size_t n) { return hipMemcpy(d, s, n, hipMemcpyHostToDevice); }
inline Error copy_d2h(void* d, const void* s, size_t n) { return hipMemcpy(d, s, n, hipMemcpyDeviceToHost); }
inline Error copy_d2d_async(void* d, const void* s, size_t n, Stream st) {
  return hipMemcpyAsync(d, s, n, hipMemcpyDeviceToDevice, st);
}
inline Error memset_async(void* d, int v, size_t n, Stream st) { return hipMemsetAsync(d, v, n, st); }
inline Error device_synchronize() { return hipDeviceSynchronize(); }
inline Error stream_synchronize(Stream st) { return hipStreamSynchronize(st); }
inline Error stream_create(Stream* st) { return hipStreamCreateWithFlags(st, hipStreamNonBlocking); }
inline Error stream_destroy(Stream st) { return hipStreamDestroy(st); }
inline Error peek_at_last_error() { return hipPeekAtLastError(); }
inline Error get_last_error() { return hipGetLastError(); }
inline Error event_create(Event* e) { return hipEventCreate(e); }
inline Error event_destroy(Event e) { return hipEventDestroy(e); }
inline Error event_record(Event e, Stream st) { return hipEventRecord(e, st); }
inline Error event_synchronize(Event e) { return hipEventSynchronize(e); }
inline Error event_elapsed_ms(float* ms, Event a, Event b) { return hipEventElapsedTime(ms, a, b); }
// The range a profiler started with profiling off collects (ROCm marks these deprecated, still works).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"  // once per .cu file otherwise
inline Error profiler_start() { return hipProfilerStart(); }
inline Error profiler_stop() { return hipProfilerStop(); }
#pragma clang diagnostic pop
// ROCm 6 renamed hipPointerAttribute_t::memoryType to `type`.
inline hipMemoryType memory_type(const hipPointerAttribute_t& a) {
#if HIP_VERSION_MAJOR >= 6
  return a.type;
#else
  return a.memoryType;
#endif
}
// True when `p` is device (or managed) memory the GPU can read.
inline bool is_device_accessible(const void* p) {
  hipPointerAttribute_t attr{};
  if (hipPointerGetAttributes(&attr, p) != hipSuccess) {
    (void)hipGetLastError();
    return false;
  }
  return memory_type(attr) == hipMemoryTypeDevice || attr.isManaged;
}
// True when `p` is device memory the host cannot dereference.
inline bool is_device_only(const void* p) {
  hipPointerAttribute_t attr{};
  if (hipPointerGetAttributes(&attr, p) != hipSuccess) {
    (void)hipGetLastError();
    return false;
  }
  return memory_type(attr) == hipMemoryTypeDevice && !attr.isManaged;
}
// gcnArchName carries target features ("gfx90a:sramecc+:xnack-"); the arch is the part before them.
inline std::string arch_name(const DeviceProp& p) {
  const std::string full = p.gcnArchName;
  return full.substr(0, full.find(':'));
}
// A device attribute; 0 where the query fails.
inline int device_attribute(hipDeviceAttribute_t a, int d) {
  int v = 0;
  return hipDeviceGetAttribute(&v, a, d) == hipSuccess ? v : 0;
}
inline int memory_clock_khz(int d) { return device_attribute(hipDeviceAttributeMemoryClockRate, d); }
inline int multiprocessor_count(int d) { return device_attribute(hipDeviceAttributeMultiprocessorCount, d); }
// Shared memory (LDS), bytes: the most one block may take, what one SM (CU) holds and what the
// runtime keeps back per block. AMD has no opt-in past the plain limit.
inline int shared_per_block_optin(int d) { return device_attribute(hipDeviceAttributeMaxSharedMemoryPerBlock, d); }
inline int shared_per_multiprocessor(int d) {
  return device_attribute(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, d);
}
inline int shared_reserved_per_block(int) { return 0; }
#else
using Error = cudaError_t;
using Stream = cudaStream_t;
using Event = cudaEvent_t;
using DeviceProp = cudaDeviceProp;
constexpr Error kSuccess = cudaSuccess;
constexpr const char* kVendor = "NVIDIA";
inline const char* error_string(Error e) { return cudaGetErrorString(e); }
inline Error get_device_count(int* n) { return cudaGetDeviceCount(n); }
inline Error get_device(int* d) { return cudaGetDevice(d); }
inline Error get_device_properties(DeviceProp* p, int d) { return cudaGetDeviceProperties(p, d); }
inline Error runtime_version(int* v) { return cudaRuntimeGetVersion(v); }
inline Error driver_version(int* v) { return cudaDriverGetVersion(v); }
inline Error malloc_device(void** p, size_t n) { return cudaMalloc(p, n); }
inline Error free_device(void* p) { return cudaFree(p); }
inline Error copy_h2d(void* d, const void* s, size_t n) { return cudaMemcpy(d, s, n, cudaMemcpyHostToDevice); }
inline Error copy_d2h(void* d, const void* s, size_t n) { return cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost); }
inline Error copy_d2d_async(void* d, const void* s, size_t n, Stream st) {
  return cudaMemcpyAsync(d, s, n, cudaMemcpyDeviceToDevice, st);
}
inline Error memset_async(void* d, int v, size_t n, Stream st) { return cudaMemsetAsync(d, v, n, st); }
inline Error device_synchronize() { return cudaDeviceSynchronize(); }
inline Error stream_synchronize(Stream st) { return cudaStreamSynchronize(st); }
inline Error stream_create(Stream* st) { return cudaStreamCreateWithFlags(st, cudaStreamNonBlocking); }
inline Error stream_destroy(Stream st) { return cudaStreamDestroy(st); }
inline Error peek_at_last_error() { return cudaPeekAtLastError(); }
inline Error get_last_error() { return cudaGetLastError(); }
inline Error event_create(Event* e) { return cudaEventCreate(e); }
inline Error event_destroy(Event e) { return cudaEventDestroy(e); }
inline Error event_record(Event e, Stream st) { return cudaEventRecord(e, st); }
inline Error event_synchronize(Event e) { return cudaEventSynchronize(e); }
inline Error event_elapsed_ms(float* ms, Event a, Event b) { return cudaEventElapsedTime(ms, a, b); }
// The range a profiler started with profiling off collects (ncu --profile-from-start off).
inline Error profiler_start() { return cudaProfilerStart(); }
inline Error profiler_stop() { return cudaProfilerStop(); }
inline bool is_device_accessible(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
}
inline bool is_device_only(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeDevice;
}
inline std::string arch_name(const DeviceProp& p) {
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor);
}
// A device attribute; 0 where the query fails.
inline int device_attribute(cudaDeviceAttr a, int d) {
  int v = 0;
  return cudaDeviceGetAttribute(&v, a, d) == cudaSuccess ? v : 0;
}
inline int memory_clock_khz(int d) { return device_attribute(cudaDevAttrMemoryClockRate, d); }
inline int multiprocessor_count(int d) { return device_attribute(cudaDevAttrMultiProcessorCount, d); }
// Shared memory, bytes: the most one block may take (opting in), what one SM holds and what the
// runtime keeps back per block.
inline int shared_per_block_optin(int d) { return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, d); }
inline int shared_per_multiprocessor(int d) { return device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, d); }
inline int shared_reserved_per_block(int d) { return device_attribute(cudaDevAttrReservedSharedMemoryPerBlock, d); }
#endif

// Blocks of `kernel` resident per SM (CU) at `threads` per block; 0 when the query fails.
template <typename Kernel>
int resident_blocks_per_sm(Kernel kernel, int threads) {
  int n = 0;
#if defined(XPOSE_HIP)
  const Error e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, 0);
#else
  const Error e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, 0);
#endif
  return e == kSuccess ? n : 0;
}

// Lets `kernel` launch with up to `bytes` of dynamic shared memory on the current device (past the
// 48 KiB that NVIDIA allows without asking; AMD's work-groups take up to 64 KiB either way).
constexpr int kSharedWithoutOptIn = 48 * 1024;
template <typename Kernel>
Error allow_dynamic_shared(Kernel kernel, int bytes) {
#if defined(XPOSE_HIP)
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
#else
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
#endif
}

// Threads that execute in lockstep: 32 on NVIDIA, 64 on AMD gfx9 (CDNA) wavefronts. Chosen per
// build, not per device pass, so launchers (host code) and kernels agree; the HIP build therefore
// accepts only gfx9 targets (src/hip.cmake), since HIP on RDNA runs 32-lane wavefronts.
#if defined(XPOSE_HIP)
constexpr int kWarpSize = 64;
#else
constexpr int kWarpSize = 32;
#endif
// Shared-memory (LDS) banks, each 4 bytes wide: 32 on NVIDIA and on AMD gfx9 (CDNA) alike.
// Tile edges and padding that avoid bank conflicts derive from this.
constexpr int kSmemBanks = 32;

// Device side, for kernels: a vote and a wait over the threads of one warp (wavefront). On AMD
// both cover the whole 64-lane wavefront, which is stricter than a 32-thread group and still correct.
#if defined(__CUDACC__) || defined(__HIPCC__)
__device__ __forceinline__ bool warp_all(bool p) {
#if defined(XPOSE_HIP)
  return __all(p);
#else
  return __all_sync(0xffffffffu, p);
#endif
}
// `v` from the lane `delta` below within the caller's aligned group of 32 lanes (its own value where
// there is none): kernels that map work onto 32-lane groups shuffle the same way on 64-lane wavefronts.
__device__ __forceinline__ std::uint32_t shfl_up_in_32(std::uint32_t v, unsigned delta) {
#if defined(XPOSE_HIP)
  return __shfl_up(v, delta, 32);
#else
  return __shfl_up_sync(0xffffffffu, v, delta, 32);
#endif
}
// `v` from the lane `delta` above within the same group of 32 lanes (its own value where there is none).
__device__ __forceinline__ std::uint32_t shfl_down_in_32(std::uint32_t v, unsigned delta) {
#if defined(XPOSE_HIP)
  return __shfl_down(v, delta, 32);
#else
  return __shfl_down_sync(0xffffffffu, v, delta, 32);
#endif
}
__device__ __forceinline__ void warp_sync() {
#if defined(XPOSE_HIP)
  __builtin_amdgcn_wave_barrier();
#else
  __syncwarp();
#endif
}
// 16 bytes, both addresses 16-byte aligned, from global to shared memory. On NVIDIA sm_80 and later
// as cp.async, which holds no register: a thread's copies are all in flight at once whatever
// registers ptxas settles on (with loads into registers it once started the fourth only after
// storing the first, and a batch of u8 64x64 matrices fell from 0.90 to 0.78 of memcpy on an H200).
// Elsewhere a load and a store. wait_copies_to_shared(): the calling thread's copies have landed; a
// barrier after it shows them to the block.
__device__ __forceinline__ void copy16_to_shared(void* smem, const void* gmem) {
#if !defined(XPOSE_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
#else
  *static_cast<uint4*>(smem) = *static_cast<const uint4*>(gmem);
#endif
}
__device__ __forceinline__ void wait_copies_to_shared() {
#if !defined(XPOSE_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}
// Whether this compilation pass has ldmatrix: NVIDIA device code for sm_75 or later (the host pass
// counts as yes: it only sizes launches, which do not depend on it).
#if defined(XPOSE_HIP) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750)
#define XPOSE_HAS_LDMATRIX 0
#else
#define XPOSE_HAS_LDMATRIX 1
#endif
constexpr bool kHasLdmatrix = XPOSE_HAS_LDMATRIX;
// Four 8x8 matrices of 2-byte elements from shared memory, transposed (ldmatrix.x4.trans): lane l
// receives, from matrix m, column l / 4 of rows 2 (l % 4) and 2 (l % 4) + 1 (in the low and high half
// of w[m]); lanes 8 m .. 8 m + 7 give the 16-byte-aligned addresses of matrix m's 8 rows. Called only
// where kHasLdmatrix holds.
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&w)[4], const void* row) {
#if XPOSE_HAS_LDMATRIX
  const auto a = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
               : "r"(a)
               : "memory");
#else
  (void)row;
  w[0] = w[1] = w[2] = w[3] = 0;
#endif
}
#endif

inline Status to_status(Error e, const char* what) {
  if (e == kSuccess) return Status::ok_status();
  return Status(StatusCode::device_error, std::string(what) + " failed: " + error_string(e));
}

}  // namespace xpose::rt

// Evaluates a runtime call and returns a device_error Status naming the call when it fails.
#define XPOSE_GPU_TRY(expr)                                                  \
  do {                                                                       \
    ::xpose::rt::Error xpose_err_ = (expr);                                  \
    if (xpose_err_ != ::xpose::rt::kSuccess) return ::xpose::rt::to_status(xpose_err_, #expr); \
  } while (0)
