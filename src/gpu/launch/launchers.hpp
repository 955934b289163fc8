// One configure/launch pair per kernel family (src/gpu/launch/<family>.cu).
#pragma once

#include <memory>

#include "gpu/runtime.hpp"
#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"

namespace xpose::gpu {

// copy, naive_read, naive_write
Status configure_ladder(const TransposeDesc& desc, Algorithm algorithm, LaunchConfig& config);
Status launch_ladder(const TransposeDesc& desc, Algorithm algorithm, const LaunchConfig& config,
                     const void* in, void* out, rt::Stream stream);

// tiled, tiled_padded
Status configure_tiled(const TransposeDesc& desc, Algorithm algorithm, LaunchConfig& config);
Status launch_tiled(const TransposeDesc& desc, Algorithm algorithm, const LaunchConfig& config,
                    const void* in, void* out, rt::Stream stream);

// tiled_vec (the fast path); configured by the planner (src/plan/gpu_planner.cpp)
Status launch_tiled_vec(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                        rt::Stream stream);

// tiled_unaligned: 16-byte chunks on both sides for any strides and element-aligned pointers
Status configure_tiled_unaligned(const TransposeDesc& desc, int in_alignment, int out_alignment,
                                 LaunchConfig& config);
Status launch_tiled_unaligned(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                              rt::Stream stream);

// skinny: one short side (at most kSkinnyMaxShort elements, more where short_side_takes_skinny)
Status configure_skinny(const TransposeDesc& desc, LaunchConfig& config);
Status launch_skinny(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                     rt::Stream stream);

// gather: no shared memory, for small matrices; 16-byte aligned pointers, output strides on that grid
Status configure_gather(const TransposeDesc& desc, int alignment, LaunchConfig& config);
Status launch_gather(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                     rt::Stream stream);

// tiled_sectors: 1- and 2-byte elements, output rows on the 8-byte grid (whole sectors written);
// input pointer and strides on the 8-byte grid
Status configure_tiled_sectors(const TransposeDesc& desc, int alignment, LaunchConfig& config);
Status launch_tiled_sectors(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                            rt::Stream stream);

// small_batch: batches of matrices of at most kSmallBatchTileBytes, several whole matrices per block,
// or of larger ones up to gpu::small_batch_whole_matrix_bytes, one per block; or one matrix whose
// short side fits as slabs
Status configure_small_batch(const TransposeDesc& desc, LaunchConfig& config);
Status launch_small_batch(const TransposeDesc& desc, const LaunchConfig& config, const void* in, void* out,
                          rt::Stream stream);

// vector_copy: a packed row or column vector (plan::transpose_is_copy), one device-to-device copy
Status configure_vector_copy(const TransposeDesc& desc, LaunchConfig& config);
Status launch_vector_copy(const TransposeDesc& desc, const void* in, void* out, rt::Stream stream);

// vendor_geam (cuBLAS or rocBLAS); handle owned by the plan
Status configure_geam(const TransposeDesc& desc, LaunchConfig& config);
Status create_geam_handle(std::shared_ptr<void>& handle);
Status launch_geam(const TransposeDesc& desc, const void* handle, const void* in, void* out, rt::Stream stream);

}  // namespace xpose::gpu
