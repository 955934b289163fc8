// CPU backend, matrices with a short side (rows or columns of a few 16-byte blocks or less): records
// split into planes and planes merged into records, against the reference, with and without AVX2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using namespace xpose_test;

struct ShiftedCase {
  xpose::TransposeDesc desc;
  std::size_t in_shift = 0, out_shift = 0;  // bytes the buffers start past an allocation's start
};

// Transposes k.desc with cpu_blocked from shifted buffers; the output must equal the reference and
// no byte before or after the output's span may change.
void expect_matches(const ShiftedCase& k) {
  const xpose::TransposeDesc& d = k.desc;
  constexpr std::size_t kGuard = 64;
  const auto in = random_bytes(input_bytes(d) + k.in_shift, 11);
  const std::vector<unsigned char> payload(in.begin() + static_cast<std::ptrdiff_t>(k.in_shift), in.end());
  const auto want = expected_transpose(d, payload);
  std::vector<unsigned char> got(output_bytes(d) + k.out_shift + kGuard, kPoison);
  const xpose::Status s = xpose::transpose(d, in.data() + k.in_shift, got.data() + k.out_shift, nullptr,
                                           {Backend::cpu, Algorithm::cpu_blocked});
  ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
  const std::vector<unsigned char> got_payload(got.begin() + static_cast<std::ptrdiff_t>(k.out_shift),
                                               got.end() - kGuard);
  EXPECT_EQ(first_mismatch(got_payload, want, xpose::dtype_size(d.dtype)), -1)
      << describe(d) << " from buffers shifted by " << k.in_shift << " / " << k.out_shift << " bytes";
  for (std::size_t i = 0; i < k.out_shift; ++i) ASSERT_EQ(got[i], kPoison) << describe(d) << ": byte " << i;
  for (std::size_t i = got.size() - kGuard; i < got.size(); ++i)
    ASSERT_EQ(got[i], kPoison) << describe(d) << ": byte " << i << " past the output";
}

// Long sides around the groups of 16 bytes (N = 16 / E positions) and their pairs, and past the
// 64 KiB pieces that threads take.
std::vector<std::int64_t> long_sides(std::size_t esize) {
  const auto n = static_cast<std::int64_t>(16 / esize);
  return {1, n - 1, n, n + 1, 2 * n - 1, 2 * n, 3 * n + 1, 5 * n + 3, 70001};
}

std::vector<ShiftedCase> short_side_cases(DType dtype) {
  const std::size_t esize = xpose::dtype_size(dtype);
  const std::int64_t k = 16 / static_cast<std::int64_t>(esize);  // a 16-byte block's edge in elements
  const std::size_t a = std::min<std::size_t>(esize, 8);          // element alignment
  std::vector<ShiftedCase> v;
  for (std::int64_t s = 1; s <= k; ++s)  // and k itself, where the paths change
    for (std::int64_t n : long_sides(esize)) {
      if (n < 1) continue;
      v.push_back({{dtype, n, s}});  // records into planes
      v.push_back({{dtype, s, n}});  // planes into records
    }
  for (std::int64_t s : {std::int64_t{1}, k / 2 + 1, k - 1}) {
    if (s < 1) continue;
    // Padded planes: output planes of records in, input planes of records out.
    v.push_back({{dtype, 1001, s, 1, 0, 1013, 0, 0}, a, 3 * a});
    v.push_back({{dtype, s, 1001, 1, 1013, 0, 0, 0}, 3 * a, a});
    // Batches with gaps between matrices, packed otherwise.
    v.push_back({{dtype, 333, s, 3, 0, 0, 333 * s + 7, 333 * s + 5}, 5 * a, 16});
    v.push_back({{dtype, s, 333, 3, 0, 0, 333 * s + 5, 333 * s + 7}, 16, 5 * a});
    // Padded records.
    v.push_back({{dtype, 1001, s, 1, s + 1, 0, 0, 0}});
    v.push_back({{dtype, s, 1001, 1, 0, s + 1, 0, 0}});
  }
  // Padded records under k (pitches of s + 1, s + 7 and 2k + 3 elements), in (the blocks) and out
  // (the tiles): every short side, long sides around the pairs of groups, batches with gaps, and 2.5
  // MiB ones that threads share. The output's padding must keep its poison.
  for (std::int64_t s = 1; s < k; ++s)
    for (std::int64_t ld : std::vector<std::int64_t>{s + 1, s + 7, 2 * k + 3}) {
      for (std::int64_t n : std::vector<std::int64_t>{1, 2 * k - 1, 2 * k, 2 * k + 1, 5 * k + 3, 3001}) {
        v.push_back({{dtype, n, s, 1, ld, 0, 0, 0}, 3 * a, a});
        v.push_back({{dtype, s, n, 1, 0, ld, 0, 0}, a, 3 * a});
      }
      v.push_back({{dtype, 77, s, 3, ld, 0, 77 * ld + 5, 77 * s + 3}, a, 16});
      v.push_back({{dtype, s, 77, 3, 0, ld, 77 * s + 3, 77 * ld + 5}, 16, a});
    }
  for (std::int64_t s : std::vector<std::int64_t>{1, k - 1}) {
    if (s < 1 || s >= k) continue;
    const std::int64_t n = (std::int64_t{5} << 19) / ((s + 1) * static_cast<std::int64_t>(esize)) + 3;
    v.push_back({{dtype, n, s, 1, s + 1, 0, 0, 0}});
    v.push_back({{dtype, s, n, 1, 0, s + 1, 0, 0}});
  }
  // Short sides of K elements or more (the wide runs where they win, the tiles elsewhere), up to 65
  // elements and records of 512 bytes, packed or padded, batched with gaps; long sides around the
  // pairs of groups.
  const std::int64_t most = 512 / static_cast<std::int64_t>(esize);
  for (std::int64_t s : std::vector<std::int64_t>{k, k + 1, 2 * k - 1, 2 * k + 3, 3 * k, 47, 65, most})
    for (std::int64_t n : std::vector<std::int64_t>{1, 2 * k - 1, 2 * k + 1, 4 * k + 5, 3001}) {
      v.push_back({{dtype, n, s}, a, 16});
      v.push_back({{dtype, s, n}, 16, a});
      v.push_back({{dtype, n, s, 2, s + 3, n + 5, n * (s + 3) + 1, s * (n + 5) + 2}, 3 * a, a});
      v.push_back({{dtype, s, n, 2, n + 5, s + 3, s * (n + 5) + 2, n * (s + 3) + 1}, a, 3 * a});
    }
  // Batches of small matrices, whose long side may hold no group (k) or no pair of groups (2k).
  for (std::int64_t s : std::vector<std::int64_t>{k + 1, 2 * k + 3})
    for (std::int64_t n : std::vector<std::int64_t>{k - 1, k, k + 1, 2 * k - 1, 2 * k, 3 * k + 1}) {
      if (n < 1) continue;
      v.push_back({{dtype, n, s, 7, 0, 0, 0, 0}});
      v.push_back({{dtype, s, n, 7, 0, 0, s * n + 3, s * n + 1}, a, 16});
    }
  // Matrices of 2.5 MiB, which threads share, at the short sides around k (shuffles or blocks under
  // it, chunks over it) and in both directions.
  for (std::int64_t s : std::vector<std::int64_t>{k - 1, k + 1}) {
    if (s < 1) continue;
    const std::int64_t n = (std::int64_t{5} << 19) / (s * static_cast<std::int64_t>(esize)) + 3;
    v.push_back({{dtype, n, s}});
    v.push_back({{dtype, s, n}, a, 0});
  }
  // Outputs of 16 MiB or more (where the tiles of cpu_blocked stream their stores), planes on and off the
  // 16-byte grid.
  const std::int64_t s = k > 2 ? 3 : 1, big = (std::int64_t{16} << 20) / (s * static_cast<std::int64_t>(esize)) + 5;
  const std::int64_t plane = (big + 16) / 16 * 16;  // elements, a whole number of 16-byte vectors
  v.push_back({{dtype, big, s, 1, 0, plane, 0, 0}});
  v.push_back({{dtype, big, s, 1, 0, plane, 0, 0}, 0, a});
  v.push_back({{dtype, s, big}});
  v.push_back({{dtype, s, big}, a, 3 * a});
  return v;
}

class CpuShortSide : public ::testing::TestWithParam<DType> {};

TEST_P(CpuShortSide, MatchesReferenceOnEveryShortSide) {
  for (const ShiftedCase& k : short_side_cases(GetParam())) expect_matches(k);
}

// The short-side path needs AVX2; without it the element loops of cpu_blocked run these shapes.
TEST_P(CpuShortSide, MatchesReferenceOnEveryShortSideWithoutAvx2) {
  ASSERT_EQ(setenv("XPOSE_CPU_AVX2", "0", 1), 0);
  for (const ShiftedCase& k : short_side_cases(GetParam())) expect_matches(k);
  unsetenv("XPOSE_CPU_AVX2");
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, CpuShortSide,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const auto& info) { return std::string(xpose::dtype_name(info.param)); });

}  // namespace
