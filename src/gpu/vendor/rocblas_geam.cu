// The vendor path on AMD: rocBLAS geam with op(A) = A^T, alpha = 1, beta = 0.
//
// The mapping is the one in cublas_geam.cu: rocBLAS is column-major too, so the row-major
// rows x cols input (row stride ld_in) is a column-major cols x rows A with lda = ld_in, the
// output is a column-major rows x cols C with ldc = ld_out, and C = A^T is geam with m = rows,
// n = cols, lda = ld_in, ldc = ld_out.
#if __has_include(<rocblas/rocblas.h>)
#include <rocblas/rocblas.h>
#else
#include <rocblas.h>  // ROCm before 5.2
#endif

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "gpu/vendor/geam_types.hpp"

namespace xpose::gpu {
namespace {

Status rocblas_result(rocblas_status s, const char* what) {
  if (s == rocblas_status_success) return Status::ok_status();
  return Status(StatusCode::device_error, std::string(what) + " failed: " + rocblas_status_to_string(s));
}

// rocBLAS's complex types change with how it is included (a class, hipFloatComplex or a C struct),
// but each is two reals: scalars are written through their bytes.
template <typename T, typename Real>
T real_scalar(Real v) {
  static_assert(sizeof(T) == sizeof(Real) || sizeof(T) == 2 * sizeof(Real), "T must be Real or complex Real");
  const Real parts[2] = {v, Real(0)};
  T t;
  std::memcpy(&t, parts, sizeof(T));
  return t;
}

template <typename T, typename Real, typename Geam>
Status geam_batch(rocblas_handle h, Geam geam, const TransposeDesc& d, const void* in, void* out) {
  const T one = real_scalar<T>(Real(1)), zero = real_scalar<T>(Real(0));
  const T* a = static_cast<const T*>(in);
  T* c = static_cast<T*>(out);
  const int m = static_cast<int>(d.rows), n = static_cast<int>(d.cols);
  const int lda = static_cast<int>(d.ld_in), ldc = static_cast<int>(d.ld_out);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    const T* ab = a + b * d.batch_stride_in;
    // beta = 0, so B only has to be a valid operand: A again with op(B) = A^T (ldb = lda). Unlike
    // cuBLAS, B must not alias C: rocBLAS treats C == B as C = alpha * op(A) + beta * C and would
    // read the (poisoned) output.
    XPOSE_RETURN_IF_ERROR(rocblas_result(geam(h, rocblas_operation_transpose, rocblas_operation_transpose, m, n,
                                              &one, ab, lda, &zero, ab, lda, c + b * d.batch_stride_out, ldc),
                                         "rocblas geam"));
  }
  return Status::ok_status();
}

}  // namespace

Status create_geam_handle(std::shared_ptr<void>& handle) {
  rocblas_handle h = nullptr;
  XPOSE_RETURN_IF_ERROR(rocblas_result(rocblas_create_handle(&h), "rocblas_create_handle"));
  handle = std::shared_ptr<void>(h, [](void* p) { rocblas_destroy_handle(static_cast<rocblas_handle>(p)); });
  return Status::ok_status();
}

Status configure_geam(const TransposeDesc& d, LaunchConfig& c) {
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  if (!geam_has_type(d.dtype))
    return Status(StatusCode::unsupported,
                  std::string("rocBLAS geam has no ") + dtype_name(d.dtype) + " (only f32, f64, c64, c128)");
  if (d.rows > INT_MAX || d.cols > INT_MAX || d.ld_in > INT_MAX || d.ld_out > INT_MAX)
    return Status(StatusCode::unsupported, "rocBLAS geam takes 32-bit extents and leading dimensions");
  return Status::ok_status();
}

Status launch_geam(const TransposeDesc& d, const void* handle, const void* in, void* out, rt::Stream stream) {
  auto h = static_cast<rocblas_handle>(const_cast<void*>(handle));
  XPOSE_RETURN_IF_ERROR(rocblas_result(rocblas_set_stream(h, stream), "rocblas_set_stream"));
  XPOSE_RETURN_IF_ERROR(
      rocblas_result(rocblas_set_pointer_mode(h, rocblas_pointer_mode_host), "rocblas_set_pointer_mode"));
  Status s;
  switch (d.dtype) {
    case DType::f32: s = geam_batch<float, float>(h, rocblas_sgeam, d, in, out); break;
    case DType::f64: s = geam_batch<double, double>(h, rocblas_dgeam, d, in, out); break;
    case DType::c64: s = geam_batch<rocblas_float_complex, float>(h, rocblas_cgeam, d, in, out); break;
    case DType::c128: s = geam_batch<rocblas_double_complex, double>(h, rocblas_zgeam, d, in, out); break;
    default: return Status(StatusCode::internal, "launch_geam: dtype passed configure_geam unchecked");
  }
  XPOSE_RETURN_IF_ERROR(s);
  LaunchConfig none{};
  return check_launch("rocblas_geam", none, 0, stream);
}

}  // namespace xpose::gpu
