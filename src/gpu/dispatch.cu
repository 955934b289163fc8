// gpu::configure / gpu::launch: route an algorithm to its family's launcher.
#include "gpu/gpu_backend.hpp"

#include <algorithm>

#include "gpu/launch/launchers.hpp"

namespace xpose::gpu {

Status configure(const TransposeDesc& desc, Algorithm algorithm, int in_alignment, int out_alignment,
                 LaunchConfig& config) {
  const int alignment = std::min(in_alignment, out_alignment);
  switch (algorithm) {
    case Algorithm::copy:
    case Algorithm::naive_read:
    case Algorithm::naive_write: return configure_ladder(desc, algorithm, config);
    case Algorithm::tiled:
    case Algorithm::tiled_padded: return configure_tiled(desc, algorithm, config);
    case Algorithm::tiled_vec: return Status(StatusCode::internal, "tiled_vec is configured by the planner");
    case Algorithm::tiled_unaligned:
      return configure_tiled_unaligned(desc, in_alignment, out_alignment, config);
    case Algorithm::skinny: return configure_skinny(desc, config);
    case Algorithm::gather: return configure_gather(desc, alignment, config);
    case Algorithm::tiled_sectors: return configure_tiled_sectors(desc, alignment, config);
    case Algorithm::small_batch: return configure_small_batch(desc, config);
    case Algorithm::vendor_geam: return configure_geam(desc, config);
    case Algorithm::vector_copy: return configure_vector_copy(desc, config);
    default: return Status(StatusCode::internal, std::string("not a GPU algorithm: ") + algorithm_name(algorithm));
  }
}

Status launch(const TransposeDesc& desc, Algorithm algorithm, const LaunchConfig& config,
              const void* vendor_handle, const void* in, void* out, StreamHandle stream) {
  const auto s = static_cast<rt::Stream>(stream);
  switch (algorithm) {
    case Algorithm::copy:
    case Algorithm::naive_read:
    case Algorithm::naive_write: return launch_ladder(desc, algorithm, config, in, out, s);
    case Algorithm::tiled:
    case Algorithm::tiled_padded: return launch_tiled(desc, algorithm, config, in, out, s);
    case Algorithm::tiled_vec: return launch_tiled_vec(desc, config, in, out, s);
    case Algorithm::tiled_unaligned: return launch_tiled_unaligned(desc, config, in, out, s);
    case Algorithm::skinny: return launch_skinny(desc, config, in, out, s);
    case Algorithm::gather: return launch_gather(desc, config, in, out, s);
    case Algorithm::tiled_sectors: return launch_tiled_sectors(desc, config, in, out, s);
    case Algorithm::small_batch: return launch_small_batch(desc, config, in, out, s);
    case Algorithm::vendor_geam: return launch_geam(desc, vendor_handle, in, out, s);
    case Algorithm::vector_copy: return launch_vector_copy(desc, in, out, s);
    default: return Status(StatusCode::internal, std::string("not a GPU algorithm: ") + algorithm_name(algorithm));
  }
}

Status create_vendor_handle(std::shared_ptr<void>& handle) { return create_geam_handle(handle); }

}  // namespace xpose::gpu
