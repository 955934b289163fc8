// Launcher for vector_copy: a transpose that keeps every byte in its order (plan::transpose_is_copy)
// is one device-to-device copy of the runtime, the very operation the bench measures against.
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/gpu_planner.hpp"

namespace xpose::gpu {

Status configure_vector_copy(const TransposeDesc& d, LaunchConfig& c) {
  if (!plan::transpose_is_copy(d))
    return Status(StatusCode::unsupported,
                  "vector_copy needs a row or column vector whose elements are packed in the input and the output "
                  "(and, in a batch, matrices back to back on both sides)");
  c = LaunchConfig{};
  return Status::ok_status();
}

Status launch_vector_copy(const TransposeDesc& d, const void* in, void* out, rt::Stream stream) {
  XPOSE_GPU_TRY(rt::copy_d2d_async(out, in, static_cast<std::size_t>(plan::matrix_bytes(d)), stream));
  return check_launch("vector_copy (device-to-device copy)", LaunchConfig{}, 0, stream);
}

}  // namespace xpose::gpu
