// The vendor path on NVIDIA: cuBLAS geam with op(A) = A^T, alpha = 1, beta = 0.
//
// cuBLAS is column-major. A row-major rows x cols input with row stride ld_in is, to cuBLAS, a
// column-major cols x rows matrix A with lda = ld_in; the row-major cols x rows output with row
// stride ld_out is a column-major rows x cols matrix C with ldc = ld_out. So C = A^T is geam with
// m = rows, n = cols, lda = ld_in, ldc = ld_out: right for any shape, not only square ones.
#include <cublas_v2.h>

#include <climits>
#include <cstdint>
#include <string>

#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "gpu/vendor/geam_types.hpp"

namespace xpose::gpu {
namespace {

Status cublas_status(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return Status::ok_status();
  return Status(StatusCode::device_error, std::string(what) + " failed: " + cublasGetStatusString(s));
}

template <typename T, typename Geam>
Status geam_batch(cublasHandle_t h, Geam geam, const TransposeDesc& d, const void* in, void* out) {
  const T one = T{1}, zero = T{0};
  const T* a = static_cast<const T*>(in);
  T* c = static_cast<T*>(out);
  const int m = static_cast<int>(d.rows), n = static_cast<int>(d.cols);
  const int lda = static_cast<int>(d.ld_in), ldc = static_cast<int>(d.ld_out);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* cb = c + b * d.batch_stride_out;
    // beta = 0: B is not read; pass C with ldc (allowed: B may alias C when transb = N).
    XPOSE_RETURN_IF_ERROR(cublas_status(
        geam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a + b * d.batch_stride_in, lda, &zero, cb, ldc, cb, ldc),
        "cublas geam"));
  }
  return Status::ok_status();
}

}  // namespace

Status create_geam_handle(std::shared_ptr<void>& handle) {
  cublasHandle_t h = nullptr;
  XPOSE_RETURN_IF_ERROR(cublas_status(cublasCreate(&h), "cublasCreate"));
  handle = std::shared_ptr<void>(h, [](void* p) { cublasDestroy(static_cast<cublasHandle_t>(p)); });
  return Status::ok_status();
}

Status configure_geam(const TransposeDesc& d, LaunchConfig& c) {
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  if (!geam_has_type(d.dtype))
    return Status(StatusCode::unsupported,
                  std::string("cuBLAS geam has no ") + dtype_name(d.dtype) + " (only f32, f64, c64, c128)");
  if (d.rows > INT_MAX || d.cols > INT_MAX || d.ld_in > INT_MAX || d.ld_out > INT_MAX)
    return Status(StatusCode::unsupported, "cuBLAS geam takes 32-bit extents and leading dimensions");
  return Status::ok_status();
}

Status launch_geam(const TransposeDesc& d, const void* handle, const void* in, void* out, rt::Stream stream) {
  if (dtype_size(d.dtype) == 16 &&
      (reinterpret_cast<std::uintptr_t>(in) % 16 != 0 || reinterpret_cast<std::uintptr_t>(out) % 16 != 0))
    return Status(StatusCode::invalid_argument, "cuBLAS geam needs 16-byte aligned c128 buffers");
  auto h = static_cast<cublasHandle_t>(const_cast<void*>(handle));
  XPOSE_RETURN_IF_ERROR(cublas_status(cublasSetStream(h, stream), "cublasSetStream"));
  XPOSE_RETURN_IF_ERROR(cublas_status(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode"));
  Status s;
  switch (d.dtype) {
    case DType::f32: s = geam_batch<float>(h, cublasSgeam, d, in, out); break;
    case DType::f64: s = geam_batch<double>(h, cublasDgeam, d, in, out); break;
    case DType::c64: s = geam_batch<cuComplex>(h, cublasCgeam, d, in, out); break;
    case DType::c128: s = geam_batch<cuDoubleComplex>(h, cublasZgeam, d, in, out); break;
    default: return Status(StatusCode::internal, "launch_geam: dtype passed configure_geam unchecked");
  }
  XPOSE_RETURN_IF_ERROR(s);
  LaunchConfig none{};
  return check_launch("cublas_geam", none, 0, stream);
}

}  // namespace xpose::gpu
