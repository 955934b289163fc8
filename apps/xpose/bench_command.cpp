// `xpose bench`: options, defaults per backend, the loop over shapes, and the exit status.
#include "bench_command.hpp"

#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench_in_place.hpp"
#include "bench_permute.hpp"
#include "bench_report.hpp"
#include "bench_runner.hpp"
#include "bench_suite.hpp"

namespace xpose_cli {
namespace {

using xpose::Algorithm;

// The tutorials' sweep on the GPU; on the CPU a smaller one that ends within a minute on 2 cores.
const std::vector<std::int64_t> kGpuDefaultSizes = {256, 512, 1024, 2048, 4096, 8192};
const std::vector<std::int64_t> kCpuDefaultSizes = {256, 512, 1024, 2048, 4096};
constexpr int kGpuDefaultWarmup = 3, kGpuDefaultIters = 25;
constexpr int kCpuDefaultWarmup = 1, kCpuDefaultIters = 5;

const std::vector<Algorithm> kGpuLadder = {Algorithm::copy, Algorithm::naive_read, Algorithm::naive_write,
                                           Algorithm::tiled, Algorithm::tiled_padded};
const std::vector<Algorithm> kCpuKernels = {Algorithm::cpu_reference, Algorithm::cpu_blocked};

// A case must leave room on the device: its buffers (with rotation for small ones) under 45% of memory.
bool fits_device_memory(const xpose::TransposeDesc& desc, const xpose::DeviceInfo& device, std::string& why) {
  const xpose::TransposeDesc d = xpose::resolved(desc);
  const double bytes = static_cast<double>(xpose::input_span_elements(d) + xpose::output_span_elements(d)) *
                       static_cast<double>(xpose::dtype_size(d.dtype));
  if (bytes <= 0.45 * static_cast<double>(device.global_memory_bytes)) return true;
  why = "needs " + std::to_string(static_cast<long long>(bytes / (1 << 20))) + " MiB of device memory";
  return false;
}

int fail(const std::string& message) {
  std::cerr << "xpose bench: error: " << message << "\n";
  return 2;
}

// "ladder", "all" or a comma list of names, checked against the backend.
bool resolve_kernels(const std::string& spec, xpose::Backend backend, std::vector<Algorithm>& out,
                     bool& measured, std::string& error) {
  const bool gpu = backend == xpose::Backend::cuda;
  if (spec == "ladder" || spec == "all") {
    out = gpu ? kGpuLadder : kCpuKernels;
    if (gpu && spec == "all") {
      out.push_back(Algorithm::vendor_geam);
      out.push_back(Algorithm::automatic);  // the fast path, as the planner picks it
    }
    return true;
  }
  std::stringstream ss(spec);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name == kMeasuredKernel) {
      measured = true;
      continue;
    }
    Algorithm a;
    if (!xpose::parse_algorithm(name, a)) {
      error = "--kernels: unknown kernel '" + name + "' (ladder, all, auto, copy, naive_read, naive_write, " +
              "tiled, tiled_padded, tiled_vec, tiled_unaligned, skinny, gather, tiled_sectors, small_batch, " +
              "vector_copy, geam, tuned, cpu_reference, cpu_blocked)";
      return false;
    }
    const xpose::Backend needs = xpose::algorithm_backend(a);
    if (needs != xpose::Backend::automatic && needs != backend) {
      error = "--kernels: '" + name + "' runs on the " + xpose::backend_name(needs) + " backend, not " +
              xpose::backend_name(backend);
      return false;
    }
    out.push_back(a);
  }
  if (out.empty() && !measured) {
    error = "--kernels: empty list";
    return false;
  }
  return true;
}

// The run's context: argv, backend, the device's properties on the GPU, and the warm-up and timed
// runs asked for or the backend's defaults.
xpose::Status make_run_context(const BenchOptions& o, xpose::Backend backend, const std::vector<std::string>& argv,
                               RunContext& ctx) {
  const bool gpu = backend == xpose::Backend::cuda;
  ctx.argv = argv;
  ctx.backend = xpose::backend_name(backend);
  if (gpu) {
    XPOSE_RETURN_IF_ERROR(xpose::device_info(ctx.device));
    ctx.have_device = true;
  }
  ctx.warmup = o.warmup != kUnset ? o.warmup : (gpu ? kGpuDefaultWarmup : kCpuDefaultWarmup);
  ctx.iters = o.iters != kUnset ? o.iters : (gpu ? kGpuDefaultIters : kCpuDefaultIters);
  return xpose::Status::ok_status();
}

// The JSON and CSV files asked for (--json, --csv).
xpose::Status write_reports(const BenchOptions& o, const RunContext& ctx, const std::vector<BenchRecord>& records) {
  if (!o.json_path.empty()) XPOSE_RETURN_IF_ERROR(write_json(o.json_path, ctx, records));
  if (!o.csv_path.empty()) XPOSE_RETURN_IF_ERROR(write_csv(o.csv_path, records));
  return xpose::Status::ok_status();
}

// `xpose bench --permute`: one tensor, the memcpy baseline and the asked-for plans.
int run_permute_bench(const BenchOptions& o, xpose::Backend backend, bool fell_back,
                      const std::vector<std::string>& argv) {
  const bool gpu = backend == xpose::Backend::cuda;
  PermuteCaseSettings cs;
  cs.backend = backend;
  cs.desc = xpose::PermuteDesc{o.dtype, o.extents, o.perm};
  std::stringstream ss(o.kernels.empty() ? "auto" : o.kernels);
  std::string name;
  while (std::getline(ss, name, ',')) {
    Algorithm a;
    if (!xpose::parse_algorithm(name, a) || (a != Algorithm::automatic && a != Algorithm::cpu_reference))
      return fail("--kernels with --permute: '" + name + "' is not auto or cpu_reference");
    if (a == Algorithm::cpu_reference && gpu) return fail("--kernels cpu_reference runs on the cpu backend, not cuda");
    cs.kernels.push_back(a);
  }
  xpose::PermutePlan check;  // refuse a bad descriptor before printing anything
  const xpose::Status valid = xpose::make_plan(check, cs.desc, {xpose::Backend::cpu});
  if (!valid.ok()) return fail(permute_label(cs.desc) + ": " + valid.message());
  RunContext ctx;
  const xpose::Status made = make_run_context(o, backend, argv, ctx);
  if (!made.ok()) return fail(made.message());
  cs.l2_bytes = gpu ? ctx.device.l2_bytes : 0;
  cs.warmup = ctx.warmup;
  cs.iters = ctx.iters;
  cs.seed = o.seed;

  std::cout << "xpose bench: permutation, verified against the CPU reference\n";
  if (fell_back) std::cout << "No GPU found: running the CPU backend.\n";
  std::cout << "Device: " << (gpu ? ctx.device.name : std::string("host CPU")) << "; " << ctx.warmup << " warm-up + "
            << ctx.iters << " timed runs per kernel (median), input seed " << o.seed
            << "; % copy is against memcpy of the same bytes in this run\n\n"
            << permute_label(cs.desc) << "\n";
  std::vector<BenchRecord> records;
  const xpose::Status s = run_permute_case(cs, records);
  if (!s.ok()) return fail(permute_label(cs.desc) + ": " + s.message());
  print_case_rows(std::cout, records, 0);
  const xpose::Status written = write_reports(o, ctx, records);
  if (!written.ok()) return fail(written.message());
  for (const auto& r : records)
    if (r.verification == "FAILED") {
      std::cerr << "xpose bench: the permutation FAILED verification\n";
      return 1;
    }
  return 0;
}

// `xpose bench --in-place`: each shape transposed in its own buffer, against memcpy (non-square
// shapes with packed rows; on the GPU, where a column of the shorter side fits a block's shared
// memory).
int run_in_place_bench(const BenchOptions& o, xpose::Backend backend, bool fell_back,
                       const std::vector<std::string>& argv) {
  const bool gpu = backend == xpose::Backend::cuda;
  if (!o.kernels.empty() && o.kernels != "auto") return fail("--kernels with --in-place: only auto (the default)");
  RunContext ctx;
  const xpose::Status made = make_run_context(o, backend, argv, ctx);
  if (!made.ok()) return fail(made.message());
  std::vector<Shape> shapes = o.shapes;
  if (shapes.empty())
    for (std::int64_t n : gpu ? kGpuDefaultSizes : kCpuDefaultSizes) shapes.push_back({n, n});
  std::vector<InPlaceCaseSettings> cases;
  for (const Shape& shape : shapes) {
    InPlaceCaseSettings cs;
    cs.backend = backend;
    cs.desc = xpose::TransposeDesc{o.dtype, shape.rows, shape.cols, o.batch, o.ld_in};
    cs.label = std::string(xpose::dtype_name(o.dtype)) + " " + std::to_string(shape.rows) + "x" +
               std::to_string(shape.cols) + (o.batch > 1 ? " x" + std::to_string(o.batch) : "") +
               (o.ld_in ? " ld " + std::to_string(o.ld_in) : "") + " in place";
    xpose::InPlacePlan check;  // refuse a bad shape before printing anything
    const xpose::Status valid = xpose::make_plan(check, cs.desc, {backend});
    if (!valid.ok()) return fail(cs.label + ": " + valid.message());
    cs.warmup = ctx.warmup;
    cs.iters = ctx.iters;
    cs.seed = o.seed;
    cs.l2_bytes = gpu ? ctx.device.l2_bytes : 0;
    cases.push_back(cs);
  }
  std::cout << "xpose bench: in-place transposes, verified against the CPU reference\n";
  if (fell_back) std::cout << "No GPU found: running the CPU backend.\n";
  std::cout << "Device: " << (gpu ? ctx.device.name : std::string("host CPU")) << "; " << ctx.warmup << " warm-up + "
            << ctx.iters << " timed runs (median), input seed " << o.seed
            << "; % copy is against memcpy of the same bytes in this run\n";
  std::vector<BenchRecord> records;
  for (const InPlaceCaseSettings& cs : cases) {
    const std::size_t first = records.size();
    const xpose::Status s = run_in_place_case(cs, records);
    if (!s.ok()) return fail(cs.label + ": " + s.message());
    print_case_header(std::cout, records[first]);
    print_case_rows(std::cout, records, first);
  }
  const xpose::Status written = write_reports(o, ctx, records);
  if (!written.ok()) return fail(written.message());
  for (const auto& r : records)
    if (r.verification == "FAILED") {
      std::cerr << "xpose bench: " << r.case_label << " FAILED verification\n";
      return 1;
    }
  return 0;
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, BenchArgs& a) {
  CLI::App* bench = app.add_subcommand("bench", "Time and verify every transpose kernel against memcpy");
  bench->add_option("--sizes", a.sizes, "Square sizes, comma separated (default GPU: 256..8192, CPU: 256..4096)");
  bench->add_option("--shape", a.shapes, "ROWSxCOLS, repeatable; non-square allowed")->allow_extra_args(false);
  bench->add_option("--dtype", a.dtype, "Element type: " + xpose::dtype_names() + " (default f64)");
  bench->add_option("--kernels", a.kernels,
                    "ladder, all (ladder + geam + auto) or a comma list of kernel names; auto = the planner's "
                    "choice, tuned = the measured planner's (candidates timed once per shape class)");
  bench->add_option("--batch", a.batch, "Matrices per case (B x R x C -> B x C x R), packed one after another");
  bench->add_option("--ld-in", a.ld_in, "Input row stride in elements (>= cols; default packed)");
  bench->add_option("--ld-out", a.ld_out, "Output row stride in elements (>= rows; default packed)");
  bench->add_option("--offset-in", a.offset_in,
                    "Input pointer this many elements past its allocation's start (misaligned bases; the memcpy "
                    "baseline copies between the allocations' starts)");
  bench->add_option("--offset-out", a.offset_out, "Output pointer this many elements past its allocation's start");
  bench->add_option("--extents", a.extents,
                    "With --permute: a packed tensor's extents, outermost first (e.g. 8,16,512,64)");
  bench->add_option("--permute", a.permute,
                    "Time one permutation of the --extents tensor: output dimension k is input dimension "
                    "perm[k] (e.g. 0,2,1,3); --kernels auto (default) and/or cpu_reference");
  bench->add_flag("--in-place", a.in_place,
                  "Transpose matrices in their own buffer (--sizes or --shape, --batch, --ld-in; non-square shapes "
                  "need packed rows); kernel auto");
  bench->add_flag("--suite", a.suite, "Run the benchmark suite (5 dtypes x 12 shapes) with auto and geam");
  bench->add_option("--warmup", a.warmup, "Untimed runs before timing (default GPU 3, CPU 1)");
  bench->add_option("--iters", a.iters, "Timed runs; the median is reported (default GPU 25, CPU 5)");
  bench->add_option("--backend", a.backend, "auto (GPU when present), cuda or cpu");
  bench->add_option("--json", a.json_path, "Write results as JSON to this file");
  bench->add_option("--csv", a.csv_path, "Write results as CSV to this file");
  bench->add_option("--seed", a.seed, "Seed of the random input (printed with every run)");
  return bench;
}

int run_bench(const BenchArgs& args, const std::vector<std::string>& argv) {
  BenchOptions o;
  std::string error;
  if (!resolve_bench_options(args, o, error)) return fail(error);

  const int devices = xpose::device_count();
  xpose::Backend backend = o.backend;
  if (backend == xpose::Backend::cuda && devices == 0)
    return fail(xpose::gpu_backend_built() ? "--backend cuda: no GPU device found"
                                           : "--backend cuda: this build of xpose has no GPU backend");
  const bool fell_back = backend == xpose::Backend::automatic && devices == 0;
  if (backend == xpose::Backend::automatic) backend = devices > 0 ? xpose::Backend::cuda : xpose::Backend::cpu;
  const bool gpu = backend == xpose::Backend::cuda;

  if (!o.perm.empty()) return run_permute_bench(o, backend, fell_back, argv);
  if (o.in_place) return run_in_place_bench(o, backend, fell_back, argv);

  std::vector<Algorithm> kernels;
  bool measured = false;
  const std::string spec = !o.kernels.empty() ? o.kernels : !o.suite ? "all" : gpu ? "auto,geam" : "auto";
  if (!resolve_kernels(spec, backend, kernels, measured, error)) return fail(error);

  RunContext ctx;
  const xpose::Status made = make_run_context(o, backend, argv, ctx);
  if (!made.ok()) return fail(made.message());
  std::vector<SuiteCase> cases;
  if (o.suite) {
    cases = suite_cases();
  } else {
    if (o.shapes.empty())
      for (std::int64_t n : gpu ? kGpuDefaultSizes : kCpuDefaultSizes) o.shapes.push_back({n, n});
    for (const Shape& shape : o.shapes) {
      SuiteCase c;
      c.desc = xpose::TransposeDesc{o.dtype, shape.rows, shape.cols, o.batch, o.ld_in, o.ld_out};
      c.label = std::string(xpose::dtype_name(o.dtype)) + " " + std::to_string(shape.rows) + "x" +
                std::to_string(shape.cols);
      if (o.offset_in) c.label += " in+" + std::to_string(o.offset_in);
      if (o.offset_out) c.label += " out+" + std::to_string(o.offset_out);
      cases.push_back(c);
    }
  }

  std::cout << "xpose bench: transpose out[c][r] = in[r][c], verified against the CPU reference\n";
  if (fell_back)
    std::cout << "No GPU found: running the CPU backend (sizes 256..4096, 1 warm-up + 5 timed runs by default).\n";
  if (gpu) {
    const auto& d = ctx.device;
    std::cout << "Device: " << d.name << " (" << d.arch << ", " << d.sm_count << " SMs, " << d.l2_bytes / (1 << 20)
              << " MiB L2)\n";
  } else {
    std::cout << "Device: host CPU\n";
  }
  std::cout << (o.suite ? std::string("suite") : "dtype " + std::string(xpose::dtype_name(o.dtype))) << ", "
            << ctx.warmup << " warm-up + " << ctx.iters
            << " timed runs per kernel (median), input seed " << o.seed
            << "; % copy is against memcpy of the same bytes in this run\n";

  std::vector<BenchRecord> records;
  for (const SuiteCase& sc : cases) {
    CaseSettings cs;
    cs.backend = backend;
    cs.desc = sc.desc;
    cs.label = sc.label;
    cs.kernels = kernels;
    cs.measured = measured;
    cs.warmup = ctx.warmup;
    cs.iters = ctx.iters;
    cs.seed = o.seed;
    cs.l2_bytes = gpu ? ctx.device.l2_bytes : 0;
    cs.offset_in = o.offset_in;
    cs.offset_out = o.offset_out;
    const std::size_t first = records.size();
    std::string too_big;
    if (gpu && !fits_device_memory(sc.desc, ctx.device, too_big)) {
      std::cout << "\n" << sc.label << ": skipped, " << too_big << "\n";
      continue;
    }
    const xpose::Status s = run_case(cs, records);
    if (!s.ok()) return fail(sc.label + ": " + s.message());
    print_case_header(std::cout, records[first]);
    print_case_rows(std::cout, records, first);
  }
  if (o.suite)
    print_suite_table(std::cout, ctx.have_device ? ctx.device.name : "host CPU", records);
  else
    print_summary(std::cout, ctx, records);

  const xpose::Status written = write_reports(o, ctx, records);
  if (!written.ok()) return fail(written.message());
  int failed = 0;
  for (const auto& r : records) failed += r.verification == "FAILED";
  if (failed > 0) {
    std::cerr << "xpose bench: " << failed << " kernel result(s) FAILED verification\n";
    return 1;
  }
  return 0;
}

}  // namespace xpose_cli
