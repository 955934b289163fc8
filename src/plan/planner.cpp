// make_plan: validate the descriptor, choose backend and algorithm, fix the launch config.
#include <algorithm>
#include <sstream>

#include "core/validate.hpp"
#include "cpu/blocked.hpp"
#include "gpu/gpu_backend.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/plan_state.hpp"
#include "xpose/device.hpp"

namespace xpose {
namespace {

Backend choose_backend(const PlanOptions& options) {
  if (options.backend != Backend::automatic) return options.backend;
  const Backend wanted = algorithm_backend(options.algorithm);
  if (wanted != Backend::automatic) return wanted;
  return device_count() > 0 ? Backend::cuda : Backend::cpu;
}

int effective_alignment(const PlanOptions& options) { return options.alignment > 0 ? options.alignment : 16; }

Algorithm choose_algorithm(Backend backend, const TransposeDesc& desc, const PlanOptions& options) {
  if (backend == Backend::cpu) return Algorithm::cpu_blocked;
  return plan::choose_gpu_algorithm(desc, effective_alignment(options), gpu::small_batch_whole_matrix_bytes(),
                                    options.out_offset);
}

// gpu::configure; for tiled_unaligned, for each pointer's own alignment where its offset is known (the
// other algorithms take the plan's). Where tiled_unaligned's tiles then take one side's 16-byte chunks
// whole although the plan's alignment is less, the plan keeps that side's offset, 0 modulo 16, which
// execute checks.
Status configure_for_pointers(Plan::State& state, const PlanOptions& options) {
  const bool per_side = state.algorithm == Algorithm::tiled_unaligned;
  const int in_alignment = per_side ? plan::pointer_alignment(state.alignment, options.in_offset) : state.alignment;
  const int out_alignment = per_side ? plan::pointer_alignment(state.alignment, options.out_offset) : state.alignment;
  XPOSE_RETURN_IF_ERROR(gpu::configure(state.desc, state.algorithm, in_alignment, out_alignment, state.config));
  if (!per_side || state.alignment >= 16) return Status::ok_status();
  switch (gpu::tiled_unaligned_aligned_side(state.desc, state.config)) {
    case gpu::AlignedSide::input: state.in_offset16 = 0; break;
    case gpu::AlignedSide::output: state.out_offset16 = 0; break;
    case gpu::AlignedSide::none: break;
  }
  return Status::ok_status();
}

}  // namespace

Plan::Plan() = default;
Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

bool Plan::valid() const { return state_ != nullptr; }
const TransposeDesc& Plan::desc() const { return state_->desc; }
Algorithm Plan::algorithm() const { return state_->algorithm; }
Backend Plan::backend() const { return state_->backend; }
const LaunchConfig& Plan::config() const { return state_->config; }

std::string Plan::to_string() const {
  if (!state_) return "<empty plan>";
  std::ostringstream os;
  const LaunchConfig& c = state_->config;
  os << algorithm_name(state_->algorithm);
  if (state_->algorithm == Algorithm::vector_copy) {
    os << "<copy of " << plan::matrix_bytes(state_->desc) << " bytes>";
  } else if (state_->backend == Backend::cuda && state_->algorithm != Algorithm::vendor_geam) {
    os << '<';
    if (state_->algorithm == Algorithm::small_batch) {
      if (c.tile_cols > 0) os << "slabs of " << c.tile_cols << ',';
      else os << c.tile_rows << " matrices,";
      if (c.rotation > 0) os << "rot" << c.rotation << ',';
    } else if (c.tile_rows > 0) {
      os << c.tile_rows << 'x' << c.tile_cols << ',';
      // gather keeps no tile in shared memory: no swizzle or padding to show.
      if (c.swizzled) os << "swizzle,";
      else if (state_->algorithm != Algorithm::gather) os << "pad" << c.pad << ',';
    }
    if (c.bands > 1) os << "bands" << c.bands << ',';
    if (c.lead_rows > 0 || c.lead_cols > 0) os << "lead" << c.lead_rows << 'x' << c.lead_cols << ',';
    if (c.shifted_output) os << "shifted_out,";
    os << "vec" << c.vector_bytes << "B> block=(" << c.block_x << ',' << c.block_y << ") grid=("
       << c.grid_x << ',' << c.grid_y << ',' << c.grid_z << ')';
  } else if (state_->backend == Backend::cpu && state_->algorithm == Algorithm::cpu_blocked) {
    os << '<' << c.tile_rows << 'x' << c.tile_cols << '>';
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Plan& plan) { return os << plan.to_string(); }

Status make_plan(Plan& plan, const TransposeDesc& desc, const PlanOptions& options) {
  XPOSE_RETURN_IF_ERROR(core::validate_desc(desc, options.algorithm));

  auto state = std::make_unique<Plan::State>();
  state->desc = resolved(desc);
  state->backend = choose_backend(options);
  if (options.alignment < 0 || (options.alignment & (options.alignment - 1)) != 0)
    return Status(StatusCode::invalid_argument,
                  "PlanOptions::alignment must be 0 or a power of two (got " + std::to_string(options.alignment) + ")");
  if (options.in_offset < -1 || options.in_offset >= kPointerOffsetGrid || options.out_offset < -1 ||
      options.out_offset >= kPointerOffsetGrid)
    return Status(StatusCode::invalid_argument, "PlanOptions::in_offset and out_offset must be -1 or 0.." +
                                                    std::to_string(kPointerOffsetGrid - 1) + " (got " +
                                                    std::to_string(options.in_offset) + " and " +
                                                    std::to_string(options.out_offset) + ")");
  state->alignment = effective_alignment(options);
  state->algorithm = options.algorithm == Algorithm::automatic
                         ? choose_algorithm(state->backend, state->desc, options)
                         : options.algorithm;
  if (algorithm_backend(state->algorithm) != state->backend)
    return Status(StatusCode::invalid_argument,
                  std::string("algorithm ") + algorithm_name(state->algorithm) + " does not run on the " +
                      backend_name(state->backend) + " backend");

  if (state->backend == Backend::cuda) {
    if (device_count() == 0)
      return Status(StatusCode::no_device,
                    gpu_backend_built() ? "no GPU device found" : "this build of xpose has no GPU backend");
    const bool may_lead = options.algorithm == Algorithm::automatic || options.algorithm == Algorithm::tiled_vec;
    const auto fits_offsets = [&] {
      const std::int64_t whole = gpu::small_batch_whole_matrix_bytes();
      return plan::configure_led_tiled_vec(state->desc, options.in_offset, options.out_offset,
                                           gpu::multiprocessor_count(), whole, state->config)
                 .ok() ||
             plan::configure_shifted_output_tiled_vec(state->desc, options.in_offset, options.out_offset,
                                                      options.algorithm == Algorithm::automatic, whole, state->config)
                 .ok();
    };
    if (may_lead && fits_offsets()) {
      state->algorithm = Algorithm::tiled_vec;
      state->in_offset16 = options.in_offset % 16;
      state->out_offset16 = options.out_offset % 16;
      // execute checks the offsets themselves; the alignment they imply is all the plan needs.
      const int bits = options.in_offset | options.out_offset | 16;
      state->alignment = std::min(state->alignment, bits & -bits);
    } else if (state->algorithm == Algorithm::tiled_vec)
      XPOSE_RETURN_IF_ERROR(
          plan::configure_tiled_vec(state->desc, state->alignment, gpu::multiprocessor_count(), state->config));
    else
      XPOSE_RETURN_IF_ERROR(configure_for_pointers(*state, options));
    if (state->algorithm == Algorithm::vendor_geam)
      XPOSE_RETURN_IF_ERROR(gpu::create_vendor_handle(state->vendor_handle));
  } else if (state->algorithm == Algorithm::cpu_blocked) {
    state->config.tile_rows = state->config.tile_cols = cpu::blocked_tile_edge(dtype_size(state->desc.dtype));
  }
  plan.state_ = std::move(state);
  return Status::ok_status();
}

}  // namespace xpose
