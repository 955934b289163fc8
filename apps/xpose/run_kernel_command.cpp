// `xpose run-kernel`: set up buffers, then exactly one execute() inside the profiler's range, then check it.
#include "run_kernel_command.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_options.hpp"
#include "ncu_metrics.hpp"
#include "random_input.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {
namespace {

constexpr unsigned char kPoison = 0xA5;

int fail(const std::string& message) {
  std::cerr << "xpose run-kernel: error: " << message << "\n";
  return 2;
}

}  // namespace

CLI::App* add_run_kernel_command(CLI::App& app, RunKernelArgs& a) {
  CLI::App* cmd = app.add_subcommand("run-kernel", "Run one kernel once between profiler start/stop (for ncu)");
  cmd->group("");  // internal: `xpose profile` runs it under Nsight Compute
  cmd->add_option("--kernel", a.kernel, "GPU kernel name (as for bench --kernels), or auto");
  cmd->add_option("--shape", a.shape, "ROWSxCOLS");
  cmd->add_option("--dtype", a.dtype, "Element type");
  cmd->add_option("--seed", a.seed, "Seed of the random input");
  cmd->add_flag("--no-verify", a.no_verify, "Skip the check against the CPU transpose");
  return cmd;
}

int run_kernel(const RunKernelArgs& args) {
  Shape shape;
  std::string error;
  if (!parse_shape(args.shape, shape, error)) return fail(error);
  xpose::DType dtype;
  if (!parse_dtype_option(args.dtype, dtype, error)) return fail(error);
  xpose::Algorithm algorithm;
  if (!xpose::parse_algorithm(args.kernel, algorithm) || xpose::algorithm_backend(algorithm) == xpose::Backend::cpu)
    return fail("--kernel '" + args.kernel + "': not a GPU kernel name");
  if (xpose::device_count() == 0)
    return fail(xpose::gpu_backend_built() ? "no GPU device found" : "this build of xpose has no GPU backend");
  xpose::DeviceInfo device;
  if (const xpose::Status s = xpose::device_info(device); !s.ok()) return fail(s.message());

  xpose::TransposeDesc desc;
  desc.dtype = dtype;
  desc.rows = shape.rows;
  desc.cols = shape.cols;
  const auto marker = [&](const std::string& rest) {
    std::cout << kRunKernelMarker << "kernel=" << args.kernel << " | shape=" << shape.rows << "x" << shape.cols
              << " | dtype=" << xpose::dtype_name(dtype) << " | device=" << device.name << " | " << rest
              << std::endl;
  };
  xpose::Plan plan;
  const xpose::Status planned = xpose::make_plan(plan, desc, {xpose::Backend::cuda, algorithm});
  if (planned.code() == xpose::StatusCode::unsupported) {  // e.g. geam on f16: a row that says so
    marker("skipped=" + planned.message());
    return 0;
  }
  if (!planned.ok()) return fail(args.kernel + ": " + planned.message());
  const xpose::TransposeDesc& d = plan.desc();
  const std::size_t esize = xpose::dtype_size(d.dtype);
  const std::size_t in_bytes = static_cast<std::size_t>(xpose::input_span_elements(d)) * esize;
  const std::size_t out_bytes =
      std::max(in_bytes, static_cast<std::size_t>(xpose::output_span_elements(d)) * esize);

  // Everything but the one execute() happens outside the profiler's range, so ncu sees only the kernel.
  const std::vector<unsigned char> input = random_values(d.dtype, in_bytes, args.seed);
  xpose::DeviceBuffer in, out;
  const auto setup = [&]() -> xpose::Status {
    XPOSE_RETURN_IF_ERROR(in.allocate(in_bytes));
    XPOSE_RETURN_IF_ERROR(out.allocate(out_bytes));
    XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(in.data(), input.data(), in_bytes));
    XPOSE_RETURN_IF_ERROR(xpose::fill_device_bytes(out.data(), kPoison, out_bytes));
    return xpose::synchronize_device();
  };
  if (const xpose::Status s = setup(); !s.ok()) return fail(s.message());

  const auto profiled = [&]() -> xpose::Status {
    XPOSE_RETURN_IF_ERROR(xpose::profiler_start());
    XPOSE_RETURN_IF_ERROR(xpose::execute(plan, in.data(), out.data()));
    XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
    return xpose::profiler_stop();
  };
  if (const xpose::Status s = profiled(); !s.ok()) return fail(args.kernel + ": " + s.message());

  std::string verification = "-";
  if (!args.no_verify) {
    std::vector<unsigned char> got(out_bytes), want;
    if (const xpose::Status s = xpose::copy_device_to_host(got.data(), out.data(), out_bytes); !s.ok())
      return fail(s.message());
    if (plan.algorithm() == xpose::Algorithm::copy) {
      want.assign(out_bytes, kPoison);  // the copy baseline writes the input's layout
      std::memcpy(want.data(), input.data(), in_bytes);
    } else {
      // The blocked CPU backend (checked against the plain-loop reference by the tests): the reference
      // itself takes seconds at 8192x8192, once per profiled kernel.
      want.assign(out_bytes, kPoison);
      const xpose::Status s = xpose::transpose(desc, input.data(), want.data(), nullptr,
                                               {xpose::Backend::cpu, xpose::Algorithm::cpu_blocked});
      if (!s.ok()) return fail("CPU transpose: " + s.message());
    }
    verification = got == want ? "PASSED" : "FAILED";
  }
  marker("plan=" + plan.to_string() + " | verification=" + verification);
  return verification == "FAILED" ? 1 : 0;
}

}  // namespace xpose_cli
