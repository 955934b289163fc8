// Parsing of shapes and size lists given to `xpose bench`.
#include "bench_options.hpp"

#include <cctype>
#include <limits>
#include <sstream>

namespace xpose_cli {
namespace {

// Digits only (no sign, no spaces), value >= 1, fits in int64.
bool parse_extent(const std::string& text, std::int64_t& out) {
  if (text.empty() || text.size() > 18) return false;
  for (char ch : text)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  out = std::stoll(text);
  return out >= 1;
}

}  // namespace

bool parse_dtype_option(const std::string& text, xpose::DType& out, std::string& error) {
  if (xpose::parse_dtype(text, out)) return true;
  error = "--dtype '" + text + "': unknown type (known: " + xpose::dtype_names() + ")";
  return false;
}

bool parse_shape(const std::string& text, Shape& out, std::string& error) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos || !parse_extent(text.substr(0, x), out.rows) ||
      !parse_extent(text.substr(x + 1), out.cols)) {
    error = "--shape '" + text + "': expected ROWSxCOLS with both extents >= 1 (e.g. 8192x8192)";
    return false;
  }
  return true;
}

bool parse_sizes(const std::string& text, std::vector<Shape>& out, std::string& error) {
  std::stringstream ss(text);
  std::string item;
  std::vector<Shape> shapes;
  while (std::getline(ss, item, ',')) {
    std::int64_t n = 0;
    if (!parse_extent(item, n)) {
      error = "--sizes '" + text + "': expected a comma list of sizes >= 1 (e.g. 256,512,1024)";
      return false;
    }
    shapes.push_back({n, n});
  }
  if (shapes.empty()) {
    error = "--sizes: empty list";
    return false;
  }
  out.insert(out.end(), shapes.begin(), shapes.end());
  return true;
}

bool resolve_bench_options(const BenchArgs& args, BenchOptions& out, std::string& error) {
  BenchOptions o;
  if (!args.sizes.empty() && !parse_sizes(args.sizes, o.shapes, error)) return false;
  for (const auto& text : args.shapes) {
    Shape shape;
    if (!parse_shape(text, shape, error)) return false;
    o.shapes.push_back(shape);
  }
  if (!parse_dtype_option(args.dtype, o.dtype, error)) return false;
  if (!xpose::parse_backend(args.backend, o.backend)) {
    error = "--backend '" + args.backend + "': expected auto, cuda or cpu";
    return false;
  }
  if (args.warmup != kUnset && args.warmup < 0) {
    error = "--warmup must be >= 0 (got " + std::to_string(args.warmup) + ")";
    return false;
  }
  if (args.iters != kUnset && args.iters < 1) {
    error = "--iters must be >= 1 (got " + std::to_string(args.iters) + ")";
    return false;
  }
  if (args.batch < 1) {
    error = "--batch must be >= 1 (got " + std::to_string(args.batch) + ")";
    return false;
  }
  if (args.ld_in < 0 || args.ld_out < 0) {
    error = "--ld-in and --ld-out must be >= 0 (0 means packed)";
    return false;
  }
  if (args.suite && (!o.shapes.empty() || args.batch != 1 || args.ld_in || args.ld_out)) {
    error = "--suite runs its own cases: it takes no --sizes, --shape, --batch, --ld-in or --ld-out";
    return false;
  }
  o.batch = args.batch;
  o.ld_in = args.ld_in;
  o.ld_out = args.ld_out;
  o.suite = args.suite;
  o.warmup = args.warmup;
  o.iters = args.iters;
  o.kernels = args.kernels;
  o.json_path = args.json_path;
  o.csv_path = args.csv_path;
  o.seed = args.seed;
  out = o;
  return true;
}

}  // namespace xpose_cli
