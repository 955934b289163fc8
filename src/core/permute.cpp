// PermutePlan: reduce the permutation, route it (copy, one 2-D transpose, or the general kernels),
// and run it after the same pointer checks as a transpose.
#include <sstream>
#include <string>

#include "core/permute_shape.hpp"
#include "core/permute_tiling.hpp"
#include "core/run_plan.hpp"
#include "core/validate.hpp"
#include "cpu/permute.hpp"
#include "gpu/gpu_backend.hpp"
#include "xpose/device.hpp"
#include "xpose/permute.hpp"

namespace xpose {

struct PermutePlan::State {
  PermuteDesc desc;  // as given, for the reference loops
  core::PermuteShape shape;
  PermuteRoute route = PermuteRoute::general;
  Backend backend = Backend::cpu;
  bool reference = false;  // PlanOptions::algorithm == cpu_reference
  int alignment = 16;
  std::int64_t bytes = 0;
  Plan transpose;                 // route transpose
  core::PermuteGeometry geometry;  // route general
  core::PermuteTiling tiling;      // route general on the GPU, slices
};

namespace {

Status invalid(const std::string& message) { return Status(StatusCode::invalid_argument, message); }

std::string shape_string(const core::PermuteShape& s) {
  std::ostringstream os;
  for (int d = 0; d < s.rank; ++d) os << (d ? "x" : "") << s.extents[d];
  os << " perm ";
  for (int k = 0; k < s.rank; ++k) os << (k ? "," : "") << s.perm[k];
  return os.str();
}

}  // namespace

const char* permute_route_name(PermuteRoute route) {
  switch (route) {
    case PermuteRoute::copy: return "copy";
    case PermuteRoute::transpose: return "transpose";
    default: return "general";
  }
}

PermutePlan::PermutePlan() = default;
PermutePlan::~PermutePlan() = default;
PermutePlan::PermutePlan(PermutePlan&&) noexcept = default;
PermutePlan& PermutePlan::operator=(PermutePlan&&) noexcept = default;

bool PermutePlan::valid() const { return state_ != nullptr; }
Backend PermutePlan::backend() const { return state_->backend; }
PermuteRoute PermutePlan::route() const { return state_->route; }
std::int64_t PermutePlan::bytes() const { return state_->bytes; }

std::string PermutePlan::to_string() const {
  if (!state_) return "<empty plan>";
  const State& s = *state_;
  std::ostringstream os;
  os << "permute[" << shape_string(s.shape) << "] ";
  if (s.reference) return os.str() + "cpu_reference";
  os << permute_route_name(s.route);
  if (s.route == PermuteRoute::transpose) {
    os << ": " << s.transpose.to_string();
  } else if (s.route == PermuteRoute::general) {
    const core::PermuteGeometry& g = s.geometry;
    if (g.same_inner)
      os << "<runs of " << g.extent_a << " x " << g.esize << "B, " << g.slices << " runs>";
    else
      os << "<slices " << g.extent_b << "x" << g.extent_a << ", " << g.slices << " slices";
    if (!g.same_inner && s.backend == Backend::cuda) {
      const core::PermuteTiling& t = s.tiling;
      if (t.element_tile != 0)
        os << "; element tiles " << t.element_tile << "x" << t.element_tile;
      else
        os << "; tiles " << t.tile_b << "x" << t.tile_a << " x" << t.group << " a step, units " << t.in_unit << "/"
           << t.out_unit << "B" << (t.in_span ? " (input spans)" : "") << (t.out_span ? " (output spans)" : "")
           << ", pitch " << t.pitch << "B";
    }
    if (!g.same_inner) os << ">";
  }
  os << " (" << backend_name(s.backend) << ')';
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const PermutePlan& plan) { return os << plan.to_string(); }

Status make_plan(PermutePlan& plan, const PermuteDesc& desc, const PlanOptions& options) {
  XPOSE_RETURN_IF_ERROR(core::validate_permute_desc(desc));
  core::ResolvedOptions resolved_options;
  XPOSE_RETURN_IF_ERROR(core::resolve_oracle_or_auto_options(options, "a permutation", resolved_options));

  auto s = std::make_unique<PermutePlan::State>();
  s->desc = desc;
  s->reference = resolved_options.reference;
  s->backend = resolved_options.backend;
  s->alignment = resolved_options.alignment;
  s->shape = core::normalise_permute(desc);
  s->bytes = s->shape.esize;
  for (int d = 0; d < s->shape.rank; ++d) s->bytes *= s->shape.extents[d];

  const core::PermuteRouting routing = core::route_permute(s->shape, s->alignment);
  s->route = routing.route;
  if (s->route == PermuteRoute::transpose) {
    PlanOptions inner;
    inner.backend = s->backend;
    inner.alignment = s->alignment;
    XPOSE_RETURN_IF_ERROR(make_plan(s->transpose, routing.transpose, inner));
  } else if (s->route == PermuteRoute::general) {
    s->geometry = core::permute_geometry(s->shape);
    if (s->backend == Backend::cuda) {
      s->geometry = core::widen_runs(s->geometry, s->alignment);
      if (!s->geometry.same_inner) s->tiling = core::choose_permute_tiling(s->geometry, s->alignment);
    }
  }
  plan.state_ = std::move(s);
  return Status::ok_status();
}

Status execute(const PermutePlan& plan, const void* in, void* out, StreamHandle stream) {
  if (!plan.valid()) return invalid("plan is empty: call make_plan first");
  const PermutePlan::State& s = *plan.state();
  const auto bytes = static_cast<std::uint64_t>(s.bytes);
  XPOSE_RETURN_IF_ERROR(core::validate_buffers(s.desc.dtype, in, bytes, out, bytes, "permute"));
  // On both backends: the route may move wider elements than the tensor's, as the promised
  // alignment allowed.
  XPOSE_RETURN_IF_ERROR(core::validate_plan_alignment(s.alignment, in, out));
  XPOSE_RETURN_IF_ERROR(core::validate_backend_memory(s.backend, in, out));
  if (s.reference) {
    cpu::reference_permute(s.desc, in, out);
    return Status::ok_status();
  }
  const bool gpu = s.backend == Backend::cuda;
  switch (s.route) {
    case PermuteRoute::copy:
      if (gpu) return copy_device_to_device(out, in, static_cast<std::size_t>(s.bytes), stream);
      copy_host_to_host(out, in, static_cast<std::size_t>(s.bytes));
      return Status::ok_status();
    case PermuteRoute::transpose:  // the checks above cover the transpose's own
      return core::run_checked_plan(*s.transpose.state(), in, out, stream);
    default:
      if (gpu) return gpu::launch_permute(s.geometry, s.tiling, in, out, stream);
      cpu::permute_general(s.geometry, in, out);
      return Status::ok_status();
  }
}

Status permute(const PermuteDesc& desc, const void* in, void* out, StreamHandle stream, const PlanOptions& options) {
  PermutePlan plan;
  XPOSE_RETURN_IF_ERROR(make_plan(plan, desc, core::options_for_pointers(options, in, out)));
  return execute(plan, in, out, stream);
}

}  // namespace xpose
