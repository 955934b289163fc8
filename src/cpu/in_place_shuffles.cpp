// In-place transposes of non-square matrices on the CPU, by three passes over the m x n buffer that
// each move elements only within its columns or only within its rows, so that a thread needs scratch
// of one block of columns (at most 4 MiB, or one column) or one row, not a second matrix. The decomposition is the one of
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

// Columns gathered per block in the column passes: a 64-byte line of each row, as long as the block
// stays within kColumnScratchBytes (never narrower than one column, which is the least scratch a
// column pass can have).
constexpr std::int64_t kColumnBlockBytes = 64;
constexpr std::int64_t kColumnScratchBytes = std::int64_t{4} << 20;

// The m x n view and the quotients the passes step by (no division per element: a 64-bit division
// costs tens of cycles, as much as moving the element).
struct Shape {
  std::int64_t m, n;  // rows and columns of the input
  std::int64_t b;     // n / gcd(m, n): column j is rotated down by j / b in pass 1
  std::int64_t n_div_m, n_mod_m, m_mod_n, last_row_mod_n;
  Shape(std::int64_t rows, std::int64_t cols)
      : m(rows), n(cols), b(cols / std::gcd(rows, cols)), n_div_m(cols / rows), n_mod_m(cols % rows),
        m_mod_n(rows % cols), last_row_mod_n((rows - 1) % cols) {}
};

// Pieces [0, pieces) of `items`, split evenly, each run as one call of body(first, last).
template <typename Body>
void split(std::int64_t items, std::int64_t pieces, const Body& body) {
  if (pieces <= 1) return body(std::int64_t{0}, items);
  parallel_for(pieces, [&](std::int64_t p) { body(items * p / pieces, items * (p + 1) / pieces); });
}

// The column passes' source rows, stepped down a column (next_row) and along a row (next_column)
// without dividing. Pass 1's: column j rotated down by j / b, so (r, j) takes row (r - j / b) mod m.
struct Rotation {
  struct State {
    std::int64_t row, j_mod_b;
  };
  static State start(const Shape& s, std::int64_t j) {
    const std::int64_t shift = j / s.b;  // < gcd(m, n) <= m
    return {shift == 0 ? 0 : s.m - shift, j % s.b};
  }
  static void next_row(const Shape& s, State& t) {
    if (++t.row == s.m) t.row = 0;
  }
  static void next_column(const Shape& s, State& t) {
    if (++t.j_mod_b < s.b) return;
    t.j_mod_b = 0;  // the next column is rotated one further
    t.row = t.row == 0 ? s.m - 1 : t.row - 1;
  }
};

// Pass 3's: after passes 1 and 2, input element (i, j) lies in row (i + j / b) mod m of its final
// column; the one that belongs at (r, c) is input element (k % m, k / m), k = r n + c. The state
// keeps k % m, and k / m as a quotient and remainder by b; a row adds n to k, a column 1.
struct FinalRows {
  struct State {
    std::int64_t row, k_mod_m, q_div_b, q_mod_b;
  };
  static void settle(const Shape& s, State& t) {
    t.row = t.k_mod_m + t.q_div_b;  // both < m (q / b < gcd(m, n))
    if (t.row >= s.m) t.row -= s.m;
  }
  static State start(const Shape& s, std::int64_t c) {
    State t{0, c % s.m, c / s.m / s.b, c / s.m % s.b};
    settle(s, t);
    return t;
  }
  static void next_row(const Shape& s, State& t) {
    std::int64_t q_step = s.n_div_m;
    t.k_mod_m += s.n_mod_m;
    if (t.k_mod_m >= s.m) t.k_mod_m -= s.m, ++q_step;
    t.q_mod_b += q_step;
    while (t.q_mod_b >= s.b) t.q_mod_b -= s.b, ++t.q_div_b;  // at most three times: q_step <= 2 b
    settle(s, t);
  }
  static void next_column(const Shape& s, State& t) {
    if (++t.k_mod_m == s.m) {
      t.k_mod_m = 0;
      if (++t.q_mod_b == s.b) t.q_mod_b = 0, ++t.q_div_b;
    }
    settle(s, t);
  }
};

// A column pass: for every column j, row r takes the element that was at Source's row for (r, j);
// blocks of columns gathered into scratch and written back row by row, the state of the block's
// first column stepped down the rows and copied along each row.
template <int E, typename Source>
void gather_columns(unsigned char* x, const Shape& s, std::int64_t pieces) {
  const std::int64_t width =
      std::max<std::int64_t>(1, std::min({s.n, kColumnBlockBytes / E, kColumnScratchBytes / (s.m * E)}));
  const std::int64_t blocks = (s.n + width - 1) / width;
  split(blocks, pieces, [&](std::int64_t first, std::int64_t last) {
    std::vector<unsigned char> scratch(static_cast<std::size_t>(s.m * width * E));
    for (std::int64_t blk = first; blk < last; ++blk) {
      const std::int64_t j0 = blk * width, w = std::min(width, s.n - j0);
      for (std::int64_t r = 0; r < s.m; ++r)
        std::memcpy(&scratch[static_cast<std::size_t>(r * w * E)], x + (r * s.n + j0) * E,
                    static_cast<std::size_t>(w * E));
      typename Source::State first_column = Source::start(s, j0);
      for (std::int64_t r = 0; r < s.m; ++r) {
        unsigned char* row = x + (r * s.n + j0) * E;
        typename Source::State t = first_column;
        for (std::int64_t c = 0; c < w; ++c) {
          std::memcpy(row + c * E, &scratch[static_cast<std::size_t>((t.row * w + c) * E)], E);
          Source::next_column(s, t);
        }
        Source::next_row(s, first_column);
      }
    }
  });
}

// Pass 2: row r's element from column j (input row i = (r - j / b) mod m after pass 1) to its final
// column (j m + i) mod n, through a row of scratch; j m mod n, i and i mod n stepped along the row.
template <int E>
void scatter_rows(unsigned char* x, const Shape& s, std::int64_t pieces) {
  split(s.m, pieces, [&](std::int64_t first, std::int64_t last) {
    std::vector<unsigned char> scratch(static_cast<std::size_t>(s.n * E));
    for (std::int64_t r = first; r < last; ++r) {
      unsigned char* row = x + r * s.n * E;
      std::int64_t jm = 0, i = r, i_mod_n = r % s.n, j_mod_b = 0;
      for (std::int64_t j = 0; j < s.n; ++j) {
        std::int64_t col = jm + i_mod_n;
        if (col >= s.n) col -= s.n;
        std::memcpy(&scratch[static_cast<std::size_t>(col * E)], row + j * E, E);
        jm += s.m_mod_n;
        if (jm >= s.n) jm -= s.n;
        if (++j_mod_b == s.b) {  // the next column is rotated one further: i steps back
          j_mod_b = 0;
          if (i == 0) {
            i = s.m - 1;
            i_mod_n = s.last_row_mod_n;
          } else {
            --i;
            i_mod_n = i_mod_n == 0 ? s.n - 1 : i_mod_n - 1;
          }
        }
      }
      std::memcpy(row, scratch.data(), static_cast<std::size_t>(s.n * E));
    }
  });
}

template <int E>
void shuffle_matrix(unsigned char* x, const Shape& s, std::int64_t pieces) {
  if (s.b != s.n) gather_columns<E, Rotation>(x, s, pieces);  // gcd(m, n) > 1
  scatter_rows<E>(x, s, pieces);
  gather_columns<E, FinalRows>(x, s, pieces);
}

template <int E>
void shuffle_all(const TransposeDesc& d, unsigned char* data) {
  const Shape s(d.rows, d.cols);
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
