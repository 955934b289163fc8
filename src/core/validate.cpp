// Descriptor and pointer validation: every reason a request is refused, each with a clear message.
#include "core/validate.hpp"

#include <cstdint>
#include <string>

#include "gpu/gpu_backend.hpp"
#include "xpose/device.hpp"

namespace xpose::core {
namespace {

Status invalid(const std::string& message) { return Status(StatusCode::invalid_argument, message); }

std::string str(std::int64_t v) { return std::to_string(v); }

// a * b + c without overflow, or false.
bool mul_add(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t& out) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return false;
  return !__builtin_add_overflow(product, c, &out);
}

}  // namespace

Status validate_desc(const TransposeDesc& desc, Algorithm algorithm) {
  if (dtype_size(desc.dtype) == 0) return Status(StatusCode::unsupported, "unsupported element type");
  if (desc.rows < 1) return invalid("rows must be >= 1 (got " + str(desc.rows) + ")");
  if (desc.cols < 1) return invalid("cols must be >= 1 (got " + str(desc.cols) + ")");
  if (desc.batch < 1) return invalid("batch must be >= 1 (got " + str(desc.batch) + ")");
  if (desc.ld_in < 0 || desc.ld_out < 0 || desc.batch_stride_in < 0 || desc.batch_stride_out < 0)
    return invalid("leading dimensions and batch strides must be >= 0 (0 means packed)");

  // resolved() multiplies rows * ld_in and cols * ld_out: prove those fit first.
  std::int64_t unused = 0;
  if (!mul_add(desc.rows, desc.ld_in ? desc.ld_in : desc.cols, 0, unused) ||
      !mul_add(desc.cols, desc.ld_out ? desc.ld_out : desc.rows, 0, unused))
    return invalid("matrix too large: element offsets overflow 64 bits");

  const bool is_copy = algorithm == Algorithm::copy;
  const TransposeDesc d = resolved(desc);
  if (d.ld_in < d.cols)
    return invalid("ld_in (" + str(d.ld_in) + ") must be >= cols (" + str(d.cols) + ")");
  if (!is_copy && d.ld_out < d.rows)
    return invalid("ld_out (" + str(d.ld_out) + ") must be >= rows (" + str(d.rows) + ")");

  // One matrix must fit in 64-bit element offsets, and batches must not overlap.
  std::int64_t in_matrix = 0, out_matrix = 0;
  if (!mul_add(d.rows - 1, d.ld_in, d.cols, in_matrix) ||
      !mul_add(d.cols - 1, d.ld_out, d.rows, out_matrix))
    return invalid("matrix too large: element offsets overflow 64 bits");
  if (d.batch > 1 && d.batch_stride_in < in_matrix)
    return invalid("batch_stride_in (" + str(d.batch_stride_in) + ") is smaller than one input matrix (" +
                   str(in_matrix) + " elements): batches would overlap");
  if (!is_copy && d.batch > 1 && d.batch_stride_out < out_matrix)
    return invalid("batch_stride_out (" + str(d.batch_stride_out) +
                   ") is smaller than one output matrix (" + str(out_matrix) +
                   " elements): batches would overlap");

  const std::int64_t esize = static_cast<std::int64_t>(dtype_size(d.dtype));
  std::int64_t in_span = 0, out_span = 0, bytes = 0;
  if (!mul_add(d.batch - 1, d.batch_stride_in, in_matrix, in_span) ||
      !mul_add(d.batch - 1, d.batch_stride_out, out_matrix, out_span) ||
      !mul_add(in_span, esize, 0, bytes) || !mul_add(out_span, esize, 0, bytes))
    return invalid("tensor too large: byte offsets overflow 64 bits");
  return Status::ok_status();
}

std::int64_t output_span(const TransposeDesc& d, Algorithm algorithm) {
  return algorithm == Algorithm::copy ? input_span_elements(d) : output_span_elements(d);
}

Status validate_pointers(const TransposeDesc& d, Algorithm algorithm, const void* in, const void* out) {
  const auto esize = static_cast<std::uint64_t>(dtype_size(d.dtype));
  return validate_buffers(d.dtype, in, static_cast<std::uint64_t>(input_span_elements(d)) * esize, out,
                          static_cast<std::uint64_t>(output_span(d, algorithm)) * esize, "transpose");
}

std::size_t element_alignment(DType dtype) {
  const std::size_t esize = dtype_size(dtype);
  return esize > 8 ? 8 : esize;
}

Status validate_buffers(DType dtype, const void* in, std::uint64_t in_bytes, const void* out, std::uint64_t out_bytes,
                        const char* operation) {
  if (in == nullptr) return invalid("input pointer is null");
  if (out == nullptr) return invalid("output pointer is null");
  const std::size_t align = element_alignment(dtype);
  const auto in_addr = reinterpret_cast<std::uintptr_t>(in);
  const auto out_addr = reinterpret_cast<std::uintptr_t>(out);
  if (in_addr % align != 0 || out_addr % align != 0)
    return invalid("input and output must be aligned to " + std::to_string(align) + " bytes for " +
                   dtype_name(dtype));
  const std::uintptr_t in_end = in_addr + static_cast<std::uintptr_t>(in_bytes);
  const std::uintptr_t out_end = out_addr + static_cast<std::uintptr_t>(out_bytes);
  if (in_addr < out_end && out_addr < in_end) {
    const std::string op = operation;
    if (in_addr == out_addr)
      return Status(StatusCode::overlap, "input and output are the same buffer; out-of-place " + op + " needs two");
    return Status(StatusCode::overlap,
                  "input and output buffers overlap; out-of-place " + op + " needs disjoint buffers");
  }
  return Status::ok_status();
}

Status validate_plan_alignment(int plan_alignment, const void* in, const void* out) {
  const int alignment = common_alignment(in, out);
  if (alignment < plan_alignment)
    return invalid("pointers are " + std::to_string(alignment) + "-byte aligned but the plan was made for " +
                   std::to_string(plan_alignment) + " (set PlanOptions::alignment)");
  return Status::ok_status();
}

Status validate_plan_offsets(int in_offset16, int out_offset16, const void* in, const void* out) {
  const auto check = [](int want, const void* p, const char* side) {
    const int got = static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % 16);
    if (want < 0 || got == want) return Status::ok_status();
    return invalid(std::string("the ") + side + " pointer lies " + std::to_string(got) +
                   " bytes past a 16-byte boundary but the plan was made for " + std::to_string(want) +
                   " (PlanOptions::" + side + "_offset)");
  };
  XPOSE_RETURN_IF_ERROR(check(in_offset16, in, "in"));
  return check(out_offset16, out, "out");
}

Status validate_backend_memory(Backend backend, const void* in, const void* out) {
  if (backend == Backend::cuda) {
    XPOSE_RETURN_IF_ERROR(gpu::check_device_pointer(in, "input"));
    return gpu::check_device_pointer(out, "output");
  }
  if (gpu::is_device_only_pointer(in) || gpu::is_device_only_pointer(out))
    return Status(StatusCode::wrong_memory, "the CPU backend was given a GPU device pointer");
  return Status::ok_status();
}

int common_alignment(const void* a, const void* b) {
  const auto bits = reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b) | 16u;
  return static_cast<int>(bits & (~bits + 1));
}

Status resolve_oracle_or_auto_options(const PlanOptions& options, const char* operation, ResolvedOptions& out) {
  if (options.alignment < 0 || (options.alignment & (options.alignment - 1)) != 0)
    return invalid("PlanOptions::alignment must be 0 or a power of two (got " + std::to_string(options.alignment) +
                   ")");
  if (options.algorithm != Algorithm::automatic && options.algorithm != Algorithm::cpu_reference)
    return invalid(std::string(operation) + " takes the automatic algorithm or cpu_reference, not " +
                   algorithm_name(options.algorithm));
  ResolvedOptions r;
  r.reference = options.algorithm == Algorithm::cpu_reference;
  r.backend = options.backend != Backend::automatic ? options.backend
              : r.reference                         ? Backend::cpu
              : device_count() > 0                  ? Backend::cuda
                                                    : Backend::cpu;
  if (r.reference && r.backend != Backend::cpu)
    return invalid("algorithm cpu_reference does not run on the cuda backend");
  if (r.backend == Backend::cuda && device_count() == 0)
    return Status(StatusCode::no_device,
                  gpu_backend_built() ? "no GPU device found" : "this build of xpose has no GPU backend");
  r.alignment = options.alignment > 0 ? options.alignment : 16;
  out = r;
  return Status::ok_status();
}

PlanOptions options_for_pointers(const PlanOptions& options, const void* in, const void* out) {
  PlanOptions fitted = options;
  if (fitted.alignment == 0) fitted.alignment = common_alignment(in, out);
  if (fitted.in_offset < 0 && fitted.out_offset < 0) {
    fitted.in_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % kPointerOffsetGrid);
    fitted.out_offset = static_cast<int>(reinterpret_cast<std::uintptr_t>(out) % kPointerOffsetGrid);
  }
  return fitted;
}

}  // namespace xpose::core
