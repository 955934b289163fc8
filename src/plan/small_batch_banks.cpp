// The bank model behind small_batch's tile choices. Each lane of small_batch's store phase builds one
// 16-byte output vector from 16 / E elements, 16 * cols bytes down the tile from its neighbour's
// (wrapping into the next column): for most column counts one read step's lanes land in a few
// banks only (u8 17x17: 5.2 wavefronts a step, 100x100: 4.1). Starting each lane's walk at a
// different element spreads them (17x17: 1.1 at slope 1).
#include "plan/small_batch_banks.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "plan/gpu_planner.hpp"
#include "xpose/dtype.hpp"

namespace xpose::plan {

int small_batch_swizzle_bits(std::int64_t lane_stride) {
  int bits = 0;
  while (((lane_stride >> bits) & 1) == 0) ++bits;
  const bool power_of_two = (lane_stride & (lane_stride - 1)) == 0;
  return power_of_two ? bits : std::max(bits, 8);
}

std::int64_t small_batch_read_wavefronts(std::int64_t rows, std::int64_t cols, int e, int bits, int slope, int warps) {
  const int per_vec = 16 / e;
  // The 4-byte word of every output element the warps build, walked in output order (no divisions).
  std::vector<std::int64_t> word_of(static_cast<std::size_t>(warps) * 32 * per_vec);
  std::int64_t m = 0, c = 0, r = 0;
  for (auto& word : word_of) {
    std::int64_t x = ((m * rows + r) * cols + c) * e;
    if (bits > 0) x ^= ((x >> bits) & 7) << 4;  // chunk_swizzle.cuh
    word = x / 4;
    if (++r == rows) r = 0, c = c + 1 == cols ? (++m, 0) : c + 1;
  }
  std::int64_t total = 0;
  for (int w = 0; w < warps; ++w) {
    for (int s = 0; s < per_vec; ++s) {
      std::int64_t in_bank[32][32];  // the distinct words each bank is asked for
      int per_bank[32] = {};
      for (int l = 0; l < 32; ++l) {
        const std::int64_t word = word_of[(w * 32 + l) * per_vec + ((s + slope * l) & (per_vec - 1))];
        std::int64_t* bank = in_bank[word & 31];
        int& n = per_bank[word & 31];
        if (std::find(bank, bank + n, word) == bank + n) bank[n++] = word;  // one read serves a word's lanes
      }
      total += *std::max_element(per_bank, per_bank + 32);
    }
  }
  return total;
}

int small_batch_rotation(const TransposeDesc& d) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  if (e > 2 || d.batch < 2 || !input_packed(d) || !output_packed(d) || d.rows < 16 / e)
    return 0;
  // The count takes 20-300 us on a host core; a plan made per call (xpose::transpose) asks again
  // for the same shapes, so each shape is counted once per process.
  static std::mutex mutex;
  static std::map<std::tuple<std::int64_t, std::int64_t, int>, int> slopes;
  const auto key = std::make_tuple(d.rows, d.cols, e);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = slopes.find(key); it != slopes.end()) return it->second;
  }
  // Eight warps cover 4 KiB of output, a period or more of the pattern for most shapes.
  constexpr int kWarps = 8;
  const int bits = small_batch_swizzled(d) ? small_batch_swizzle_bits(16 * d.cols) : 0;
  const std::int64_t in_order = small_batch_read_wavefronts(d.rows, d.cols, e, bits, 0, kWarps);
  int slope = 0;
  std::int64_t fewest = 0;
  for (int s = 1; s < 16 / e; ++s) {
    const std::int64_t count = small_batch_read_wavefronts(d.rows, d.cols, e, 0, s, kWarps);
    if (slope == 0 || count < fewest) slope = s, fewest = count;
  }
  // 1-byte vectors that wrap into the next column (rows not a multiple of 16) cost the in-order
  // kernel a branch per byte, which the rotated one walks with selects: there it wins at up to
  // rotation_wrap_share percent of the in-order count (H200, of memcpy, 64 MiB batches, in order ->
  // rotated, the rotated count as a share of the in-order one: u8 24^2 100% 0.82 -> 0.91, 33x127 100%
  // 0.53 -> 0.69, 60^2 83% 0.75 -> 0.88; on the swizzled tile 24x72 135% 0.58 -> 0.89, 88^2 121% 0.58
  // -> 0.88, 72x80 144% 0.56 -> 0.82, 104x72 156% 0.58 -> 0.84, 24x160 162% 0.59 -> 0.91, 40x112 185%
  // 0.57 -> 0.86, 40x200 200% 0.58 -> 0.91, 56x96 200% 0.58 -> 0.76; bench/results/
  // h200_2026-11-25zb_mid_size_8byte_grid.txt). Not past 150% where rows are a power of two bytes,
  // whose in-order tile is swizzled by their stride's own bits: u8 188x64 171% 0.53 -> 0.47, 76x64 195%
  // 0.54 -> 0.49; nor 120x128 at 700%, 0.59 in order. (Those in-order figures predate the in-order
  // kernel's walk for every lane on the swizzled tile, which lifted them to about 0.72: still behind
  // the rotated ones above; h200_2026-11-25zb_small_batch_walk.txt.)
  const bool wraps = e == 1 && d.rows % 16 != 0;
  const std::int64_t share = wraps ? rotation_wrap_share(d.cols) : kRotationMaxShare;
  if (100 * fewest > share * in_order) slope = 0;
  const std::lock_guard<std::mutex> lock(mutex);
  slopes.emplace(key, slope);
  return slope;
}

}  // namespace xpose::plan
