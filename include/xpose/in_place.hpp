// In-place transposes: matrices overwritten by their transposes, no second buffer.
#pragma once

#include <memory>
#include <string>

#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose {

// `desc` describes the matrices in the buffer as a transpose's input: `batch` matrices, rows ld_in
// elements apart, matrices batch_stride_in apart (0: packed); batch_stride_out must be 0 or equal to
// batch_stride_in. Square matrices (rows == cols) keep their layout, so ld_out must be 0 or ld_in;
// elements between the rows (ld_in > cols) and between the matrices are left as they are. Non-square
// matrices need packed rows (ld_in == cols) and become cols x rows packed (ld_out 0 or rows). Where
// the sides share a large factor g, the g x g blocks are transposed in place and the rows' pieces of
// g elements moved along their cycles: on the CPU where g is 32 elements or 256 bytes, or 8 in a tall
// matrix (the columns dividing the rows) of at most 2^25 rows; on the GPU where a piece holds 16
// bytes or more in a tall or wide matrix (one side a multiple of the other), 32 where the blocks are
// smaller than the square kernels' tiles, 256 otherwise, in a batch only for matrices of 16 MiB or
// more, for at most 2^25 pieces a matrix, and in the one-call
// transpose_in_place only for pieces of 8 KiB or more unless the shuffles cannot run (planning walks
// every piece on the host). The GPU plan then holds device memory from make_plan (its segments, and up
// to 64 MiB of saved pieces).
// Otherwise row and column shuffles run: on the CPU with scratch of one row or one block of columns
// per thread, on the GPU where a column of the shorter side fits one block's shared memory (a GPU
// plan for longer ones is refused as unsupported); where the longer side's rows do not fit it either,
// the GPU plan allocates scratch device memory at make_plan (an eighth of one matrix, at most 64 MiB,
// but at least one row). A plan that holds device memory serves one execute at a time and must
// outlive the work it enqueued, and the one-call transpose_in_place waits for its stream before
// returning.
class InPlacePlan {
 public:
  InPlacePlan();
  ~InPlacePlan();
  InPlacePlan(InPlacePlan&&) noexcept;
  InPlacePlan& operator=(InPlacePlan&&) noexcept;
  InPlacePlan(const InPlacePlan&) = delete;
  InPlacePlan& operator=(const InPlacePlan&) = delete;

  bool valid() const;
  const TransposeDesc& desc() const;  // resolved
  Backend backend() const;
  // e.g. "in_place<128x128 tile pairs,vec16B> block=(256) grid=(2080) (cuda)", or for a non-square
  // matrix "in_place<row and column shuffles,view=1000x3000,column_block=32,row_block=1,passes=3>
  // block=(1024,256) (cuda)".
  std::string to_string() const;

  struct State;  // private to the library
  State* state() const { return state_.get(); }

 private:
  friend Status make_plan(InPlacePlan&, const TransposeDesc&, const PlanOptions&);
  std::unique_ptr<State> state_;
};

std::ostream& operator<<(std::ostream& os, const InPlacePlan& plan);

// Validates `desc` and plans it. Of PlanOptions, the backend and the alignment apply (as for
// make_plan), and the algorithm may be automatic or cpu_reference (the test oracle's plain loops). On
// error `plan` is left as it was.
Status make_plan(InPlacePlan& plan, const TransposeDesc& desc, const PlanOptions& options = PlanOptions{});

// Runs the plan on `data` (GPU plans enqueue on `stream` and return; CPU plans run to completion),
// after checking the pointer (null, element alignment, the plan's alignment, host vs device).
Status execute(const InPlacePlan& plan, void* data, StreamHandle stream = nullptr);

// One call: plan for the pointer at hand, then execute.
Status transpose_in_place(const TransposeDesc& desc, void* data, StreamHandle stream = nullptr,
                          const PlanOptions& options = PlanOptions{});

}  // namespace xpose
