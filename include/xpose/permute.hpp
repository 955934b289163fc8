// Permutations of a tensor's dimensions (N-d transposes), planned and run like the 2-D transpose.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "xpose/dtype.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose {

constexpr int kMaxPermuteRank = 8;

// A packed row-major tensor with `extents` (outermost first) whose dimensions are reordered: output
// dimension k is input dimension perm[k], and the output is packed too. For extents {N, C, H, W},
// perm {0, 2, 3, 1} turns NCHW into NHWC:
//   out[i_0]...[i_{n-1}] = in[j_0]...[j_{n-1}] with j_{perm[k]} = i_k.
struct PermuteDesc {
  DType dtype = DType::f32;
  std::vector<std::int64_t> extents;  // 1 to kMaxPermuteRank values, each >= 1
  std::vector<int> perm;              // a permutation of 0 .. extents.size() - 1
};

// How a permutation runs. Dimensions of extent 1 are dropped and dimensions that stay next to each
// other in the same order are merged; what is left is a copy, one (batched) 2-D transpose of the
// fast path (possibly of wider elements: a trailing dimension that stays innermost rides along
// inside each element while it fits in 16 bytes), or the general kernels.
enum class PermuteRoute { copy, transpose, general };
const char* permute_route_name(PermuteRoute route);

class PermutePlan {
 public:
  PermutePlan();
  ~PermutePlan();
  PermutePlan(PermutePlan&&) noexcept;
  PermutePlan& operator=(PermutePlan&&) noexcept;
  PermutePlan(const PermutePlan&) = delete;
  PermutePlan& operator=(const PermutePlan&) = delete;

  bool valid() const;
  Backend backend() const;
  PermuteRoute route() const;
  std::int64_t bytes() const;  // bytes of one operand
  // The merged shape, the route and the backend, e.g.
  // "permute[16x1024x64 perm 0,2,1] transpose: tiled_vec<64x64,swizzle,vec16B> ... (cuda)".
  std::string to_string() const;

  struct State;  // private to the library
  State* state() const { return state_.get(); }

 private:
  friend Status make_plan(PermutePlan&, const PermuteDesc&, const PlanOptions&);
  std::unique_ptr<State> state_;
};

std::ostream& operator<<(std::ostream& os, const PermutePlan& plan);

// Validates `desc` and plans it. Of PlanOptions, the backend and the alignment apply (as for
// make_plan), and the algorithm may be automatic or cpu_reference (the test oracle's loops);
// the transposes a permutation reduces to take the planner's automatic choice. On error `plan` is
// left as it was.
Status make_plan(PermutePlan& plan, const PermuteDesc& desc, const PlanOptions& options = PlanOptions{});

// Runs the plan (GPU plans enqueue on `stream` and return; CPU plans run to completion). Checks
// the pointers (null, alignment, overlap, host vs device) before anything is written; on both
// backends it refuses pointers less aligned than the plan was made for (PlanOptions::alignment,
// 16 when 0), since the route may move wider elements than the tensor's.
Status execute(const PermutePlan& plan, const void* in, void* out, StreamHandle stream = nullptr);

// One call: plan for the pointers at hand, then execute.
Status permute(const PermuteDesc& desc, const void* in, void* out, StreamHandle stream = nullptr,
               const PlanOptions& options = PlanOptions{});

}  // namespace xpose
