// The GPU backend in a build without a GPU compiler: every entry point says there is no device.
#include "gpu/gpu_backend.hpp"
#include "plan/gpu_planner.hpp"
#include "xpose/device.hpp"

namespace xpose {
namespace {
Status no_gpu() { return Status(StatusCode::no_device, "this build of xpose has no GPU backend"); }
}  // namespace

bool gpu_backend_built() { return false; }
int device_count() { return 0; }
Status device_info(DeviceInfo&) { return no_gpu(); }

DeviceBuffer::~DeviceBuffer() = default;
DeviceBuffer::DeviceBuffer(DeviceBuffer&&) noexcept = default;
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&&) noexcept = default;
Status DeviceBuffer::allocate(std::size_t) { return no_gpu(); }
void DeviceBuffer::reset() {}

Status copy_host_to_device(void*, const void*, std::size_t) { return no_gpu(); }
Status copy_device_to_host(void*, const void*, std::size_t) { return no_gpu(); }
Status copy_device_to_device(void*, const void*, std::size_t, StreamHandle) { return no_gpu(); }
Status fill_device_bytes(void*, unsigned char, std::size_t, StreamHandle) { return no_gpu(); }
Status synchronize_device() { return no_gpu(); }
Status hold_stream(double, StreamHandle) { return no_gpu(); }
Status last_device_error() { return no_gpu(); }
Status profiler_start() { return no_gpu(); }
Status profiler_stop() { return no_gpu(); }

DeviceStream::~DeviceStream() = default;
DeviceStream::DeviceStream(DeviceStream&&) noexcept = default;
DeviceStream& DeviceStream::operator=(DeviceStream&&) noexcept = default;
Status DeviceStream::create() { return no_gpu(); }

EventPair::~EventPair() = default;
EventPair::EventPair(EventPair&&) noexcept = default;
EventPair& EventPair::operator=(EventPair&&) noexcept = default;
Status EventPair::create() { return no_gpu(); }
Status EventPair::record_start(StreamHandle) { return no_gpu(); }
Status EventPair::record_stop(StreamHandle) { return no_gpu(); }
Status EventPair::elapsed_ms(float&) const { return no_gpu(); }

namespace gpu {
Status configure(const TransposeDesc&, Algorithm, int, int, LaunchConfig&) { return no_gpu(); }
AlignedSide tiled_unaligned_aligned_side(const TransposeDesc&, const LaunchConfig&) { return AlignedSide::none; }
Status launch(const TransposeDesc&, Algorithm, const LaunchConfig&, const void*, const void*, void*, StreamHandle) {
  return no_gpu();
}
Status launch_permute(const core::PermuteGeometry&, const core::PermuteTiling&, const void*, void*, StreamHandle) {
  return no_gpu();
}
Status launch_in_place(const TransposeDesc&, const plan::InPlaceConfig&, void*, StreamHandle) { return no_gpu(); }
Status launch_in_place_shuffles(const TransposeDesc&, const plan::ShuffleConfig&, void*, void*, StreamHandle) {
  return no_gpu();
}
Status launch_in_place_pieces(const TransposeDesc&, const plan::PiecesConfig&, void*, const void*, void*, StreamHandle) {
  return no_gpu();
}
std::int64_t shared_per_block_limit() { return 0; }
Status synchronize_stream(StreamHandle) { return no_gpu(); }
int multiprocessor_count() { return 0; }
int current_device() { return -1; }
std::int64_t small_batch_whole_matrix_bytes() { return plan::kSmallBatchMaxWholeMatrixBytes; }
Status create_vendor_handle(std::shared_ptr<void>&) { return no_gpu(); }
Status check_device_pointer(const void*, const char*) { return no_gpu(); }
bool is_device_only_pointer(const void*) { return false; }
}  // namespace gpu
}  // namespace xpose
