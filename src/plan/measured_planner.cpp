// make_measured_plan: time the candidate kernels on the caller's buffers, keep the fastest, and
// remember it per device and shape class for the rest of the process.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "core/validate.hpp"
#include "gpu/gpu_backend.hpp"
#include "plan/candidates.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/plan_state.hpp"
#include "xpose/device.hpp"

namespace xpose {
namespace {

// A timed run is about this long (calls back to back), and there are this many of them per candidate.
constexpr double kRunTargetUs = 200.0;
constexpr int kMaxCallsPerRun = 64;
constexpr int kTimedRuns = 3;
// A candidate replaces the heuristic choice only when this much faster (run-to-run noise is about 1%).
constexpr double kMinGain = 0.99;
constexpr const char* kFitsInL2 = "input and output fit in the L2: heuristic choice, not timed";

std::mutex cache_mutex;
std::map<std::string, plan::Candidate>& cache() {
  static std::map<std::string, plan::Candidate> choices;
  return choices;
}

int size_bucket(std::int64_t n) {
  int b = 0;
  while ((std::int64_t{1} << b) < n) ++b;
  return b;
}

// What decides which kernels fit and roughly how they rank: the GPU, the element size, the size of
// each extent to a power of two, the alignment of pointers, strides and output rows, the heuristic
// plan's tile and whether it walks the tiles in bands (its tile follows how the rows lie: input rows
// inside 128-byte lines, padded ones, the 128 KiB grid), whether the output pointer lies inside a
// 32-byte sector (gather_gives_way_off_sector), and each pointer's own alignment (tiled_unaligned's
// tiles); for a led heuristic plan, the pointers' offsets too.
std::string shape_class(const TransposeDesc& d, int alignment, const DeviceInfo& info, const LaunchConfig& heuristic,
                        const PlanOptions& fitted, const PlanOptions& led) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  std::ostringstream key;
  key << gpu::current_device() << '|' << info.name << '|' << e << '|' << size_bucket(d.rows) << '|'
      << size_bucket(d.cols) << '|' << size_bucket(d.batch) << '|' << alignment << '|'
      << plan::tiled_vec_vector_bytes(d, alignment) << '|' << plan::output_rows_sector_aligned(d) << '|'
      << (d.ld_in * e % 16 == 0) << (d.ld_out * e % 16 == 0) << '|' << heuristic.bands << '|'
      << heuristic.tile_rows << 'x' << heuristic.tile_cols << '|'
      << plan::output_pointer_in_sector(fitted.out_offset) << '|'
      << plan::pointer_alignment(alignment, fitted.in_offset) << '|'
      << plan::pointer_alignment(alignment, fitted.out_offset) << '|' << led.in_offset << '|' << led.out_offset;
  return key.str();
}

// `fitted`: the options fitted to the caller's pointers (alignment, and offsets for led candidates and
// for tiled_unaligned, whose tiles follow each pointer's alignment).
Status plan_candidate(Plan& p, const TransposeDesc& desc, const PlanOptions& fitted, const plan::Candidate& c) {
  PlanOptions o;
  o.backend = Backend::cuda;
  o.algorithm = c.algorithm;
  o.alignment = fitted.alignment;
  if (c.led || c.algorithm == Algorithm::tiled_unaligned) {
    o.in_offset = fitted.in_offset;
    o.out_offset = fitted.out_offset;
  }
  XPOSE_RETURN_IF_ERROR(make_plan(p, desc, o));
  if (c.led) {
    const LaunchConfig& k = p.config();
    return plan::fitted_to_offsets(k) ? Status::ok_status()
                                      : Status(StatusCode::unsupported, "no lead for these pointers");
  }
  const int alignment = fitted.alignment;
  if (c.algorithm != Algorithm::tiled_vec) return Status::ok_status();
  XPOSE_RETURN_IF_ERROR(
      plan::configure_tiled_vec_tile(p.desc(), alignment, c.tile_bytes, c.row_bytes, p.state()->config));
  if (c.bands == 1) p.state()->config.bands = 1;  // the banded tile timed without its bands
  return Status::ok_status();
}

// Per-call time of `calls` back-to-back calls, queued behind a stream-holding kernel so that the GPU
// runs them at its own pace rather than the host's.
Status time_run(const Plan& p, const void* in, void* out, StreamHandle stream, int calls, EventPair& events,
                double& us) {
  XPOSE_RETURN_IF_ERROR(hold_stream(20.0 + 10.0 * calls, stream));
  XPOSE_RETURN_IF_ERROR(events.record_start(stream));
  for (int i = 0; i < calls; ++i) XPOSE_RETURN_IF_ERROR(execute(p, in, out, stream));
  XPOSE_RETURN_IF_ERROR(events.record_stop(stream));
  float ms = 0;
  XPOSE_RETURN_IF_ERROR(events.elapsed_ms(ms));
  us = 1000.0 * ms / calls;
  return Status::ok_status();
}

// Median per-call time over kTimedRuns runs, after an untimed call (a kernel's first launch loads
// it) and one timed call that sizes the runs. Small matrices stay in the L2 between calls on the
// same buffers, for every candidate alike.
Status time_plan(const Plan& p, const void* in, void* out, StreamHandle stream, double& us) {
  EventPair events;
  XPOSE_RETURN_IF_ERROR(events.create());
  XPOSE_RETURN_IF_ERROR(execute(p, in, out, stream));
  double once = 0;
  XPOSE_RETURN_IF_ERROR(time_run(p, in, out, stream, 1, events, once));
  const int calls = std::clamp(static_cast<int>(kRunTargetUs / std::max(once, 1.0)), 1, kMaxCallsPerRun);
  std::vector<double> runs(kTimedRuns);
  for (double& t : runs) XPOSE_RETURN_IF_ERROR(time_run(p, in, out, stream, calls, events, t));
  std::sort(runs.begin(), runs.end());
  us = runs[kTimedRuns / 2];
  return last_device_error();
}

// Runs the chosen plan once on the caller's buffers (so `out` holds its transpose), waits for it,
// and hands it and the report over.
Status keep(Plan& plan, Plan chosen, const void* in, void* out, StreamHandle stream, MeasuredPlanReport* report,
            MeasuredPlanReport how) {
  XPOSE_RETURN_IF_ERROR(execute(chosen, in, out, stream));
  if (chosen.backend() == Backend::cuda) XPOSE_RETURN_IF_ERROR(synchronize_device());
  if (report) *report = std::move(how);
  plan = std::move(chosen);
  return Status::ok_status();
}

}  // namespace

void clear_measured_plans() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache().clear();
}

Status make_measured_plan(Plan& plan, const TransposeDesc& desc, const void* in, void* out, StreamHandle stream,
                          const PlanOptions& options, MeasuredPlanReport* report) {
  const PlanOptions fitted = core::options_for_pointers(options, in, out);
  Plan heuristic;
  XPOSE_RETURN_IF_ERROR(make_plan(heuristic, desc, fitted));
  // Every check execute makes, before any candidate writes.
  XPOSE_RETURN_IF_ERROR(core::validate_pointers(heuristic.desc(), heuristic.algorithm(), in, out));
  if (heuristic.backend() != Backend::cuda || options.algorithm != Algorithm::automatic) {
    // Nothing to choose between: the plan runs once, as a measured one would have.
    return keep(plan, std::move(heuristic), in, out, stream, report, MeasuredPlanReport{});
  }
  XPOSE_RETURN_IF_ERROR(gpu::check_device_pointer(in, "input"));
  XPOSE_RETURN_IF_ERROR(gpu::check_device_pointer(out, "output"));

  const TransposeDesc& d = heuristic.desc();
  const int alignment = heuristic.state()->alignment;
  DeviceInfo info;
  XPOSE_RETURN_IF_ERROR(device_info(info));
  // Calls back to back on one buffer pair that fits in the L2 time the cache, not what a cold call
  // costs (on an H200, 1024^2 choices measured in the L2 ran up to 4% slower cold): there the
  // heuristic choice stands.
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if ((input_span_elements(d) + output_span_elements(d)) * e < info.l2_bytes) {
    MeasuredPlanReport untimed{false, {{heuristic.to_string(), -1.0, kFitsInL2}}};
    return keep(plan, std::move(heuristic), in, out, stream, report, std::move(untimed));
  }
  const bool led = plan::fitted_to_offsets(heuristic.config());
  PlanOptions offsets;  // the pointers' offsets where they lead the heuristic plan (the cache key's part)
  if (led) {
    offsets.in_offset = fitted.in_offset;
    offsets.out_offset = fitted.out_offset;
  }
  const std::string key = shape_class(d, alignment, info, heuristic.config(), fitted, offsets);
  plan::Candidate known;
  bool cached = false;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    const auto it = cache().find(key);
    if (it != cache().end()) {
      known = it->second;
      cached = true;
    }
  }
  if (cached) {
    Plan p;
    if (plan_candidate(p, desc, fitted, known).ok()) {
      MeasuredPlanReport from_cache{true, {{p.to_string(), -1.0, ""}}};
      return keep(plan, std::move(p), in, out, stream, report, std::move(from_cache));
    }
  }

  MeasuredPlanReport measured;
  // The led plan first where the pointers lead it: the others are planned for their alignment alone
  // (the heuristic choice among them for the output pointer's offset, as make_plan chose it).
  std::vector<plan::Candidate> candidates = plan::gpu_candidates(d, alignment, gpu::multiprocessor_count(),
                                                                  gpu::small_batch_whole_matrix_bytes(),
                                                                  fitted.out_offset);
  if (led) candidates.insert(candidates.begin(), plan::Candidate{Algorithm::tiled_vec, 0, 0, 0, true});
  Plan best;
  plan::Candidate best_candidate;
  double best_us = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Plan p;
    MeasuredPlanReport::Candidate row;
    Status st = plan_candidate(p, desc, fitted, candidates[i]);
    if (st.ok()) {
      row.plan = p.to_string();
      st = time_plan(p, in, out, stream, row.us);
    } else {
      row.plan = plan::candidate_name(candidates[i]);
    }
    if (!st.ok()) {
      // The heuristic choice must run; another candidate may not fit this build or these pointers.
      if (i == 0) return st;
      row.us = -1.0;
      row.error = st.message();
    } else if (!best.valid() || row.us < kMinGain * best_us) {
      best = std::move(p);
      best_candidate = candidates[i];
      best_us = row.us;
    }
    measured.candidates.push_back(row);
  }
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    cache()[key] = best_candidate;
  }
  // The last candidate timed wrote `out`; the chosen one writes it last.
  return keep(plan, std::move(best), in, out, stream, report, std::move(measured));
}

}  // namespace xpose
