// Turning one ncu run's exit status and output into a profile row or the reason it failed.
#include "profile_run.hpp"

#include <initializer_list>
#include <sstream>
#include <vector>

namespace xpose_cli {
namespace {

// The first line of `text` that starts with `prefix`, without trailing blanks; "" when none.
std::string first_line_with(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      return line;
    }
  return "";
}

// The first line of a run's output (stderr, then stdout) that starts with one of `prefixes`.
std::string first_reason(const ProcessResult& run, std::initializer_list<const char*> prefixes) {
  for (const char* prefix : prefixes)
    for (const std::string* text : {&run.err, &run.out}) {
      const std::string line = first_line_with(*text, prefix);
      if (!line.empty()) return line;
    }
  return "";
}

}  // namespace

RunOutcome interpret_ncu_run(const std::string& kernel, const ProcessResult& run, const ProfileCase& c) {
  RunOutcome o;
  std::vector<NcuCapture> captures;
  std::string parse_error;
  const bool parsed = parse_ncu_output(run.out, captures, parse_error);
  const NcuCapture* cap = parsed && !captures.empty() ? &captures.back() : nullptr;
  const auto marker = [&](const char* key) {
    if (cap == nullptr) return std::string();
    const auto it = cap->marker.find(key);
    return it == cap->marker.end() ? std::string() : it->second;
  };

  if (cap != nullptr && run.exit_code == 0 && !marker("skipped").empty()) {
    o.kind = RunOutcome::Kind::skipped;
    o.record = skipped_profile_record(kernel, c.dtype, c.rows, c.cols, c.element_bytes, marker("skipped"));
    return o;
  }
  // run-kernel exits 1 when its result fails the check: still a row, marked FAILED.
  const bool failed_check = marker("verification") == "FAILED";
  if (cap == nullptr || cap->launches.empty() || (run.exit_code != 0 && !failed_check)) {
    o.kind = RunOutcome::Kind::failed;
    // An error printed by run-kernel or ncu says it best, then a parse error; ncu's warnings come
    // last, since one (about unlocked clocks) accompanies every run, good or bad.
    o.error = first_reason(run, {"xpose run-kernel: error:", "==ERROR=="});
    if (o.error.empty() && !parsed) o.error = parse_error;
    if (o.error.empty()) o.error = first_reason(run, {"==WARNING== No kernels"});
    if (o.error.empty() && run.exit_code != 0) o.error = "ncu exited with status " + std::to_string(run.exit_code);
    if (o.error.empty()) o.error = "ncu profiled no kernel launch";
    return o;
  }
  ProfileInput in;
  in.kernel = kernel;
  in.plan = marker("plan");
  in.dtype = c.dtype;
  in.rows = c.rows;
  in.cols = c.cols;
  in.element_bytes = c.element_bytes;
  in.verification = marker("verification").empty() ? "-" : marker("verification");
  in.counters = combine_launches(cap->launches);
  in.fallback_peak_gbps = c.fallback_peak_gbps;
  o.kind = RunOutcome::Kind::measured;
  o.record = build_profile_record(in);
  o.launches = in.counters.launches;
  return o;
}

}  // namespace xpose_cli
