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

namespace {

// The largest --offset-in / --offset-out: enough for every place on the 16-byte grid and beyond.
constexpr std::int64_t kMaxOffset = 4096;

// A comma list of integers >= `low` ("0,2,1,3"); false on anything else.
bool parse_int_list(const std::string& text, std::int64_t low, std::vector<std::int64_t>& out) {
  std::stringstream ss(text);
  std::string item;
  out.clear();
  while (std::getline(ss, item, ',')) {
    std::int64_t v = 0;
    if (item == "0" && low == 0) {
      v = 0;
    } else if (!parse_extent(item, v) || v < low) {
      return false;
    }
    out.push_back(v);
  }
  return !out.empty() && text.back() != ',';
}

bool parse_permutation(const BenchArgs& args, BenchOptions& o, std::string& error) {
  if (args.permute.empty() && args.extents.empty()) return true;
  if (args.permute.empty() || args.extents.empty()) {
    error = "--permute and --extents go together (e.g. --extents 8,16,512,64 --permute 0,2,1,3)";
    return false;
  }
  std::vector<std::int64_t> perm;
  if (!parse_int_list(args.permute, 0, perm)) {
    error = "--permute '" + args.permute + "': expected a comma list of dimension numbers (e.g. 0,2,1,3)";
    return false;
  }
  if (!parse_int_list(args.extents, 1, o.extents)) {
    error = "--extents '" + args.extents + "': expected a comma list of extents >= 1 (e.g. 8,16,512,64)";
    return false;
  }
  for (std::int64_t p : perm) {
    if (p >= static_cast<std::int64_t>(o.extents.size())) {
      error = "--permute '" + args.permute + "': dimension " + std::to_string(p) + " does not exist (" +
              std::to_string(o.extents.size()) + " extents)";
      return false;
    }
    o.perm.push_back(static_cast<int>(p));
  }
  if (args.suite || !o.shapes.empty() || args.batch != 1 || args.ld_in || args.ld_out) {
    error = "--permute runs one tensor: it takes no --suite, --sizes, --shape, --batch, --ld-in or --ld-out";
    return false;
  }
  return true;
}

}  // namespace

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
  if (args.offset_in < 0 || args.offset_out < 0 || args.offset_in > kMaxOffset || args.offset_out > kMaxOffset) {
    error = "--offset-in and --offset-out must be 0.." + std::to_string(kMaxOffset) + " elements";
    return false;
  }
  if ((args.offset_in || args.offset_out) && (args.suite || args.in_place || !args.permute.empty())) {
    error = "--offset-in and --offset-out apply to --sizes or --shape cases, not to --suite, --in-place or --permute";
    return false;
  }
  if (args.in_place && (args.suite || !args.permute.empty() || args.ld_out)) {
    error = "--in-place transposes matrices in their own buffer: it takes no --suite, --permute or --ld-out";
    return false;
  }
  if (args.suite && (!o.shapes.empty() || args.batch != 1 || args.ld_in || args.ld_out)) {
    error = "--suite runs its own cases: it takes no --sizes, --shape, --batch, --ld-in or --ld-out";
    return false;
  }
  if (!parse_permutation(args, o, error)) return false;
  o.batch = args.batch;
  o.ld_in = args.ld_in;
  o.ld_out = args.ld_out;
  o.offset_in = args.offset_in;
  o.offset_out = args.offset_out;
  o.suite = args.suite;
  o.in_place = args.in_place;
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
