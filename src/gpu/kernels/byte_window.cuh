// Realigning bytes in registers: W bytes at any offset out of 2 W aligned ones (realign_piece; by
// funnel shifts alone where the word offset is known at compile time, realign_piece_at, reached
// through one uniform branch, with_word_offset), 16 out of two neighbouring 16-byte chunks
// (byte_window, byte_window_at), and chunks passed between neighbouring lanes: how register kernels
// move data whose pointer is off the 16-byte grid without a trip through shared memory.
#pragma once

#include <cstdint>
#include <type_traits>  // std::integral_constant

#include "gpu/runtime.hpp"

namespace xpose::gpu {

// Bytes [shift, shift + W) of the 2 * W bytes in w (a row's W bytes that start `shift` bytes into an
// aligned piece), as W / 4 words. The word offset shift / 4 picks words by selects, a stage per bit;
// a register array indexed at run time would live in local memory.
template <int W>
__device__ __forceinline__ void realign_piece(const std::uint32_t (&w)[2 * W / 4], int shift,
                                              std::uint32_t (&x)[W / 4]) {
  constexpr int N = W / 4;
  std::uint32_t t[N + 1];  // words shift / 4 .. shift / 4 + N
  if constexpr (W == 16) {
    std::uint32_t a[6];
#pragma unroll
    for (int j = 0; j < 6; ++j) a[j] = (shift & 8) ? w[j + 2] : w[j];
#pragma unroll
    for (int j = 0; j < 5; ++j) t[j] = (shift & 4) ? a[j + 1] : a[j];
  } else if constexpr (W == 8) {
#pragma unroll
    for (int j = 0; j < 3; ++j) t[j] = (shift & 4) ? w[j + 1] : w[j];
  } else {
    t[0] = w[0], t[1] = w[1];
  }
  const unsigned bits = 8 * (shift & 3);
#pragma unroll
  for (int i = 0; i < N; ++i) x[i] = __funnelshift_r(t[i], t[i + 1], bits);
}

// realign_piece where the word offset shift / 4 is a compile-time kWords: the words are picked by
// index, so only the funnel shifts remain (the selects were 11 of 15 instructions per 16 bytes).
template <int W, int kWords>
__device__ __forceinline__ void realign_piece_at(const std::uint32_t (&w)[2 * W / 4], int shift,
                                                 std::uint32_t (&x)[W / 4]) {
  static_assert(kWords >= 0 && kWords < W / 4, "a word offset inside the piece");
  const unsigned bits = 8 * (shift & 3);
#pragma unroll
  for (int i = 0; i < W / 4; ++i) x[i] = __funnelshift_r(w[kWords + i], w[kWords + i + 1], bits);
}

// f(std::integral_constant<int, shift / 4>{}) for 0 <= shift < 16 (callers keep it there: a shift of 16
// would need word 4, past the pieces realign_piece_at reads): where a shift is the same for every
// lane of a warp (a pointer's offset from the 16-byte grid), one uniform branch here lets the code
// inside realign with realign_piece_at.
template <typename F>
__device__ __forceinline__ void with_word_offset(int shift, F&& f) {
  switch (shift >> 2) {
    case 0: f(std::integral_constant<int, 0>{}); break;
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    default: f(std::integral_constant<int, 3>{}); break;
  }
}

// Bytes [s, s + 16) of the 32 bytes hi:lo (lo first), 0 <= s < 16.
__device__ __forceinline__ uint4 byte_window(const uint4& lo, const uint4& hi, int s) {
  const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  std::uint32_t x[4];
  realign_piece<16>(w, s, x);
  return make_uint4(x[0], x[1], x[2], x[3]);
}

// byte_window with the word offset s / 4 a compile-time kWords (with_word_offset).
template <int kWords>
__device__ __forceinline__ uint4 byte_window_at(const uint4& lo, const uint4& hi, int s) {
  const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  std::uint32_t x[4];
  realign_piece_at<16, kWords>(w, s, x);
  return make_uint4(x[0], x[1], x[2], x[3]);
}

// A chunk from the lane below / above within the group of 32 lanes (the lane's own at the group's end).
__device__ __forceinline__ uint4 shfl_chunk_up(const uint4& v) {
  return make_uint4(rt::shfl_up_in_32(v.x, 1), rt::shfl_up_in_32(v.y, 1), rt::shfl_up_in_32(v.z, 1),
                    rt::shfl_up_in_32(v.w, 1));
}
__device__ __forceinline__ uint4 shfl_chunk_down(const uint4& v) {
  return make_uint4(rt::shfl_down_in_32(v.x, 1), rt::shfl_down_in_32(v.y, 1), rt::shfl_down_in_32(v.z, 1),
                    rt::shfl_down_in_32(v.w, 1));
}

}  // namespace xpose::gpu
