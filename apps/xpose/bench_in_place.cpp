// One in-place case of `xpose bench`: memcpy of the same bytes, then the in-place plan verified
// against the CPU oracle and timed. Each timed call transposes its buffer again, which
// moves the same bytes every time.
#include "bench_in_place.hpp"

#include <cstring>

#include "bench_timing.hpp"
#include "random_input.hpp"

namespace xpose_cli {

using xpose::Algorithm;
using xpose::Status;

Status run_in_place_case(const InPlaceCaseSettings& s, std::vector<BenchRecord>& records) {
  const bool gpu = s.backend == xpose::Backend::cuda;
  xpose::InPlacePlan reference;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(reference, s.desc, {xpose::Backend::cpu, Algorithm::cpu_reference}));
  const xpose::TransposeDesc d = reference.desc();
  const std::size_t esize = xpose::dtype_size(d.dtype);
  const auto span = static_cast<std::size_t>(xpose::input_span_elements(d)) * esize;

  const std::vector<unsigned char> input = random_values(d.dtype, span, s.seed);
  std::vector<unsigned char> expected = input;
  XPOSE_RETURN_IF_ERROR(xpose::execute(reference, expected.data()));
  Buffers buffers(gpu, rotating_pairs(gpu, s.l2_bytes, span, span), span, span);
  XPOSE_RETURN_IF_ERROR(buffers.allocate(input));

  // The plan's resolved descriptor: batch_stride_out is the input's, ld_out too for square matrices.
  const BenchRecord base = matrix_record(s.label, d, s.iters, gpu ? calls_per_run(buffers.pairs()) : 1);

  xpose::DeviceStream stream;
  if (gpu) XPOSE_RETURN_IF_ERROR(stream.create());
  const CaseTiming timed{gpu, s.warmup, s.iters, buffers.pairs(), stream.handle()};
  BenchRecord copy_rec = base;
  XPOSE_RETURN_IF_ERROR(time_memcpy_baseline(timed, buffers, copy_rec));
  records.push_back(copy_rec);

  BenchRecord rec = base;
  rec.kernel = "in_place";
  rec.copy_gbps = copy_rec.gbps;
  xpose::InPlacePlan plan;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(plan, d, {s.backend}));
  rec.plan = plan.to_string();
  // Verified on the first output buffer, which holds the input first.
  if (gpu)
    XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(buffers.out(0), input.data(), span));
  else
    std::memcpy(buffers.out(0), input.data(), span);
  XPOSE_RETURN_IF_ERROR(xpose::execute(plan, buffers.out(0), stream.handle()));
  std::vector<unsigned char> got;
  XPOSE_RETURN_IF_ERROR(buffers.read_first_output(got));
  verify_record(rec, got, expected, esize, "");
  XPOSE_RETURN_IF_ERROR(
      timed([&](int k) { return xpose::execute(plan, buffers.out(k), stream.handle()); }, rec.time_us));
  set_rates(rec, copy_rec.gbps);
  records.push_back(rec);
  return Status::ok_status();
}

}  // namespace xpose_cli
