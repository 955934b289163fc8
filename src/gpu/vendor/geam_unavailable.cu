// The vendor path in a HIP build without rocBLAS: vendor_geam plans fail with `unsupported`.
#include <string>

#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {
namespace {
Status no_vendor_blas() {
  return Status(StatusCode::unsupported,
                "vendor_geam is not in this build: rocBLAS was not found when xpose was configured for HIP "
                "(install rocBLAS and reconfigure)");
}
}  // namespace

Status configure_geam(const TransposeDesc&, LaunchConfig& c) {
  c = LaunchConfig{};
  return no_vendor_blas();
}
Status create_geam_handle(std::shared_ptr<void>&) { return no_vendor_blas(); }
Status launch_geam(const TransposeDesc&, const void*, const void*, void*, rt::Stream) { return no_vendor_blas(); }

}  // namespace xpose::gpu
