// Cache-blocked CPU transpose. Tiles of the matrix are cut into 16 x 16-byte blocks (K x K
// elements), each transposed in registers. A block writes 16 bytes to each of K output rows; rather
// than leave K partial lines open per block, a strip of K output rows (2K with AVX2, which transposes
// two blocks side by side) is gathered in an L1 buffer and copied out whole, each row's piece of the
// tile in one run. (Blocks stored straight to the output ran up to 2x slower on a Xeon for 4- to
// 16-byte elements; on the development EPYC 20% faster for c128, 10% slower for f32.) Tiles start on
// the output's 64-byte lines where they can, large outputs are written with streaming stores, and
// tile rows are split across the pool's threads (cpu/threads.hpp, cpu/thread_pool.hpp).
#include "cpu/blocked.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/env.hpp"
#include "cpu/register_transpose.hpp"
#include "cpu/thread_pool.hpp"
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

// Bytes from one staged output row to the next: a tile's width of output row.
template <int E>
constexpr std::ptrdiff_t kStripPitch = std::ptrdiff_t{blocked_tile_edge(E)} * E;

// Element by element, for the edges that do not fill a block.
template <int E>
void transpose_elements(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols) {
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) std::memcpy(dst + c * p.out + r * E, src + r * p.in + c * E, E);
}

// The stripes of output rows staged in L1 (up to 2K rows of a tile's width) go out whole.
template <int E, bool kStream>
void copy_out_strip(unsigned char* dst, std::ptrdiff_t out_pitch, const unsigned char* strip, int count, int rows) {
  for (int i = 0; i < count; ++i) copy_row<kStream>(dst + i * out_pitch, strip + i * kStripPitch<E>, rows * E);
}

template <int E, bool kStream>
void transpose_tile_staged(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols,
                           unsigned char* strip) {
  constexpr int K = block_edge<E>();
  const Pitches to_strip{p.in, kStripPitch<E>};
  const int full_rows = rows / K * K;
  for (int c = 0; c < cols; c += K) {
    const int width = std::min(K, cols - c);
    if (width == K) {
      for (int r = 0; r < full_rows; r += K)
        transpose_block<E>(src + r * p.in + c * E, p.in, strip + r * E, kStripPitch<E>);
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
  const Pitches to_strip{p.in, kStripPitch<E>};
  const int full_rows = rows / K * K, paired_cols = cols / (2 * K) * (2 * K);
  for (int c = 0; c < paired_cols; c += 2 * K) {
    for (int r = 0; r < full_rows; r += K)
      transpose_block_pair<E>(src + r * p.in + c * E, p.in, strip + r * E, kStripPitch<E>);
    transpose_elements<E>(src + full_rows * p.in + c * E, strip + full_rows * E, to_strip, rows - full_rows, 2 * K);
    copy_out_strip<E, kStream>(dst + c * p.out, p.out, strip, 2 * K, rows);
  }
  transpose_tile_staged<E, kStream>(src + paired_cols * E, dst + paired_cols * p.out, p, rows, cols - paired_cols,
                                    strip);
}
#endif

// One tile, with AVX2 pairs (kAvx2, only where the CPU has it) for elements under 16 bytes. 16-byte
// elements with plain stores go straight to the output, one element at a time down each output row's
// piece: no partial lines to stage against, and in the caches the strip's extra copy cost them 1.3-1.8x
// (c128 256^2 and 512^2 on the development VM).
template <int E, bool kStream, bool kAvx2>
void transpose_tile(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols,
                    unsigned char* strip) {
  if constexpr (E == 16 && !kStream) {
    transpose_elements<E>(src, dst, p, rows, cols);
    return;
  }
#ifdef XPOSE_CPU_AVX2
  if constexpr (E < 16 && kAvx2) {
    transpose_tile_staged_avx2<E, kStream>(src, dst, p, rows, cols, strip);
    return;
  }
#endif
  transpose_tile_staged<E, kStream>(src, dst, p, rows, cols, strip);
}

// The tile rows of a matrix: a first one of `lead` rows (none where lead is 0) that brings every
// later tile's output row pieces onto 64-byte lines, then rows of `edge`. Pieces that start inside a
// line leave it to be written in parts, by two tiles and maybe two threads, and streaming stores
// write such parts as separate partial transfers (on a Xeon, f32 4096^2 from a malloc'ed buffer,
// 16 bytes into its first line, took 3-4x the time of a line-aligned one).
struct TileRows {
  std::int64_t lead, edge, count;
  TileRows(std::int64_t rows, std::int64_t edge_rows, std::int64_t lead_rows)
      : lead(std::min(lead_rows, rows)), edge(edge_rows), count((lead > 0) + (rows - lead + edge - 1) / edge) {}
  std::int64_t first_row(std::int64_t i) const { return lead == 0 ? i * edge : i == 0 ? 0 : lead + (i - 1) * edge; }
};

// Rows to put in the lead tile so that output row pieces start on 64-byte lines: 0 where they do
// already, -1 where no lead can (output rows or matrices that are not a multiple of 64 bytes apart,
// or a start that is not a whole number of elements from the next line).
std::int64_t line_lead(const TransposeDesc& d, const void* out, int esize) {
  const bool one_phase = d.ld_out * esize % 64 == 0 && (d.batch == 1 || d.batch_stride_out * esize % 64 == 0);
  const auto gap = static_cast<std::int64_t>((64 - reinterpret_cast<std::uintptr_t>(out) % 64) % 64);
  return one_phase && gap % esize == 0 ? gap / esize : -1;
}

// Transposes tiles [first, last) of the (batch x tile rows) grid; kStream where the output is large
// and line-aligned past the lead tile, which itself takes plain stores.
template <int E, bool kStream, bool kAvx2>
void transpose_tile_rows(const TransposeDesc& d, TileRows tiles, const unsigned char* in, unsigned char* out,
                         std::int64_t first, std::int64_t last) {
  constexpr int T = blocked_tile_edge(E);
  alignas(64) unsigned char strip[2 * block_edge<E>() * T * E];
  const Pitches p{static_cast<std::ptrdiff_t>(d.ld_in * E), static_cast<std::ptrdiff_t>(d.ld_out * E)};
  for (std::int64_t t = first; t < last; ++t) {
    const std::int64_t b = t / tiles.count, i = t % tiles.count;
    const std::int64_t r0 = tiles.first_row(i);
    const int rows = static_cast<int>(std::min(tiles.first_row(i + 1), d.rows) - r0);
    const bool stream = kStream && !(tiles.lead > 0 && i == 0);
    const unsigned char* src = in + (b * d.batch_stride_in + r0 * d.ld_in) * E;
    unsigned char* dst = out + (b * d.batch_stride_out + r0) * E;
    for (std::int64_t c0 = 0; c0 < d.cols; c0 += T) {
      const int cols = static_cast<int>(std::min<std::int64_t>(T, d.cols - c0));
      if (stream)
        transpose_tile<E, true, kAvx2>(src + c0 * E, dst + c0 * p.out, p, rows, cols, strip);
      else
        transpose_tile<E, false, kAvx2>(src + c0 * E, dst + c0 * p.out, p, rows, cols, strip);
    }
  }
  if constexpr (kStream) fence_streaming_stores();
}

// AVX2 pairs for elements under 16 bytes where the CPU has AVX2, unless XPOSE_CPU_AVX2=0 (tests
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
  const std::int64_t lead = line_lead(d, out, E), bytes = d.batch * d.rows * d.cols * std::int64_t{E};
  const TileRows tiles(d.rows, blocked_tile_edge(E), std::max<std::int64_t>(lead, 0));
  const bool stream = bytes >= kStreamFromBytes && lead >= 0, avx2 = use_avx2();
  const auto worker = stream ? (avx2 ? transpose_tile_rows<E, true, true> : transpose_tile_rows<E, true, false>)
                             : (avx2 ? transpose_tile_rows<E, false, true> : transpose_tile_rows<E, false, false>);
  const std::int64_t work = d.batch * tiles.count;
  const std::int64_t pieces = threads_for(bytes, work);
  parallel_for(pieces, [&](std::int64_t i) { worker(d, tiles, in, out, work * i / pieces, work * (i + 1) / pieces); });
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
