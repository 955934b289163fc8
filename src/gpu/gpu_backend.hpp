// The GPU backend as the host-only library sees it. Implemented by the .cu files, or by
// no_gpu.cpp (every call says "no device") when xpose is built without a GPU compiler.
#pragma once

#include <cstdint>
#include <memory>

#include "core/permute_shape.hpp"
#include "core/permute_tiling.hpp"
#include "plan/in_place.hpp"
#include "plan/in_place_pieces.hpp"
#include "plan/in_place_shuffles.hpp"
#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose::gpu {

// Launch geometry for a GPU algorithm on a resolved descriptor, for an input and an output pointer
// aligned to `in_alignment` and `out_alignment` bytes (plan::pointer_alignment). Only tiled_unaligned
// tells the two apart; the others take the smaller.
Status configure(const TransposeDesc& desc, Algorithm algorithm, int in_alignment, int out_alignment,
                 LaunchConfig& config);
// The pointer whose 16-byte chunks a tiled_unaligned config takes whole (the whole-chunk tiles: the
// output; the line tiles: the input), which must then lie on that grid, or none.
enum class AlignedSide { none, input, output };
AlignedSide tiled_unaligned_aligned_side(const TransposeDesc& desc, const LaunchConfig& config);

// Enqueues the kernel (or vendor call) on `stream`; checks the launch, never syncs
// (unless XPOSE_DEBUG_SYNC=1 is set, which syncs and logs each launch).
Status launch(const TransposeDesc& desc, Algorithm algorithm, const LaunchConfig& config,
              const void* vendor_handle, const void* in, void* out, StreamHandle stream);

// SMs (compute units) of the current device, which the planner sizes small grids by; 0 if unknown.
int multiprocessor_count();
// The largest matrix small_batch takes whole on the current device, one per block
// (plan::small_batch_whole_matrix_bytes_for its shared memory; plan::kSmallBatchMaxWholeMatrixBytes
// where unknown).
std::int64_t small_batch_whole_matrix_bytes();
// The current device's ordinal; -1 if none.
int current_device();

// Enqueues the general permutation kernels (src/gpu/launch/permute.cu) on `stream`.
// `tiling` is for slices (geometry not same_inner): choose_permute_tiling's.
Status launch_permute(const core::PermuteGeometry& geometry, const core::PermuteTiling& tiling, const void* in,
                      void* out, StreamHandle stream);

// Enqueues the in-place transpose of the square matrices at `data` (src/gpu/launch/in_place.cu),
// laid out as the resolved `desc`'s input, with `config` from plan::choose_in_place.
Status launch_in_place(const TransposeDesc& desc, const plan::InPlaceConfig& config, void* data,
                       StreamHandle stream);
// Enqueues the in-place transpose of the non-square matrices at `data` (packed rows; resolved `desc`)
// through the passes of `config`, from plan::choose_in_place_shuffles
// (src/gpu/launch/in_place_shuffles.cu). `scratch`: config.scratch_bytes of device memory where
// config.long_rows, else unused.
Status launch_in_place_shuffles(const TransposeDesc& desc, const plan::ShuffleConfig& config, void* data,
                                void* scratch, StreamHandle stream);
// Enqueues the square-blocks in-place transpose of the non-square matrices at `data` (packed rows;
// resolved `desc`) with `config` from plan::choose_in_place_pieces (src/gpu/launch/in_place_pieces.cu):
// `segments`, a device copy of config.segments.segments; `saved`, config.saved_bytes() of device memory.
Status launch_in_place_pieces(const TransposeDesc& desc, const plan::PiecesConfig& config, void* data,
                              const void* segments, void* saved, StreamHandle stream);
// Waits for the work queued on `stream`.
Status synchronize_stream(StreamHandle stream);
// The most shared memory one block of the current device can have (with the opt-in); 0 if unknown.
std::int64_t shared_per_block_limit();

// The vendor library handle a plan owns (created at plan time, not per call).
Status create_vendor_handle(std::shared_ptr<void>& handle);

// wrong_memory unless `ptr` is device-accessible memory.
Status check_device_pointer(const void* ptr, const char* what);
// True when `ptr` is memory the CPU cannot dereference (device allocation).
bool is_device_only_pointer(const void* ptr);

}  // namespace xpose::gpu
