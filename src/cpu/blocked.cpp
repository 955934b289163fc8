// Cache-blocked CPU transpose. Tiles of the matrix are cut into 16 x 16-byte blocks (K x K
// elements), each transposed in registers. A block writes 16 bytes to each of K output rows; rather
// than leave K partial lines open per block, a strip of K output rows (with AVX2, which transposes
// two blocks side by side, 2K, or 4K for 1-byte elements) is gathered in an L1 buffer and copied out
// whole, each row's piece of the tile in one run: large outputs go out so with streaming stores
// (at 64 MiB, blocks stored straight to the output ran up to 2x slower on a Xeon). With plain stores,
// 16-byte elements and small matrices of 1- and 2-byte ones go straight to the output (TileStores).
// Tiles start on the output's 64-byte lines and on the input's where they can, and runs of tiles are
// split across the pool's threads (cpu/threads.hpp, cpu/thread_pool.hpp). Matrices with a short side
// go to cpu/short_side.hpp first, which takes the ones it moves faster.
#include "cpu/blocked.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/env.hpp"
#include "cpu/register_transpose.hpp"
#include "cpu/short_side.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {
namespace {

// Outputs from this size on are streamed past the caches: past about half a 32 MiB L3, the lines a
// plain store first reads in cost more than a later reader gains (on the development machine,
// 4 MiB outputs ran faster with plain stores, 64 MiB ones with streaming stores).
constexpr std::int64_t kStreamFromBytes = std::int64_t{16} << 20;

// How a tile's blocks reach the output. Streamed outputs go through strips (whole runs per output
// row, which streaming stores need). With plain stores, 16-byte elements, and 1- and 2-byte ones in
// matrices under kDirectSmallBytes, are stored straight into the output, the rest through strips.
// Measured, direct against staged: u8 256 KiB 36 -> 21 us and bf16 242 KiB 28 -> 16 us on the
// 16-core Xeon (malloc-like buffers, median of three processes), 1.3-1.8x on the development VM;
// for 4- and 8-byte elements, and over 1 MiB, the Xeon's runs disagreed (f64 2 MiB 82 -> 94 us in
// one, 84 -> 74 in another), so those keep strips
// (bench/results/xeon16_2026-11-29h_cpu_direct_stores.txt).
enum class TileStores { direct, staged, streamed };
constexpr std::int64_t kDirectSmallBytes = std::int64_t{1} << 20;

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

// The stripes of output rows staged in L1 (up to 4K rows of a tile's width) go out whole.
template <int E, bool kStream>
void copy_out_strip(unsigned char* dst, std::ptrdiff_t out_pitch, const unsigned char* strip, int count, int rows) {
  for (int i = 0; i < count; ++i) copy_row<kStream>(dst + i * out_pitch, strip + i * kStripPitch<E>, rows * E);
}

// Blocks stored straight into the output rows, no strip.
template <int E>
void transpose_tile_direct(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols) {
  constexpr int K = block_edge<E>();
  const int full_rows = rows / K * K, full_cols = cols / K * K;
  for (int c = 0; c < full_cols; c += K) {
    for (int r = 0; r < full_rows; r += K)
      transpose_block<E>(src + r * p.in + c * E, p.in, dst + c * p.out + r * E, p.out);
    transpose_elements<E>(src + full_rows * p.in + c * E, dst + c * p.out + full_rows * E, p, rows - full_rows, K);
  }
  transpose_elements<E>(src + full_cols * E, dst + full_cols * p.out, p, rows, cols - full_cols);
}

// Pairs of blocks per block row of a strip: two for 1-byte elements (64 bytes of every input row, a
// whole line where the tile columns start on the input's lines), one otherwise. Taking both 32-byte
// halves of a row before moving down reads each input line in one pass instead of two passes a
// tile's height (256 rows) apart. Measured on a 16-core Xeon (median of four processes, 15 calls
// each), u8 8192^2 1839 -> 1517 us, 16384^2 14391 -> 12852 us, 4096^2 alike (466 / 449); bf16 with
// two pairs was faster at 4096^2 and 16384^2 but slower at 8192^2 (4656 -> 5650 us) and on the
// development EPYC, so it keeps one (bench/results/xeon16_2026-11-29b_cpu_line_strips.txt).
template <int E>
constexpr int kPairsPerStrip = E == 1 ? 2 : 1;

#ifdef XPOSE_CPU_AVX2
// Asks the L2 for the line after the one at `at` in each of `rows` rows, `pitch` bytes apart: the
// line the strip after this one reads. A strip reads one line (or half of one) of each of its 256
// or 128 rows, and rows longer than a page each lie on pages of their own, across which the
// hardware prefetchers do not follow; so every line was a miss to L3 or DRAM, waited for a few
// at a time. On the 16-core Xeon (median of three processes) this took u8 4096^2 669 -> 607 us,
// 8192^2 1818 -> 1520, 16384^2 9.8 -> 6.9 ms, bf16 4096^2 918 -> 828, 8192^2 4018 -> 3197; matrices
// that fit in the L2 level; hint T0 (into L1) gained less, and f32 / f64 nothing
// (bench/results/xeon16_2026-11-29p_cpu_prefetch.txt). The address is formed as an integer: past
// the last row's end it may lie outside the buffer, which a prefetch never faults on.
XPOSE_CPU_INLINE void prefetch_next_lines(const unsigned char* at, std::ptrdiff_t pitch, int rows) {
  for (int i = 0; i < rows; ++i)
    _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(at + i * pitch) + 64), _MM_HINT_T2);
}

// Groups of kPairs pairs of blocks side by side (2K columns a pair), stored straight at dst's pitch,
// each block row taking its group's pairs in turn; the columns left over go through single pairs,
// then the 16-byte path.
template <int E, int kPairs>
XPOSE_TARGET_AVX2 void transpose_tile_direct_avx2(const unsigned char* src, unsigned char* dst, Pitches p, int rows,
                                                  int cols) {
  constexpr int K = block_edge<E>(), kWidth = 2 * K * kPairs;
  const int full_rows = rows / K * K, group_cols = cols / kWidth * kWidth;
  for (int c = 0; c < group_cols; c += kWidth) {
    for (int r = 0; r < full_rows; r += K) {
      if constexpr (E <= 2) prefetch_next_lines(src + r * p.in + c * E, p.in, K);
      for (int h = c; h < c + kWidth; h += 2 * K)
        transpose_block_pair<E>(src + r * p.in + h * E, p.in, dst + h * p.out + r * E, p.out);
    }
    transpose_elements<E>(src + full_rows * p.in + c * E, dst + c * p.out + full_rows * E, p, rows - full_rows,
                          kWidth);
  }
  if constexpr (kPairs > 1)
    transpose_tile_direct_avx2<E, 1>(src + group_cols * E, dst + group_cols * p.out, p, rows, cols - group_cols);
  else
    transpose_tile_direct<E>(src + group_cols * E, dst + group_cols * p.out, p, rows, cols - group_cols);
}
#endif

// The blocks of a tile straight to dst at its pitch: AVX2 groups of kPairs pairs (kAvx2, only where
// the CPU has it) for elements under 16 bytes, else 16-byte blocks.
template <int E, bool kAvx2, int kPairs = 1>
void transpose_tile_blocks(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols) {
#ifdef XPOSE_CPU_AVX2
  if constexpr (E < 16 && kAvx2) {
    transpose_tile_direct_avx2<E, kPairs>(src, dst, p, rows, cols);
    return;
  }
#endif
  transpose_tile_direct<E>(src, dst, p, rows, cols);
}

// Columns per strip: the input columns one strip of output rows holds.
template <int E, bool kAvx2>
constexpr int strip_columns() {
#ifdef XPOSE_CPU_AVX2
  if (E < 16 && kAvx2) return 2 * block_edge<E>() * kPairsPerStrip<E>;
#endif
  return block_edge<E>();
}

// The tile a strip of columns at a time: its blocks into the strip, then the strip out whole.
template <int E, bool kStream, bool kAvx2>
void transpose_tile_staged(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols,
                           unsigned char* strip) {
  constexpr int kWidth = strip_columns<E, kAvx2>();
  const Pitches to_strip{p.in, kStripPitch<E>};
  for (int c = 0; c < cols; c += kWidth) {
    const int width = std::min(kWidth, cols - c);
    transpose_tile_blocks<E, kAvx2, kPairsPerStrip<E>>(src + c * E, strip, to_strip, rows, width);
    copy_out_strip<E, kStream>(dst + c * p.out, p.out, strip, width, rows);
  }
}

// One tile, stored as kStores says. 16-byte elements go straight out one at a time unless streamed.
template <int E, TileStores kStores, bool kAvx2>
void transpose_tile(const unsigned char* src, unsigned char* dst, Pitches p, int rows, int cols,
                    unsigned char* strip) {
  if constexpr (kStores == TileStores::direct || (E == 16 && kStores == TileStores::staged)) {
    transpose_tile_blocks<E, kAvx2>(src, dst, p, rows, cols);
  } else if (rows < block_edge<E>()) {
    // No whole block: the strip's runs would be under 16 bytes per output row, each copied out by
    // a call of its own length; element by element straight out is faster (development VM: u8
    // 3x1048576 3.6-4.6 -> 0.63-0.66 ms, f64 1x4194304 9.2-12.1 -> 1.5-1.8 ms;
    // bench/results/devvm_2026-11-29_cpu_few_rows.txt).
    transpose_elements<E>(src, dst, p, rows, cols);
  } else {
    transpose_tile_staged<E, kStores == TileStores::streamed, kAvx2>(src, dst, p, rows, cols, strip);
  }
}

// Where a matrix's tiles start along one axis: a first span of `lead` (none where lead is 0), then
// spans of `edge`. Along the rows, the lead brings every later tile's output row pieces onto 64-byte
// lines: pieces that start inside a line leave it to be written in parts, by two tiles and maybe two
// threads, and streaming stores write such parts as separate partial transfers (on a Xeon, f32
// 4096^2 from a malloc'ed buffer, 16 bytes into its first line, took 3-4x the time of a line-aligned
// one). Along the columns, it brings every later tile's input row pieces onto lines, so that the
// strips of 1-byte elements read each line in one pass.
struct TileSpans {
  std::int64_t lead, edge, count;
  TileSpans(std::int64_t extent, std::int64_t edge_size, std::int64_t lead_size)
      : lead(std::min(lead_size, extent)), edge(edge_size), count((lead > 0) + (extent - lead + edge - 1) / edge) {}
  std::int64_t first(std::int64_t i) const { return lead == 0 ? i * edge : i == 0 ? 0 : lead + (i - 1) * edge; }
};

// Elements to put in a lead span so that the rows of an operand (`ld` elements apart, matrices
// `batch_stride` apart) start their later pieces on 64-byte lines: 0 where they do already, -1 where
// no lead can (rows or matrices that are not a multiple of 64 bytes apart, or a start that is not a
// whole number of elements from the next line).
std::int64_t line_lead(std::int64_t ld, std::int64_t batch, std::int64_t batch_stride, const void* base, int esize) {
  const bool one_phase = ld * esize % 64 == 0 && (batch == 1 || batch_stride * esize % 64 == 0);
  const auto gap = static_cast<std::int64_t>((64 - reinterpret_cast<std::uintptr_t>(base) % 64) % 64);
  return one_phase && gap % esize == 0 ? gap / esize : -1;
}

// A lead span only where the matrix spans at least kLeadFromTiles tiles along that axis (else -1: no
// lead, and no streaming stores); a lead of 0 (already on the lines) always stands. In smaller
// matrices a lead cuts every matrix of a batch into narrow pieces. On the development VM, from
// buffers 16 bytes into a line, with leads / without: u8 64^2 x 4096 4.6-5.4 / 0.63-2.0 ms (aligned
// 0.68-1.4), u8 128^2 x 1024 4.2-5.0 / 1.5-2.5 ms, f32 64^2 x 4096 9.7-11.5 / 6.4-9.4 ms; with leads
// from two tiles on, f32 64^2 stayed at 9.5-9.8 ms
// (bench/results/devvm_2026-11-29_cpu_small_batch_leads.txt).
constexpr std::int64_t kLeadFromTiles = 4;

std::int64_t lead_if_large(std::int64_t lead, std::int64_t extent, int esize) {
  return lead > 0 && extent < kLeadFromTiles * blocked_tile_edge(static_cast<std::size_t>(esize)) ? -1 : lead;
}

// Transposes tiles [first, last) of the (batch x tile rows x tile columns) grid, in that order,
// stored as kStores says; streamed outputs' lead tile row, whose pieces end inside lines, goes
// through strips with plain stores.
template <int E, TileStores kStores, bool kAvx2>
void transpose_tiles(const TransposeDesc& d, TileSpans tile_rows, TileSpans tile_cols, const unsigned char* in,
                     unsigned char* out, std::int64_t first, std::int64_t last) {
  alignas(64) unsigned char strip[strip_columns<E, kAvx2>() * kStripPitch<E>];
  const Pitches p{static_cast<std::ptrdiff_t>(d.ld_in * E), static_cast<std::ptrdiff_t>(d.ld_out * E)};
  for (std::int64_t t = first; t < last; ++t) {
    const std::int64_t j = t % tile_cols.count, i = t / tile_cols.count % tile_rows.count;
    const std::int64_t b = t / tile_cols.count / tile_rows.count;
    const std::int64_t r0 = tile_rows.first(i), c0 = tile_cols.first(j);
    const int rows = static_cast<int>(std::min(tile_rows.first(i + 1), d.rows) - r0);
    const int cols = static_cast<int>(std::min(tile_cols.first(j + 1), d.cols) - c0);
    const unsigned char* src = in + (b * d.batch_stride_in + r0 * d.ld_in + c0) * E;
    unsigned char* dst = out + (b * d.batch_stride_out + c0 * d.ld_out + r0) * E;
    if (kStores == TileStores::streamed && tile_rows.lead > 0 && i == 0)
      transpose_tile<E, TileStores::staged, kAvx2>(src, dst, p, rows, cols, strip);
    else
      transpose_tile<E, kStores, kAvx2>(src, dst, p, rows, cols, strip);
  }
  if constexpr (kStores == TileStores::streamed) fence_streaming_stores();
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

template <int E, bool kAvx2>
auto tiles_worker(TileStores stores) {
  switch (stores) {
    case TileStores::direct: return transpose_tiles<E, TileStores::direct, kAvx2>;
    case TileStores::staged: return transpose_tiles<E, TileStores::staged, kAvx2>;
    default: return transpose_tiles<E, TileStores::streamed, kAvx2>;
  }
}

template <int E>
void run(const TransposeDesc& d, const void* in_bytes, void* out_bytes, bool avx2) {
  const auto* in = static_cast<const unsigned char*>(in_bytes);
  auto* out = static_cast<unsigned char*>(out_bytes);
  const std::int64_t bytes = d.batch * d.rows * d.cols * std::int64_t{E};
  const std::int64_t out_lead = lead_if_large(line_lead(d.ld_out, d.batch, d.batch_stride_out, out, E), d.rows, E);
  const std::int64_t in_lead = lead_if_large(line_lead(d.ld_in, d.batch, d.batch_stride_in, in, E), d.cols, E);
  const TileSpans tile_rows(d.rows, blocked_tile_edge(E), std::max<std::int64_t>(out_lead, 0));
  const TileSpans tile_cols(d.cols, blocked_tile_edge(E), std::max<std::int64_t>(in_lead, 0));
  TileStores stores = TileStores::staged;
  if (bytes >= kStreamFromBytes && out_lead >= 0)
    stores = TileStores::streamed;
  else if (E == 16 || (E <= 2 && bytes < kDirectSmallBytes))
    stores = TileStores::direct;
  const auto worker = avx2 ? tiles_worker<E, true>(stores) : tiles_worker<E, false>(stores);
  // Runs of tiles per thread, not whole tile rows: a lead tile row makes 17 rows of u8 4096^2, which
  // on 16 threads left one thread two. Buffers 16 bytes into a line, 16-core Xeon, median of four
  // processes: u8 4096^2 773 -> 534 us, 8192^2 2012 -> 1771, bf16 4096^2 1036 -> 787, 8192^2 4543 ->
  // 4133; aligned buffers, and f32 / f64 (more tile rows), within the spread
  // (bench/results/xeon16_2026-11-29c_cpu_tile_split.txt).
  const std::int64_t work = d.batch * tile_rows.count * tile_cols.count;
  const std::int64_t pieces = threads_for(bytes, work);
  parallel_for(pieces, [&](std::int64_t i) {
    worker(d, tile_rows, tile_cols, in, out, work * i / pieces, work * (i + 1) / pieces);
  });
}

template <int E, bool kAvx2>
void tile_direct(const unsigned char* src, std::ptrdiff_t src_pitch, unsigned char* dst, std::ptrdiff_t dst_pitch,
                 int rows, int cols) {
  transpose_tile_blocks<E, kAvx2>(src, dst, Pitches{src_pitch, dst_pitch}, rows, cols);
}

template <int E>
TileTranspose tile_function(bool avx2) {
  return avx2 ? tile_direct<E, true> : tile_direct<E, false>;
}

}  // namespace

TileTranspose blocked_tile_transpose(std::size_t element_size) {
  const bool avx2 = use_avx2();
  switch (element_size) {
    case 1: return tile_function<1>(avx2);
    case 2: return tile_function<2>(avx2);
    case 4: return tile_function<4>(avx2);
    case 8: return tile_function<8>(avx2);
    default: return tile_function<16>(avx2);
  }
}

void blocked_transpose(const TransposeDesc& d, const void* in, void* out) {
  const bool avx2 = use_avx2();
  if (transpose_short_side(d, in, out, avx2)) return;
  switch (dtype_size(d.dtype)) {
    case 1: run<1>(d, in, out, avx2); break;
    case 2: run<2>(d, in, out, avx2); break;
    case 4: run<4>(d, in, out, avx2); break;
    case 8: run<8>(d, in, out, avx2); break;
    case 16: run<16>(d, in, out, avx2); break;
    default: break;  // validate_desc refuses other sizes
  }
}

}  // namespace xpose::cpu
