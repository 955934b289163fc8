// 16-byte moves for the CPU backend: plain stores, or streaming stores that bypass the caches.
//
// Streaming (non-temporal) stores write whole lines without first reading them in, which saves a
// third of the memory traffic on outputs larger than the caches; they need 16-byte aligned targets
// and a fence before the data is handed to another thread. Without SSE2 both kinds are plain.
#pragma once

#include <cstddef>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define XPOSE_CPU_SSE2 1
#endif

namespace xpose::cpu {

// Stores the 16 bytes at src to dst; kStream needs dst 16-byte aligned.
template <bool kStream>
inline void move16(unsigned char* dst, const unsigned char* src) {
#ifdef XPOSE_CPU_SSE2
  if constexpr (kStream) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
    return;
  }
#endif
  std::memcpy(dst, src, 16);
}

// Copies n bytes in 16-byte pieces and a plain tail; kStream needs dst 16-byte aligned.
template <bool kStream>
inline void copy_row(unsigned char* dst, const unsigned char* src, std::ptrdiff_t n) {
  std::ptrdiff_t i = 0;
  for (; i + 16 <= n; i += 16) move16<kStream>(dst + i, src + i);
  if (i < n) std::memcpy(dst + i, src + i, static_cast<std::size_t>(n - i));
}

// Orders this thread's streaming stores before whatever it does next (such as finishing).
inline void fence_streaming_stores() {
#ifdef XPOSE_CPU_SSE2
  _mm_sfence();
#endif
}

}  // namespace xpose::cpu
