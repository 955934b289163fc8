// Checks on descriptors and pointers, run before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose::core {

// Extents >= 1, leading dimensions and batch strides large enough, no negative values, and every
// byte offset representable in 64 bits. Takes the caller's descriptor (zeros allowed).
Status validate_desc(const TransposeDesc& desc, Algorithm algorithm);

// Elements spanned by the output of `algorithm` (the copy baseline writes the input's layout).
std::int64_t output_span(const TransposeDesc& resolved_desc, Algorithm algorithm);

// The alignment every pointer to `dtype` elements needs: the element size, but 8 for 16-byte
// elements (std::complex<double> has only that), since kernels move whole elements.
std::size_t element_alignment(DType dtype);

// Null pointers, alignment to the element size, and overlap of the two spans.
Status validate_pointers(const TransposeDesc& resolved_desc, Algorithm algorithm, const void* in,
                         const void* out);

// The same checks on `in_bytes` at `in` and `out_bytes` at `out`; `operation` ("transpose",
// "permute") names the call in the messages.
Status validate_buffers(DType dtype, const void* in, std::uint64_t in_bytes, const void* out, std::uint64_t out_bytes,
                        const char* operation);

// Pointers at least as aligned as the plan assumed (its PlanOptions::alignment).
Status validate_plan_alignment(int plan_alignment, const void* in, const void* out);

// Pointers at the offsets modulo 16 bytes a led tiled_vec plan was made for (-1: any).
Status validate_plan_offsets(int in_offset16, int out_offset16, const void* in, const void* out);

// Device memory for the cuda backend, memory the CPU can read and write for the cpu backend.
Status validate_backend_memory(Backend backend, const void* in, const void* out);

// Largest power of two (at most 16) dividing both addresses: the alignment a plan for them may assume.
int common_alignment(const void* a, const void* b);

// What a plan that takes the automatic algorithm or cpu_reference (a permutation, an in-place
// transpose; `operation` names it in the messages) makes of `options`: the alignment (0 or a power
// of two; 0 becomes 16), whether it runs the oracle's loops, and the backend (automatic: the GPU
// where there is one, the CPU for the oracle), which must exist.
struct ResolvedOptions {
  Backend backend = Backend::cpu;
  bool reference = false;
  int alignment = 16;
};
Status resolve_oracle_or_auto_options(const PlanOptions& options, const char* operation, ResolvedOptions& out);

// `options` for the pointers at hand: an alignment of 0 (none promised) becomes theirs.
PlanOptions options_for_pointers(const PlanOptions& options, const void* in, const void* out);

}  // namespace xpose::core
