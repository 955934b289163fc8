// GPU test helpers: skip without a device, run a plan on device buffers and read the result back.
#pragma once

#include <functional>
#include <map>
#include <memory>

#include "test_support.hpp"

namespace xpose_test {

#define XPOSE_SKIP_WITHOUT_GPU()                                                                     \
  do {                                                                                               \
    if (xpose::device_count() == 0)                                                                  \
      GTEST_SKIP() << (xpose::gpu_backend_built() ? "no GPU device found on this machine"           \
                                                  : "this build of xpose has no GPU backend");       \
  } while (0)

// Random input and the expected output of one case, computed once and shared by every kernel.
struct CaseData {
  std::vector<unsigned char> input, expected_transpose, expected_copy;
};

inline const CaseData& case_data(const xpose::TransposeDesc& d) {
  static std::map<std::string, std::unique_ptr<CaseData>> cache;
  auto& slot = cache[describe(d) + " bs " + std::to_string(d.batch_stride_in) + "/" +
                     std::to_string(d.batch_stride_out)];
  if (!slot) {
    slot = std::make_unique<CaseData>();
    slot->input = random_values(d.dtype, input_bytes(d), 0x1234 + d.rows * 7 + d.cols);
    slot->expected_transpose = expected_transpose(d, slot->input);
    // The copy baseline writes the input's layout; untouched gaps keep the poison.
    const auto r = xpose::resolved(d);
    const std::size_t esize = xpose::dtype_size(r.dtype);
    slot->expected_copy.assign(slot->input.size(), kPoison);
    for (std::int64_t b = 0; b < r.batch; ++b)
      for (std::int64_t row = 0; row < r.rows; ++row) {
        const std::size_t at = static_cast<std::size_t>(b * r.batch_stride_in + row * r.ld_in) * esize;
        std::memcpy(&slot->expected_copy[at], &slot->input[at], static_cast<std::size_t>(r.cols) * esize);
      }
  }
  return *slot;
}

// Leading dimension >= `extent` whose byte size is an odd multiple of `grid` bytes: on that grid,
// off the next one (on the 8-byte grid only 8-byte accesses fit; on the 16-byte grid output rows
// start mid-sector).
inline std::int64_t ld_on_grid(xpose::DType dtype, std::int64_t extent, std::int64_t grid) {
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(dtype));
  std::int64_t ld = extent;
  while (ld * e % grid != 0 || ld * e % (2 * grid) == 0) ++ld;
  return ld;
}

// Runs a GPU plan on poisoned device buffers and returns the output bytes (the output span, or the
// input span for the copy baseline). With `shift`, both buffers start that many bytes past an
// allocation; the input always ends exactly where its allocation does, so memcheck sees any read
// past it. run_on_gpu plans `algorithm` for `d` first (for the alignment `shift` leaves).
inline xpose::Status run_plan_on_gpu(const xpose::Plan& plan, const std::vector<unsigned char>& input,
                                     std::vector<unsigned char>& output, std::size_t out_bytes, std::size_t shift = 0) {
  xpose::DeviceBuffer in, out;
  XPOSE_RETURN_IF_ERROR(in.allocate(input.size() + shift));
  XPOSE_RETURN_IF_ERROR(out.allocate(out_bytes + shift));
  auto* in_ptr = static_cast<unsigned char*>(in.data()) + shift;
  auto* out_ptr = static_cast<unsigned char*>(out.data()) + shift;
  XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(in_ptr, input.data(), input.size()));
  XPOSE_RETURN_IF_ERROR(xpose::fill_device_bytes(out_ptr, kPoison, out_bytes));
  XPOSE_RETURN_IF_ERROR(xpose::execute(plan, in_ptr, out_ptr));
  XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
  output.resize(out_bytes);
  return xpose::copy_device_to_host(output.data(), out_ptr, out_bytes);
}

// Runs `call` (a transpose of the input pointer into the output pointer) with the input `in_offset`
// and the output `out_offset` bytes past the starts of allocations 256 bytes longer than the
// matrices, the whole output allocation poisoned first; `whole` receives that allocation, so that the
// bytes around the output can be checked too. `input_ends_allocation`: the input's allocation ends at
// its last byte instead, so that compute-sanitizer's memcheck reports a read past it.
using PointerCall = std::function<xpose::Status(const void* in, void* out)>;
inline xpose::Status run_at_offsets(const PointerCall& call, const std::vector<unsigned char>& input,
                                    std::size_t out_bytes, std::size_t in_offset, std::size_t out_offset,
                                    std::vector<unsigned char>& whole, bool input_ends_allocation = false) {
  xpose::DeviceBuffer in, out;
  XPOSE_RETURN_IF_ERROR(in.allocate(input.size() + (input_ends_allocation ? in_offset : 256)));
  XPOSE_RETURN_IF_ERROR(out.allocate(out_bytes + 256));
  auto* in_ptr = static_cast<unsigned char*>(in.data()) + in_offset;
  XPOSE_RETURN_IF_ERROR(xpose::copy_host_to_device(in_ptr, input.data(), input.size()));
  XPOSE_RETURN_IF_ERROR(xpose::fill_device_bytes(out.data(), kPoison, out_bytes + 256));
  XPOSE_RETURN_IF_ERROR(call(in_ptr, static_cast<unsigned char*>(out.data()) + out_offset));
  XPOSE_RETURN_IF_ERROR(xpose::synchronize_device());
  whole.resize(out_bytes + 256);
  return xpose::copy_device_to_host(whole.data(), out.data(), whole.size());
}

inline xpose::Status run_on_gpu(const xpose::TransposeDesc& d, xpose::Algorithm algorithm,
                                const std::vector<unsigned char>& input, std::vector<unsigned char>& output,
                                std::size_t out_bytes, std::size_t shift = 0) {
  xpose::Plan plan;
  const int alignment = shift == 0 ? 0 : static_cast<int>(shift & (~shift + 1));  // lowest set bit
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(plan, d, {xpose::Backend::cuda, algorithm, alignment}));
  return run_plan_on_gpu(plan, input, output, out_bytes, shift);
}

}  // namespace xpose_test
