// Short sides by byte shuffles or by block transposes. Along the long side, a group is N = 16 / E
// positions: as records it is N records of S elements; as planes, N elements of each of the S
// short-side rows. Under K = 16 / E, with the records packed, a group fills S 16-byte vectors either
// way: for small S each output vector is the OR of S byte shuffles (pshufb), one per input vector,
// with masks fixed by (E, S) at compile time; nearer K, and for records read from a longer pitch,
// K x K-element block transposes. From K up to the limits of wide_runs_win, chunks of K elements of
// each record go through block transposes, at any pitch. AVX2 takes two groups per instruction, one
// in each 16-byte lane; the shuffles and the chunks take a last group in 16-byte registers, and what
// is left goes element by element. Plain stores throughout: the planes' 16-byte pieces, streamed as
// they come, left most lines part-written (on the development VM, u8 2 Mi x 8 took 3.3-4.2 ms
// streamed against 1.1-1.5 ms plain).
#include "cpu/short_side.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "cpu/register_transpose.hpp"  // XPOSE_CPU_AVX2, XPOSE_TARGET_AVX2
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {

#ifdef XPOSE_CPU_AVX2
namespace {

// masks[o * S + i]: for each byte of output vector o, the byte of input vector i it takes, or 0x80
// (pshufb writes zero) where it takes none. kToPlanes: records in, planes out; else the reverse.
template <int E, int S, bool kToPlanes>
struct GroupMasks {
  std::array<std::array<unsigned char, 16>, S * S> m{};
  constexpr GroupMasks() {
    for (auto& mask : m)
      for (auto& byte : mask) byte = 0x80;
    for (int o = 0; o < S; ++o)
      for (int b = 0; b < 16; ++b) {
        if constexpr (kToPlanes) {
          // Plane o's element b / E is element o of record b / E.
          const int at = (b / E * S + o) * E + b % E;
          m[o * S + at / 16][b] = static_cast<unsigned char>(at % 16);
        } else {
          // Record byte 16 o + b belongs to the group's record element p: plane p % S, position p / S.
          const int at = 16 * o + b, p = at / E;
          m[o * S + p % S][b] = static_cast<unsigned char>(p / S * E + at % E);
        }
      }
  }
};

template <int E, int S, bool kToPlanes>
constexpr GroupMasks<E, S, kToPlanes> kGroupMasks{};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

XPOSE_TARGET_AVX2 inline __m128i load16(const unsigned char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

XPOSE_TARGET_AVX2 inline void store16(unsigned char* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

// Output vector o of a group (both lanes: two groups): the OR of the S input vectors' shuffles.
template <int E, int S, bool kToPlanes, typename Vec>
XPOSE_TARGET_AVX2 XPOSE_CPU_INLINE Vec gather_vector(const Vec (&v)[S], int o) {
  const auto& masks = kGroupMasks<E, S, kToPlanes>.m;
  Vec acc;
  if constexpr (sizeof(Vec) == 32) {
    acc = _mm256_setzero_si256();
    for (int i = 0; i < S; ++i)
      acc = _mm256_or_si256(
          acc, _mm256_shuffle_epi8(v[i], _mm256_broadcastsi128_si256(load16(masks[o * S + i].data()))));
  } else {
    acc = _mm_setzero_si128();
    for (int i = 0; i < S; ++i) acc = _mm_or_si128(acc, _mm_shuffle_epi8(v[i], load16(masks[o * S + i].data())));
  }
  return acc;
}

// n records of S elements, packed at src, into S planes `plane_pitch` bytes apart at dst.
template <int E, int S>
XPOSE_TARGET_AVX2 void records_to_planes(const unsigned char* src, std::ptrdiff_t, unsigned char* dst,
                                         std::ptrdiff_t plane_pitch, std::int64_t n, int) {
  constexpr int N = 16 / E, kGroup = S * 16;  // positions and bytes of records per group
  std::int64_t j = 0;
  for (; j + 2 * N <= n; j += 2 * N) {
    const unsigned char* g = src + j / N * kGroup;
    __m256i v[S];
    for (int i = 0; i < S; ++i)
      v[i] = _mm256_inserti128_si256(_mm256_castsi128_si256(load16(g + 16 * i)), load16(g + kGroup + 16 * i), 1);
    for (int o = 0; o < S; ++o) {
      const __m256i w = gather_vector<E, S, true>(v, o);
      store16(dst + o * plane_pitch + j * E, _mm256_castsi256_si128(w));
      store16(dst + o * plane_pitch + j * E + 16, _mm256_extracti128_si256(w, 1));
    }
  }
  if (j + N <= n) {
    const unsigned char* g = src + j / N * kGroup;
    __m128i v[S];
    for (int i = 0; i < S; ++i) v[i] = load16(g + 16 * i);
    for (int o = 0; o < S; ++o) store16(dst + o * plane_pitch + j * E, gather_vector<E, S, true>(v, o));
    j += N;
  }
  for (; j < n; ++j)
    for (int o = 0; o < S; ++o) std::memcpy(dst + o * plane_pitch + j * E, src + (j * S + o) * E, E);
}

// S planes `plane_pitch` bytes apart at src, n positions each, into n records of S elements packed
// at dst.
template <int E, int S>
XPOSE_TARGET_AVX2 void planes_to_records(const unsigned char* src, std::ptrdiff_t plane_pitch, unsigned char* dst,
                                         std::ptrdiff_t, std::int64_t n, int) {
  constexpr int N = 16 / E, kGroup = S * 16;
  std::int64_t j = 0;
  for (; j + 2 * N <= n; j += 2 * N) {
    __m256i v[S];
    for (int i = 0; i < S; ++i)
      v[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i * plane_pitch + j * E));
    unsigned char* g = dst + j / N * kGroup;
    for (int o = 0; o < S; ++o) {
      const __m256i w = gather_vector<E, S, false>(v, o);
      store16(g + 16 * o, _mm256_castsi256_si128(w));
      store16(g + kGroup + 16 * o, _mm256_extracti128_si256(w, 1));
    }
  }
  if (j + N <= n) {
    __m128i v[S];
    for (int i = 0; i < S; ++i) v[i] = load16(src + i * plane_pitch + j * E);
    unsigned char* g = dst + j / N * kGroup;
    for (int o = 0; o < S; ++o) store16(g + 16 * o, gather_vector<E, S, false>(v, o));
    j += N;
  }
  for (; j < n; ++j)
    for (int i = 0; i < S; ++i) std::memcpy(dst + (j * S + i) * E, src + i * plane_pitch + j * E, E);
}

// Where S is closer to K, K x K-element block transposes (cpu/register_transpose.hpp) cost fewer
// instructions than S^2 shuffles, and they take padded records (pitches past S elements), which the
// shuffles' fixed masks do not. A block's rows are K records, each loaded as 16 bytes from its start
// (its own S elements, then padding or the next records'), and after the transpose vectors [0, S)
// hold the planes. Two blocks stacked, one per lane, take a pair of groups. A pair whose last load
// would read past the run's last element is first copied into `stage`, its records packed. Packed
// records (kPadded false) take their pitch at compile time: read at run time, it made them 0.68-0.82x
// as fast on the Xeon (u8 2 Mi x 6 219 -> 320 us; bench/results/xeon16_2026-11-29n_cpu_padded_records.txt).
template <int E, int S, bool kPadded = false>
XPOSE_TARGET_AVX2 void records_to_planes_blocks(const unsigned char* src, std::ptrdiff_t pitch_in,
                                                unsigned char* dst, std::ptrdiff_t plane_pitch, std::int64_t n, int) {
  constexpr int K = 16 / E, kPair = 2 * K, kRecord = S * E;
  const std::ptrdiff_t record_pitch = kPadded ? pitch_in : kRecord;
  alignas(32) unsigned char stage[kPair * kRecord + 16];
  std::memset(stage + kPair * kRecord, 0, 16);  // the last load's bytes past the records
  const std::int64_t end = (n - 1) * record_pitch + kRecord;  // the run's bytes from src
  std::int64_t j = 0;
  for (; j + kPair <= n; j += kPair) {
    const unsigned char* g = src + j * record_pitch;
    std::ptrdiff_t pitch = record_pitch;
    if ((j + kPair - 1) * record_pitch + 16 > end) {
      if constexpr (kPadded)
        for (int k = 0; k < kPair; ++k) std::memcpy(stage + k * kRecord, g + k * record_pitch, kRecord);
      else
        std::memcpy(stage, g, kPair * kRecord);
      g = stage;
      pitch = kRecord;
    }
    __m256i v[K];
    for (int k = 0; k < K; ++k)
      v[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(load16(g + k * pitch)), load16(g + (K + k) * pitch), 1);
    interleave_rounds<E>(v);
    for (int o = 0; o < S; ++o) {
      store16(dst + o * plane_pitch + j * E, _mm256_castsi256_si128(v[o]));
      store16(dst + o * plane_pitch + j * E + 16, _mm256_extracti128_si256(v[o], 1));
    }
  }
  for (; j < n; ++j)
    for (int o = 0; o < S; ++o) std::memcpy(dst + o * plane_pitch + j * E, src + j * record_pitch + o * E, E);
}

// The reverse: planes [0, S) as a block's rows (the rest zero), and after the transpose vector k
// holds record k in its first S elements. Each record goes out as 16 bytes from its start, in
// address order, so the next record's store overwrites what one writes past its end; the run's last
// pair, whose last store would write past the run (maybe into another thread's), goes through
// `stage`. Packed records only: padded ones would take those bytes into their padding, and storing
// each record's elements alone from `stage` ran no faster than the tiles' element loops on the Xeon
// (u8 3 x 4 Mi into records of 4: 677 -> 735 us; bf16 356 -> 431; f32 272 -> 266;
// bench/results/xeon16_2026-11-29n_cpu_padded_records.txt). Plain stores: the records' vectors are
// not on the 16-byte grid.
template <int E, int S>
XPOSE_TARGET_AVX2 void planes_to_records_blocks(const unsigned char* src, std::ptrdiff_t plane_pitch,
                                                unsigned char* dst, std::ptrdiff_t, std::int64_t n, int) {
  constexpr int K = 16 / E, kPair = 2 * K, kRecord = S * E;
  alignas(32) unsigned char stage[kPair * kRecord + 16];
  std::int64_t j = 0;
  for (; j + kPair <= n; j += kPair) {
    __m256i v[K];
    for (int i = 0; i < K; ++i)
      v[i] = i < S ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i * plane_pitch + j * E))
                   : _mm256_setzero_si256();
    interleave_rounds<E>(v);
    unsigned char* g = dst + j * kRecord;
    const bool last = (j + kPair - 1) * kRecord + 16 > n * kRecord;
    unsigned char* to = last ? stage : g;
    for (int k = 0; k < K; ++k) store16(to + k * kRecord, _mm256_castsi256_si128(v[k]));
    for (int k = 0; k < K; ++k) store16(to + (K + k) * kRecord, _mm256_extracti128_si256(v[k], 1));
    if (last) std::memcpy(g, stage, kPair * kRecord);
  }
  for (; j < n; ++j)
    for (int i = 0; i < S; ++i) std::memcpy(dst + (j * S + i) * E, src + i * plane_pitch + j * E, E);
}

// Short sides of K elements or more: each record's elements in chunks of K, the last chunk ending
// at the record's end (overlapping the one before where K does not divide S), each chunk two K x K
// block transposes per pair of groups, then one more where a group is left. Loads and stores stay
// inside the records, whatever their pitch. Records into planes stack the pair's blocks, one per
// lane (records j.. and j + K..), so that each plane's 32 bytes go out in one store; planes into
// records put them side by side, as the tiles' pairs do (transpose_block_pair).
template <int E>
XPOSE_TARGET_AVX2 XPOSE_CPU_INLINE void transpose_stacked_pair(const unsigned char* src, std::ptrdiff_t src_pitch,
                                                                unsigned char* dst, std::ptrdiff_t dst_pitch) {
  constexpr int K = 16 / E;
  __m256i v[K];
  for (int k = 0; k < K; ++k)
    v[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(load16(src + k * src_pitch)),
                                   load16(src + (K + k) * src_pitch), 1);
  interleave_rounds<E>(v);
  for (int o = 0; o < K; ++o) _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + o * dst_pitch), v[o]);
}

// One element of a record is `element` bytes from the next, one record `position` bytes: on the
// records' side (record pitch, E), on the planes' side (E, plane pitch).
template <int E, bool kToPlanes>
XPOSE_TARGET_AVX2 void wide_run(const unsigned char* src, std::ptrdiff_t in_pitch, unsigned char* dst,
                                std::ptrdiff_t out_pitch, std::int64_t n, int S) {
  constexpr int K = 16 / E, kPair = 2 * K;
  const std::ptrdiff_t in_position = kToPlanes ? in_pitch : E, in_element = kToPlanes ? E : in_pitch;
  const std::ptrdiff_t out_position = kToPlanes ? E : out_pitch, out_element = kToPlanes ? out_pitch : E;
  const auto at_in = [&](std::int64_t j, int c) { return src + j * in_position + c * in_element; };
  const auto at_out = [&](std::int64_t j, int c) { return dst + j * out_position + c * out_element; };
  std::int64_t j = 0;
  for (; j + kPair <= n; j += kPair)
    for (int c0 = 0; c0 < S; c0 += K) {
      const int c = std::min(c0, S - K);
      if constexpr (kToPlanes)
        transpose_stacked_pair<E>(at_in(j, c), in_pitch, at_out(j, c), out_pitch);
      else
        transpose_block_pair<E>(at_in(j, c), in_pitch, at_out(j, c), out_pitch);
    }
  if (j + K <= n) {
    for (int c0 = 0; c0 < S; c0 += K) {
      const int c = std::min(c0, S - K);
      transpose_block<E>(at_in(j, c), in_pitch, at_out(j, c), out_pitch);
    }
    j += K;
  }
  for (; j < n; ++j)
    for (int c = 0; c < S; ++c) std::memcpy(at_out(j, c), at_in(j, c), E);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// One-element records and one plane lie alike: a copy (shuffles ran it at 0.79 of memcpy on the Xeon,
// u8 1 x 12 Mi).
template <int E>
void copy_run(const unsigned char* src, std::ptrdiff_t, unsigned char* dst, std::ptrdiff_t, std::int64_t n, int) {
  std::memcpy(dst, src, static_cast<std::size_t>(n * E));
}

// Blocks from this short side on, shuffles below it (K: never). On a 16-core Xeon, 12 MiB, median of
// three processes, blocks against shuffles, records into planes: u8 S = 4 158 / 169 us, 5 235 / 190,
// 6 241 / 306, 8 216 / 216, 11 204 / 250, 15 182 / 363; bf16 level at S = 3, 5 and 7; f32 S = 3 271 /
// 189. Planes into records: u8 S = 6 408 / 289, 8 308 / 293, 11 308 / 333, 15 238 / 404; bf16 S = 3
// 233 / 203, 5 213 / 204, 7 201 / 243; f32 S = 2 235 / 179, 3 208 / 195
// (bench/results/xeon16_2026-11-29i_cpu_short_sides.txt).
template <int E, bool kToPlanes>
constexpr int kBlocksFrom = E == 1 ? (kToPlanes ? 6 : 9) : E == 2 ? (kToPlanes ? 5 : 7) : 16 / E;

using GroupRun = void (*)(const unsigned char* src, std::ptrdiff_t in_pitch, unsigned char* dst,
                          std::ptrdiff_t out_pitch, std::int64_t n, int short_side);

// The runs for S = 2 .. K - 1, index S - 2 (S = 1 copies).
template <int E, bool kToPlanes, int... I>
constexpr auto group_runs(std::integer_sequence<int, I...>) {
  constexpr int kFrom = kBlocksFrom<E, kToPlanes>;
  if constexpr (kToPlanes)
    return std::array<GroupRun, sizeof...(I)>{
        (I + 2 >= kFrom ? &records_to_planes_blocks<E, I + 2> : &records_to_planes<E, I + 2>)...};
  else
    return std::array<GroupRun, sizeof...(I)>{
        (I + 2 >= kFrom ? &planes_to_records_blocks<E, I + 2> : &planes_to_records<E, I + 2>)...};
}

template <int E, bool kToPlanes>
GroupRun group_run(int short_side) {
  if (short_side == 1) return &copy_run<E>;
  static constexpr auto runs = group_runs<E, kToPlanes>(std::make_integer_sequence<int, 16 / E - 2>{});
  return runs[static_cast<std::size_t>(short_side - 2)];
}

// Padded records in (pitch past S elements) for S = 1 .. K - 1, index S - 1: the blocks, whatever S.
// On the Xeon against the tiles' element loops, u8 4 Mi x 3 from records of 4: 859 -> 309 us, of 16:
// 225 -> 126, u8 1.3 Mi x 9 from 10: 899 -> 230, bf16 2 Mi x 3 from 4: 464 -> 232, f32 1 Mi x 3 from
// 4: 313 -> 189 (bench/results/xeon16_2026-11-29n_cpu_padded_records.txt).
template <int E, int... I>
constexpr auto padded_record_runs(std::integer_sequence<int, I...>) {
  return std::array<GroupRun, sizeof...(I)>{&records_to_planes_blocks<E, I + 1, true>...};
}

template <int E>
GroupRun padded_record_run(int short_side) {
  static constexpr auto runs = padded_record_runs<E>(std::make_integer_sequence<int, 16 / E - 1>{});
  return runs[static_cast<std::size_t>(short_side - 1)];
}

// Long-side positions per piece of work: about 64 KiB of matrix, whole pairs of groups.
std::int64_t chunk_positions(int short_side, int esize) {
  const std::int64_t pair = 2 * (16 / esize);
  return std::max<std::int64_t>(pair, (std::int64_t{1} << 16) / (short_side * esize) / pair * pair);
}

// Whether a short side of S >= K elements takes the wide runs rather than the tiles of cpu_blocked,
// which leave the S mod K elements past the last block to element loops, and whose strips of whole
// output runs beat the wide runs' 32-byte pieces on wide records. On the 16-core Xeon, 12 MiB, median
// of three processes, tiles / wide in us, records into planes: u8 S = 16 240 / 382, 20 481 / 224, 24
// 569 / 641, 32 289 / 606, 40 463 / 309, 100 455 / 546; bf16 S = 8 199 / 210, 20 293 / 172, 100 412 /
// 550; f32 S = 4 237 / 166, 7 290 / 172, 12 295 / 310, 31 275 / 188, 100 422 / 535; f64 S = 15 206 /
// 173, 60 306 / 439. Planes into records: u8 S = 20 576 / 335, 24 660 / 466, 32 289 / 360, 40 437 /
// 297, 64 326 / 491; bf16 S = 8 1203 / 260, 50 487 / 261, 127 478 / 314; f32 S = 4 317 / 224, 100 484
// / 245; f64 S = 2 489 / 185, 60 307 / 212. The host's times moved by up to 1.5x between runs; one
// case lost in all three: u8 S = 24 into planes ran at 0.89-0.95 of the tiles' speed, and takes the
// wide runs with its class (bench/results/xeon16_2026-11-29k_cpu_wide_short_sides.txt,
// ..._29l_cpu_short_sides_final.txt).
template <int E>
constexpr bool wide_runs_win(std::int64_t s, bool to_planes) {
  constexpr int K = 16 / E;
  if (E == 1) return s < 48 && s % K != 0;
  if (to_planes) return s * E <= 128 && (s == K || s % K != 0);
  return s * E <= 512;
}

template <int E>
bool run(const TransposeDesc& d, const unsigned char* in, unsigned char* out) {
  constexpr int K = 16 / E;
  // Few columns: records in, planes out; few rows: the reverse. Under K, packed records take the
  // shuffles or the blocks (kBlocksFrom), padded ones in the blocks, padded ones out the tiles
  // (which moved all of these element by element). From K on the long side must hold a group, or
  // the chunks would leave every element to the element loops where the tiles transpose blocks.
  // With a last group in 16-byte blocks, batches of small matrices run faster here than in the
  // tiles, whose element loops take their edges: on the Xeon, median of four processes, tiles /
  // chunks, u8 20 x 20 x 30000 641 / 510 us, 17 x 20 x 30000 583 / 291, bf16 12 x 12 x 40000 537 /
  // 266, f32 5 x 5 x 100000 476 / 255, f64 3 x 3 x 200000 661 / 449
  // (bench/results/xeon16_2026-11-29m_cpu_small_batches.txt).
  const auto short_side_fits = [](std::int64_t s, std::int64_t ld, std::int64_t n, bool planes_out) {
    return s < K ? planes_out || ld == s : n >= K && wide_runs_win<E>(s, planes_out);
  };
  const bool to_planes = short_side_fits(d.cols, d.ld_in, d.rows, true);
  const bool to_records = !to_planes && short_side_fits(d.rows, d.ld_out, d.cols, false);
  if (!to_planes && !to_records) return false;
  const int short_side = static_cast<int>(to_planes ? d.cols : d.rows);
  const std::int64_t n = to_planes ? d.rows : d.cols;
  const std::int64_t bytes = d.batch * d.rows * d.cols * E;
  const std::int64_t record_ld = to_planes ? d.ld_in : d.ld_out;
  const std::ptrdiff_t in_pitch = d.ld_in * E, out_pitch = d.ld_out * E;
  GroupRun group = to_planes ? &wide_run<E, true> : &wide_run<E, false>;
  if (short_side < K && record_ld == short_side)
    group = to_planes ? group_run<E, true>(short_side) : group_run<E, false>(short_side);
  else if (short_side < K)
    group = padded_record_run<E>(short_side);
  const std::int64_t chunk = chunk_positions(short_side, E), chunks = (n + chunk - 1) / chunk;
  const std::int64_t work = d.batch * chunks, pieces = threads_for(bytes, work);
  parallel_for(pieces, [&](std::int64_t piece) {
    for (std::int64_t w = work * piece / pieces; w < work * (piece + 1) / pieces; ++w) {
      const std::int64_t b = w / chunks, j0 = w % chunks * chunk, len = std::min(chunk, n - j0);
      const unsigned char* src = in + (b * d.batch_stride_in + (to_planes ? j0 * record_ld : j0)) * E;
      unsigned char* dst = out + (b * d.batch_stride_out + (to_planes ? j0 : j0 * record_ld)) * E;
      group(src, in_pitch, dst, out_pitch, len, short_side);
    }
  });
  return true;
}

}  // namespace
#endif

bool transpose_short_side(const TransposeDesc& d, const void* in, void* out, bool avx2) {
#ifdef XPOSE_CPU_AVX2
  if (!avx2) return false;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  switch (dtype_size(d.dtype)) {
    case 1: return run<1>(d, src, dst);
    case 2: return run<2>(d, src, dst);
    case 4: return run<4>(d, src, dst);
    case 8: return run<8>(d, src, dst);
    default: return false;  // 16-byte elements have no short side under a block
  }
#else
  (void)d, (void)in, (void)out, (void)avx2;
  return false;
#endif
}

}  // namespace xpose::cpu
