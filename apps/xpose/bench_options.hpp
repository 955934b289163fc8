// What `xpose bench` was asked to do, and the parser that turns arguments into it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xpose/xpose.hpp"

namespace xpose_cli {

struct Shape {
  std::int64_t rows = 0, cols = 0;
};

// Marks an integer option the user did not give (the backend's default applies).
constexpr int kUnset = -2147483647 - 1;

struct BenchOptions {
  std::vector<Shape> shapes;       // empty: the backend's default sweep
  xpose::DType dtype = xpose::DType::f64;
  std::string kernels;             // "ladder", "all" or a comma list; empty: all (auto,geam with --suite)
  int warmup = kUnset;             // kUnset: the backend's default
  int iters = kUnset;
  xpose::Backend backend = xpose::Backend::automatic;
  std::int64_t batch = 1, ld_in = 0, ld_out = 0;  // applied to every shape; 0 = packed
  // Elements from an allocation's start to the pointer the kernels get (--offset-in / --offset-out).
  std::int64_t offset_in = 0, offset_out = 0;
  bool suite = false;
  bool in_place = false;           // --in-place: matrices transposed in their own buffer
  // --permute / --extents: one permutation case instead of matrices (perm empty: none).
  std::vector<int> perm;
  std::vector<std::int64_t> extents;
  std::string json_path, csv_path;
  std::uint64_t seed = 20261122;
};

// The arguments as typed, before checking.
struct BenchArgs {
  std::vector<std::string> shapes;
  std::string sizes, dtype = "f64", kernels, backend = "auto", json_path, csv_path, permute, extents;
  int warmup = kUnset, iters = kUnset;
  std::int64_t batch = 1, ld_in = 0, ld_out = 0, offset_in = 0, offset_out = 0;
  bool suite = false, in_place = false;
  std::uint64_t seed = 20261122;
};

// Checks and converts every argument; false with a one-line message on the first bad one.
bool resolve_bench_options(const BenchArgs& args, BenchOptions& out, std::string& error);

// Parses a --dtype value; false with a message listing the known names.
bool parse_dtype_option(const std::string& text, xpose::DType& out, std::string& error);

// Parses "RxC" ("8192x8192"); false with a message when malformed or not positive.
bool parse_shape(const std::string& text, Shape& out, std::string& error);
// Parses "256,512" into square shapes.
bool parse_sizes(const std::string& text, std::vector<Shape>& out, std::string& error);

}  // namespace xpose_cli
