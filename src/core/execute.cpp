// execute / transpose: pointer checks, then hand the plan to its backend.
#include "core/run_plan.hpp"
#include "core/validate.hpp"
#include "cpu/blocked.hpp"
#include "cpu/reference.hpp"
#include "gpu/gpu_backend.hpp"
#include "plan/plan_state.hpp"
#include "xpose/device.hpp"

namespace xpose {

Status core::run_checked_plan(const Plan::State& s, const void* in, void* out, StreamHandle stream) {
  if (s.backend == Backend::cuda)
    return gpu::launch(s.desc, s.algorithm, s.config, s.vendor_handle.get(), in, out, stream);
  switch (s.algorithm) {
    case Algorithm::cpu_reference: cpu::reference_transpose(s.desc, in, out); break;
    case Algorithm::cpu_blocked: cpu::blocked_transpose(s.desc, in, out); break;
    default: return Status(StatusCode::internal, "CPU plan holds a GPU algorithm");
  }
  return Status::ok_status();
}

Status execute(const Plan& plan, const void* in, void* out, StreamHandle stream) {
  if (!plan.valid()) return Status(StatusCode::invalid_argument, "plan is empty: call make_plan first");
  const Plan::State& s = *plan.state();
  XPOSE_RETURN_IF_ERROR(core::validate_pointers(s.desc, s.algorithm, in, out));
  if (s.backend == Backend::cuda) {
    XPOSE_RETURN_IF_ERROR(core::validate_plan_alignment(s.alignment, in, out));
    XPOSE_RETURN_IF_ERROR(core::validate_plan_offsets(s.in_offset16, s.out_offset16, in, out));
  }
  XPOSE_RETURN_IF_ERROR(core::validate_backend_memory(s.backend, in, out));
  return core::run_checked_plan(s, in, out, stream);
}

Status transpose(const TransposeDesc& desc, const void* in, void* out, StreamHandle stream,
                 const PlanOptions& options) {
  Plan plan;
  XPOSE_RETURN_IF_ERROR(make_plan(plan, desc, core::options_for_pointers(options, in, out)));
  return execute(plan, in, out, stream);
}

}  // namespace xpose
