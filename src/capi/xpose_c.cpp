// The C interface (include/xpose/xpose_c.h) over the C++ API: names parsed, Status turned into a code
// and a message, nothing thrown across the boundary.
#include "xpose/xpose_c.h"

#include <cstring>
#include <exception>
#include <string>

#include "xpose/xpose.hpp"

// The library is built with hidden symbols; these are its exports.
#define XPOSE_C_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// Copies `text` into a caller's buffer of `len` bytes, cut to fit and always terminated.
void write_text(const std::string& text, char* buffer, std::size_t len) {
  if (buffer == nullptr || len == 0) return;
  const std::size_t n = text.size() < len - 1 ? text.size() : len - 1;
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

int report(const xpose::Status& s, char* message, std::size_t message_len) {
  write_text(s.message(), message, message_len);
  return static_cast<int>(s.code());
}

// Runs `call` (returning a Status) and reports it; an exception (e.g. out of host memory) becomes
// an internal error: a code, never an exception across C.
template <typename Call>
int guarded(char* message, std::size_t message_len, Call&& call) {
  try {
    return report(call(), message, message_len);
  } catch (const std::exception& e) {
    return report(xpose::Status(xpose::StatusCode::internal, e.what()), message, message_len);
  }
}

// The dtype and backend names every call takes.
xpose::Status parse_names(const char* dtype, const char* backend, xpose::DType& type, xpose::PlanOptions& options) {
  if (dtype == nullptr || !xpose::parse_dtype(dtype, type))
    return xpose::Status(xpose::StatusCode::invalid_argument,
                         std::string("unknown dtype '") + (dtype ? dtype : "(null)") +
                             "' (known: " + xpose::dtype_names() + ")");
  const std::string b = backend ? backend : "auto";
  if (!xpose::parse_backend(b, options.backend))
    return xpose::Status(xpose::StatusCode::invalid_argument, "unknown backend '" + b + "' (known: auto, cuda, cpu)");
  return xpose::Status::ok_status();
}

xpose::Status parse_request(const char* dtype, std::int64_t batch, std::int64_t rows, std::int64_t cols,
                            std::int64_t ld_in, std::int64_t ld_out, std::int64_t batch_stride_in,
                            std::int64_t batch_stride_out, const char* backend, xpose::TransposeDesc& desc,
                            xpose::PlanOptions& options) {
  XPOSE_RETURN_IF_ERROR(parse_names(dtype, backend, desc.dtype, options));
  desc.batch = batch;
  desc.rows = rows;
  desc.cols = cols;
  desc.ld_in = ld_in;
  desc.ld_out = ld_out;
  desc.batch_stride_in = batch_stride_in;
  desc.batch_stride_out = batch_stride_out;
  return xpose::Status::ok_status();
}

// A permutation's descriptor from C arrays (null or a rank outside 1..kMaxPermuteRank refused here,
// the rest by the library).
xpose::Status parse_permute(const char* dtype, int rank, const std::int64_t* extents, const int* perm,
                            const char* backend, xpose::PermuteDesc& desc, xpose::PlanOptions& options) {
  XPOSE_RETURN_IF_ERROR(parse_names(dtype, backend, desc.dtype, options));
  if (rank < 1 || rank > xpose::kMaxPermuteRank)
    return xpose::Status(xpose::StatusCode::invalid_argument,
                         "a permutation takes 1 to " + std::to_string(xpose::kMaxPermuteRank) + " dimensions (got " +
                             std::to_string(rank) + ")");
  if (extents == nullptr || perm == nullptr)
    return xpose::Status(xpose::StatusCode::invalid_argument, "extents and perm must not be null");
  desc.extents.assign(extents, extents + rank);
  desc.perm.assign(perm, perm + rank);
  return xpose::Status::ok_status();
}

// The two in-place entry points: a matrix as a transpose's input (ld_in 0: packed), in place.
int in_place(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t ld, int64_t batch_stride, void* data,
             void* stream, const char* backend, char* message, size_t message_len) {
  return guarded(message, message_len, [&] {
    xpose::TransposeDesc desc;
    xpose::PlanOptions options;
    XPOSE_RETURN_IF_ERROR(parse_request(dtype, batch, rows, cols, ld, 0, batch_stride, 0, backend, desc, options));
    return xpose::transpose_in_place(desc, data, stream, options);
  });
}

}  // namespace

XPOSE_C_EXPORT int xpose_transpose(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t ld_in,
                                   int64_t ld_out, int64_t batch_stride_in, int64_t batch_stride_out, const void* in,
                                   void* out, void* stream, const char* backend, char* message, size_t message_len) {
  return guarded(message, message_len, [&] {
    xpose::TransposeDesc desc;
    xpose::PlanOptions options;
    XPOSE_RETURN_IF_ERROR(parse_request(dtype, batch, rows, cols, ld_in, ld_out, batch_stride_in, batch_stride_out,
                                        backend, desc, options));
    return xpose::transpose(desc, in, out, stream, options);
  });
}

XPOSE_C_EXPORT int xpose_describe_plan(const char* dtype, int64_t batch, int64_t rows, int64_t cols, int64_t ld_in,
                                       int64_t ld_out, int64_t batch_stride_in, int64_t batch_stride_out, int alignment,
                                       const char* backend, char* plan, size_t plan_len, char* message,
                                       size_t message_len) {
  return guarded(message, message_len, [&] {
    xpose::TransposeDesc desc;
    xpose::PlanOptions options;
    XPOSE_RETURN_IF_ERROR(parse_request(dtype, batch, rows, cols, ld_in, ld_out, batch_stride_in, batch_stride_out,
                                        backend, desc, options));
    options.alignment = alignment;
    xpose::Plan p;
    XPOSE_RETURN_IF_ERROR(xpose::make_plan(p, desc, options));
    write_text(p.to_string(), plan, plan_len);
    return xpose::Status::ok_status();
  });
}

XPOSE_C_EXPORT int xpose_transpose_in_place(const char* dtype, int64_t batch, int64_t n, int64_t ld,
                                            int64_t batch_stride, void* data, void* stream, const char* backend,
                                            char* message, size_t message_len) {
  return in_place(dtype, batch, n, n, ld, batch_stride, data, stream, backend, message, message_len);
}

XPOSE_C_EXPORT int xpose_transpose_in_place_packed(const char* dtype, int64_t batch, int64_t rows, int64_t cols,
                                                   int64_t batch_stride, void* data, void* stream, const char* backend,
                                                   char* message, size_t message_len) {
  return in_place(dtype, batch, rows, cols, 0, batch_stride, data, stream, backend, message, message_len);
}

XPOSE_C_EXPORT int xpose_permute(const char* dtype, int rank, const int64_t* extents, const int* perm, const void* in,
                                 void* out, void* stream, const char* backend, char* message, size_t message_len) {
  return guarded(message, message_len, [&] {
    xpose::PermuteDesc desc;
    xpose::PlanOptions options;
    XPOSE_RETURN_IF_ERROR(parse_permute(dtype, rank, extents, perm, backend, desc, options));
    return xpose::permute(desc, in, out, stream, options);
  });
}

XPOSE_C_EXPORT int xpose_describe_permute(const char* dtype, int rank, const int64_t* extents, const int* perm,
                                          int alignment, const char* backend, char* plan, size_t plan_len,
                                          char* message, size_t message_len) {
  return guarded(message, message_len, [&] {
    xpose::PermuteDesc desc;
    xpose::PlanOptions options;
    XPOSE_RETURN_IF_ERROR(parse_permute(dtype, rank, extents, perm, backend, desc, options));
    options.alignment = alignment;
    xpose::PermutePlan p;
    XPOSE_RETURN_IF_ERROR(xpose::make_plan(p, desc, options));
    write_text(p.to_string(), plan, plan_len);
    return xpose::Status::ok_status();
  });
}
