// Cache-blocked CPU transpose. Tiles of the matrix are cut into 16 x 16-byte blocks (K x K
// elements), each transposed in registers. With 4 bytes or more per element a block writes K <= 4
// output rows and goes straight to the output; 1- and 2-byte blocks write 16 or 8 rows at a time,
// more partial lines than a core keeps open, so a strip of K output rows (2K with AVX2, which
// transposes two blocks side by side) is gathered in an L1 buffer and copied out whole. Large outputs
// are written with streaming stores. Tile rows are split across threads (cpu/threads.hpp).
#include "cpu/blocked.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "core/env.hpp"
#include "cpu/register_transpose.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {
namespace {

// Outputs from this size on are streamed past the caches: past about half a 32 MiB L3, the lines a
// plain store first reads in cost more than a later reader gains (on the development machine,
// 4 MiB outputs ran faster with plain stores, 64 MiB ones with streaming stores).
constexpr std::int64_t kStreamFromBytes = std::int64_t{16} << 20;

// Row pitches in bytes of one tile's input and output.
struct Pitches {
  std::ptrdiff_t in, out;
};

// Element by element, for the edges that do not fill a block.
template <int E>
void transpose_elements(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols) {
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) std::memcpy(dst + c * p.out + r * E, src + r * p.in + c * E, E);
}

template <int E, bool kStream>
void transpose_tile_direct(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols) {
  constexpr int K = block_edge<E>();
  const int full_rows = rows / K * K, full_cols = cols / K * K;
  for (int c = 0; c < full_cols; c += K) {
    for (int r = 0; r < full_rows; r += K)
      transpose_block<E, kStream>(src + r * p.in + c * E, p.in, dst + c * p.out + r * E, p.out);
    transpose_elements<E>(src + full_rows * p.in + c * E, dst + c * p.out + full_rows * E, p, rows - full_rows, K);
  }
  transpose_elements<E>(src + full_cols * E, dst + full_cols * p.out, p, rows, cols - full_cols);
}

// The stripes of output rows staged in L1 (up to 2K rows of a tile's width) go out whole.
template <int E, bool kStream>
void copy_out_strip(unsigned char* dst, std::ptrdiff_t out_pitch, const unsigned char* strip, int count, int rows) {
  constexpr std::ptrdiff_t kStripPitch = std::ptrdiff_t{blocked_tile_edge(E)} * E;
  for (int i = 0; i < count; ++i) copy_row<kStream>(dst + i * out_pitch, strip + i * kStripPitch, rows * E);
}

template <int E, bool kStream>
void transpose_tile_staged(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols,
                           unsigned char* strip) {
  constexpr int K = block_edge<E>();
  constexpr std::ptrdiff_t kStripPitch = std::ptrdiff_t{blocked_tile_edge(E)} * E;
  const Pitches to_strip{p.in, kStripPitch};
  const int full_rows = rows / K * K;
  for (int c = 0; c < cols; c += K) {
    const int width = std::min(K, cols - c);
    if (width == K) {
      for (int r = 0; r < full_rows; r += K)
        transpose_block<E, false>(src + r * p.in + c * E, p.in, strip + r * E, kStripPitch);
      transpose_elements<E>(src + full_rows * p.in + c * E, strip + full_rows * E, to_strip, rows - full_rows, K);
    } else {
      transpose_elements<E>(src + c * E, strip, to_strip, rows, width);
    }
    copy_out_strip<E, kStream>(dst + c * p.out, p.out, strip, width, rows);
  }
}

#ifdef XPOSE_CPU_AVX2
// The same with pairs of blocks side by side (2K columns at a time); the last columns that do not
// fill a pair go through the 16-byte path above.
template <int E, bool kStream>
XPOSE_TARGET_AVX2 void transpose_tile_staged_avx2(const unsigned char* src, unsigned char* dst, Pitches p, int rows,
                                                  int cols, unsigned char* strip) {
  constexpr int K = block_edge<E>();
  constexpr std::ptrdiff_t kStripPitch = std::ptrdiff_t{blocked_tile_edge(E)} * E;
  const Pitches to_strip{p.in, kStripPitch};
  const int full_rows = rows / K * K, paired_cols = cols / (2 * K) * (2 * K);
  for (int c = 0; c < paired_cols; c += 2 * K) {
    for (int r = 0; r < full_rows; r += K)
      transpose_block_pair<E>(src + r * p.in + c * E, p.in, strip + r * E, kStripPitch);
    transpose_elements<E>(src + full_rows * p.in + c * E, strip + full_rows * E, to_strip, rows - full_rows, 2 * K);
    copy_out_strip<E, kStream>(dst + c * p.out, p.out, strip, 2 * K, rows);
  }
  transpose_tile_staged<E, kStream>(src + paired_cols * E, dst + paired_cols * p.out, p, rows, cols - paired_cols,
                                    strip);
}
#endif

// Transposes tile rows [first, last) of the (batch x tile rows) grid; kAvx2 only where the CPU has it.
template <int E, bool kStream, bool kAvx2>
void transpose_tile_rows(const TransposeDesc& d, const unsigned char* in, unsigned char* out, std::int64_t first,
                         std::int64_t last) {
  constexpr int T = blocked_tile_edge(E);
  alignas(64) unsigned char strip[2 * block_edge<E>() * T * E];
  const std::int64_t tiles_r = (d.rows + T - 1) / T;
  const Pitches p{static_cast<std::ptrdiff_t>(d.ld_in * E), static_cast<std::ptrdiff_t>(d.ld_out * E)};
  for (std::int64_t t = first; t < last; ++t) {
    const std::int64_t b = t / tiles_r;
    const std::int64_t r0 = (t % tiles_r) * T;
    const int rows = static_cast<int>(std::min<std::int64_t>(T, d.rows - r0));
    const unsigned char* src = in + (b * d.batch_stride_in + r0 * d.ld_in) * E;
    unsigned char* dst = out + (b * d.batch_stride_out + r0) * E;
    for (std::int64_t c0 = 0; c0 < d.cols; c0 += T) {
      const int cols = static_cast<int>(std::min<std::int64_t>(T, d.cols - c0));
#ifdef XPOSE_CPU_AVX2
      if constexpr (E <= 2 && kAvx2) {
        transpose_tile_staged_avx2<E, kStream>(src + c0 * E, dst + c0 * p.out, p, rows, cols, strip);
        continue;
      }
#endif
      if constexpr (E <= 2)
        transpose_tile_staged<E, kStream>(src + c0 * E, dst + c0 * p.out, p, rows, cols, strip);
      else
        transpose_tile_direct<E, kStream>(src + c0 * E, dst + c0 * p.out, p, rows, cols);
    }
  }
  if constexpr (kStream) fence_streaming_stores();
}

// Streaming stores need every output row of every tile 16-byte aligned; tile rows start at
// multiples of T elements, T * E a multiple of 16.
bool can_stream(const TransposeDesc& d, const void* out, int esize) {
  const std::int64_t bytes = d.batch * d.rows * d.cols * esize;
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0 && d.ld_out * esize % 16 == 0 &&
                       (d.batch == 1 || d.batch_stride_out * esize % 16 == 0);
  return bytes >= kStreamFromBytes && aligned;
}

// AVX2 pairs for 1- and 2-byte elements where the CPU has AVX2, unless XPOSE_CPU_AVX2=0 (tests
// and measurements of the 16-byte path).
bool use_avx2() {
#ifdef XPOSE_CPU_AVX2
  return cpu_has_avx2() && !core::env_starts_with("XPOSE_CPU_AVX2", '0');
#else
  return false;
#endif
}

template <int E>
void run(const TransposeDesc& d, const void* in_bytes, void* out_bytes) {
  const auto* in = static_cast<const unsigned char*>(in_bytes);
  auto* out = static_cast<unsigned char*>(out_bytes);
  constexpr int T = blocked_tile_edge(E);
  const bool stream = can_stream(d, out, E), avx2 = use_avx2();
  const auto worker = stream ? (avx2 ? transpose_tile_rows<E, true, true> : transpose_tile_rows<E, true, false>)
                             : (avx2 ? transpose_tile_rows<E, false, true> : transpose_tile_rows<E, false, false>);
  const std::int64_t work = d.batch * ((d.rows + T - 1) / T);
  const std::int64_t nthreads = threads_for(d.batch * d.rows * d.cols * std::int64_t{E}, work);
  std::vector<std::thread> threads;
  for (std::int64_t i = 1; i < nthreads; ++i)
    threads.emplace_back(worker, std::cref(d), in, out, work * i / nthreads, work * (i + 1) / nthreads);
  worker(d, in, out, 0, work / nthreads);
  for (auto& t : threads) t.join();
}

}  // namespace

void blocked_transpose(const TransposeDesc& d, const void* in, void* out) {
  switch (dtype_size(d.dtype)) {
    case 1: run<1>(d, in, out); break;
    case 2: run<2>(d, in, out); break;
    case 4: run<4>(d, in, out); break;
    case 8: run<8>(d, in, out); break;
    case 16: run<16>(d, in, out); break;
    default: break;  // validate_desc refuses other sizes
  }
}

}  // namespace xpose::cpu
