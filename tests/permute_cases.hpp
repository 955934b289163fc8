// Permutations the tests run on every backend: hand-picked ones that reach each route, and random
// ones from a fixed seed; the expected output comes from the oracle's loops on the unreduced
// descriptor.
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cpu/permute.hpp"
#include "test_support.hpp"

namespace xpose_test {

inline std::size_t permute_bytes(const xpose::PermuteDesc& d) {
  std::size_t n = xpose::dtype_size(d.dtype);
  for (std::int64_t e : d.extents) n *= static_cast<std::size_t>(e);
  return n;
}

inline std::string describe(const xpose::PermuteDesc& d) {
  std::string s = std::string(xpose::dtype_name(d.dtype)) + " [";
  for (std::size_t i = 0; i < d.extents.size(); ++i) s += (i ? "x" : "") + std::to_string(d.extents[i]);
  s += "] perm ";
  for (std::size_t i = 0; i < d.perm.size(); ++i) s += (i ? "," : "") + std::to_string(d.perm[i]);
  return s;
}

inline std::vector<unsigned char> expected_permute(const xpose::PermuteDesc& d, const std::vector<unsigned char>& in) {
  std::vector<unsigned char> out(permute_bytes(d), kPoison);
  xpose::cpu::reference_permute(d, in.data(), out.data());
  return out;
}

// Reach every route: copies, transposes (batched, of wider elements), runs, slices small, narrow
// and large (past 1 MiB for 4-byte elements and up), rank 8, and extents of 1 anywhere.
inline std::vector<xpose::PermuteDesc> routed_permutes(xpose::DType t) {
  return {
      {t, {1000}, {0}},
      {t, {4, 6}, {0, 1}},
      {t, {1, 1, 1}, {2, 0, 1}},
      {t, {5, 1, 7}, {2, 1, 0}},                    // a 2-D transpose once the 1 is dropped
      {t, {2, 3, 4, 5}, {0, 2, 3, 1}},              // NCHW -> NHWC
      {t, {3, 64, 33, 35}, {0, 2, 3, 1}},
      {t, {3, 33, 35, 64}, {0, 3, 1, 2}},           // NHWC -> NCHW
      {t, {2, 5, 77, 4}, {0, 2, 1, 3}},             // heads swap, 4-element rows: wider elements or runs
      {t, {2, 6, 77, 64}, {0, 2, 1, 3}},            // runs of 64
      {t, {3, 1, 130, 1, 3}, {4, 3, 1, 0, 2}},
      {t, {37, 41, 43}, {2, 1, 0}},                 // slices of 43 x 37
      {t, {3, 5, 7, 11, 13}, {4, 2, 0, 3, 1}},      // small slices
      {t, {600, 3, 500}, {2, 1, 0}},                // slices of 1.2 MB at 4 bytes per element
      {t, {2, 3, 2, 2, 40, 70}, {0, 1, 4, 2, 5, 3}},  // pixel shuffle: slices of 70 x 2
      {t, {2, 3, 40, 2, 70, 2}, {0, 1, 3, 5, 2, 4}},  // its inverse: slices of 2 x 70
      {t, {1000, 7, 3}, {2, 1, 0}},                 // slices of 3 x 1000, more than one narrow tile long
      {t, {2, 2, 2, 2, 2, 2, 2, 3}, {7, 6, 5, 4, 3, 2, 1, 0}},
      {t, {2, 3, 2, 3, 2, 3, 2, 3}, {1, 3, 5, 7, 0, 2, 4, 6}},
  };
}

// Random ranks 1-6, extents mostly small, one dimension sometimes up to 300, every permutation.
inline std::vector<xpose::PermuteDesc> random_permutes(xpose::DType t, std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<xpose::PermuteDesc> v;
  while (static_cast<int>(v.size()) < count) {
    xpose::PermuteDesc d{t, {}, {}};
    const int rank = std::uniform_int_distribution<int>(1, 6)(rng);
    std::int64_t elements = 1;
    for (int i = 0; i < rank; ++i) {
      const bool long_one = std::uniform_int_distribution<int>(0, 5)(rng) == 0;
      const std::int64_t e = std::uniform_int_distribution<std::int64_t>(1, long_one ? 300 : 7)(rng);
      d.extents.push_back(e);
      elements *= e;
    }
    if (elements > 300000) continue;
    d.perm.resize(static_cast<std::size_t>(rank));
    std::iota(d.perm.begin(), d.perm.end(), 0);
    std::shuffle(d.perm.begin(), d.perm.end(), rng);
    v.push_back(d);
  }
  return v;
}

constexpr std::uint64_t kRandomPermuteSeed = 0x9e2026;

}  // namespace xpose_test
