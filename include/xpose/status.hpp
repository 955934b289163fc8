// Status: the one way library calls report success or failure (no exit, no abort, no exceptions).
#pragma once

#include <string>
#include <utility>

namespace xpose {

enum class StatusCode {
  ok = 0,
  invalid_argument,  // bad extents, leading dimensions, strides, null pointers
  overlap,           // input and output buffers overlap for an out-of-place transpose
  unsupported,       // a valid request this backend/algorithm cannot serve (e.g. cuBLAS with i8)
  no_device,         // the GPU backend was asked for but no usable device (or no GPU build)
  wrong_memory,      // a host pointer given to the GPU path, or a device pointer to the CPU path
  device_error,      // the CUDA/HIP runtime or the vendor library reported an error
  internal,          // a bug in xpose
};

// Short stable name of a code ("invalid_argument"), for logs and JSON.
const char* status_code_name(StatusCode code);

class Status {
 public:
  Status() = default;  // ok
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok_status() { return Status(); }

  bool ok() const { return code_ == StatusCode::ok; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  // A sentence a person can act on; "ok" for success.
  const std::string& message() const { return ok() ? ok_text() : message_; }

 private:
  static const std::string& ok_text() {
    static const std::string text = "ok";
    return text;
  }
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

}  // namespace xpose

// Returns early from the enclosing function when `expr` yields a non-ok Status.
#define XPOSE_RETURN_IF_ERROR(expr)            \
  do {                                         \
    ::xpose::Status xpose_status_ = (expr);    \
    if (!xpose_status_.ok()) return xpose_status_; \
  } while (0)
