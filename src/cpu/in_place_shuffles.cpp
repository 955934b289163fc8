// In-place transposes of non-square matrices on the CPU, by three passes over the m x n buffer that
// each move elements only within its columns or only within its rows, so that a thread needs scratch
// of one block of columns or one row, never a second matrix. The decomposition is the one of
// Catanzaro, Keller and Garland ("A decomposition for in-place matrix transposition", PPoPP 2014):
// with b = n / gcd(m, n), element (i, j) of the m x n input belongs at buffer index j m + i, which in
// the m x n view is row (j m + i) / n, column (j m + i) % n; rotating column j down by j / b (pass 1)
// leaves every row holding exactly one element for each final column, so each row can be scattered
// to its final columns (pass 2), and then each column gathered to its final rows (pass 3).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "cpu/in_place.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/threads.hpp"

namespace xpose::cpu {
namespace {

// Columns gathered per block in the column passes: a 64-byte line of each row.
constexpr std::int64_t kColumnBlockBytes = 64;

struct Shape {
  std::int64_t m, n;  // rows and columns of the input
  std::int64_t b;     // n / gcd(m, n)
  std::int64_t rotation(std::int64_t j) const { return j / b; }
};

// Pieces [0, pieces) of `items`, split evenly, each run as one call of body(first, last).
template <typename Body>
void split(std::int64_t items, std::int64_t pieces, const Body& body) {
  if (pieces <= 1) return body(std::int64_t{0}, items);
  parallel_for(pieces, [&](std::int64_t p) { body(items * p / pieces, items * (p + 1) / pieces); });
}

// A column pass: element (r, j) of the m x n matrix at `x` takes the element that was at (from(r, j),
// j), for every column, blocks of columns gathered into scratch and written back.
template <int E, typename From>
void gather_columns(unsigned char* x, const Shape& s, std::int64_t pieces, const From& from) {
  const std::int64_t width = std::max<std::int64_t>(1, std::min(s.n, kColumnBlockBytes / E));
  const std::int64_t blocks = (s.n + width - 1) / width;
  split(blocks, pieces, [&](std::int64_t first, std::int64_t last) {
    std::vector<unsigned char> scratch(static_cast<std::size_t>(s.m * width * E));
    for (std::int64_t blk = first; blk < last; ++blk) {
      const std::int64_t j0 = blk * width, w = std::min(width, s.n - j0);
      for (std::int64_t r = 0; r < s.m; ++r)
        std::memcpy(&scratch[static_cast<std::size_t>(r * w * E)], x + (r * s.n + j0) * E, static_cast<std::size_t>(w * E));
      for (std::int64_t r = 0; r < s.m; ++r)
        for (std::int64_t c = 0; c < w; ++c)
          std::memcpy(x + (r * s.n + j0 + c) * E, &scratch[static_cast<std::size_t>((from(r, j0 + c) * w + c) * E)], E);
    }
  });
}

// Pass 2: row r's element from column j (input row (r - rotation(j)) mod m after pass 1) to its final
// column, through a row of scratch.
template <int E>
void scatter_rows(unsigned char* x, const Shape& s, std::int64_t pieces) {
  split(s.m, pieces, [&](std::int64_t first, std::int64_t last) {
    std::vector<unsigned char> scratch(static_cast<std::size_t>(s.n * E));
    for (std::int64_t r = first; r < last; ++r) {
      unsigned char* row = x + r * s.n * E;
      for (std::int64_t j = 0; j < s.n; ++j) {
        const std::int64_t i = ((r - s.rotation(j)) % s.m + s.m) % s.m;
        std::memcpy(&scratch[static_cast<std::size_t>((j * s.m + i) % s.n * E)], row + j * E, E);
      }
      std::memcpy(row, scratch.data(), static_cast<std::size_t>(s.n * E));
    }
  });
}

template <int E>
void shuffle_matrix(unsigned char* x, const Shape& s, std::int64_t pieces) {
  if (s.b != s.n)  // gcd(m, n) > 1: rotate column j down by rotation(j)
    gather_columns<E>(x, s, pieces,
                      [&](std::int64_t r, std::int64_t j) { return ((r - s.rotation(j)) % s.m + s.m) % s.m; });
  scatter_rows<E>(x, s, pieces);
  // Element (i, j) of the input now lies in row (i + rotation(j)) mod m of its final column; the one
  // that belongs at (r, c) is input element (k % m, k / m) for k = r n + c.
  gather_columns<E>(x, s, pieces, [&](std::int64_t r, std::int64_t c) {
    const std::int64_t k = r * s.n + c;
    return (k % s.m + s.rotation(k / s.m)) % s.m;
  });
}

template <int E>
void shuffle_all(const TransposeDesc& d, unsigned char* data) {
  const Shape s{d.rows, d.cols, d.cols / std::gcd(d.rows, d.cols)};
  const std::int64_t bytes = d.batch * d.rows * d.cols * E;
  // Many matrices: a thread per matrix; otherwise each pass split across the threads.
  const std::int64_t by_matrix = threads_for(bytes, d.batch);
  if (by_matrix > 1) {
    split(d.batch, by_matrix, [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t b = first; b < last; ++b) shuffle_matrix<E>(data + b * d.batch_stride_in * E, s, 1);
    });
    return;
  }
  const std::int64_t pieces = threads_for(bytes / d.batch, std::min(d.rows, d.cols));
  for (std::int64_t b = 0; b < d.batch; ++b) shuffle_matrix<E>(data + b * d.batch_stride_in * E, s, pieces);
}

}  // namespace

void shuffled_transpose_in_place(const TransposeDesc& d, void* data) {
  auto* x = static_cast<unsigned char*>(data);
  switch (dtype_size(d.dtype)) {
    case 1: return shuffle_all<1>(d, x);
    case 2: return shuffle_all<2>(d, x);
    case 4: return shuffle_all<4>(d, x);
    case 8: return shuffle_all<8>(d, x);
    default: return shuffle_all<16>(d, x);
  }
}

}  // namespace xpose::cpu
