// The `xpose profile` table: one kernel's Nsight Compute counters set against the ideal transpose
// (each input byte read once, each output byte written once), printed and stored as JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ncu_metrics.hpp"

namespace xpose_cli {

// What one profiled run was and what ncu counted for it.
struct ProfileInput {
  std::string kernel;        // the name given to --kernels ("tiled", "geam", "auto")
  std::string plan;          // as `xpose run-kernel` printed it; "" when unknown
  std::string dtype;
  std::int64_t rows = 0, cols = 0;
  std::size_t element_bytes = 0;
  std::string verification;  // PASSED, FAILED, or "-" when not checked
  CounterValues counters;
  double fallback_peak_gbps = 0;  // the device's DRAM peak when ncu reports none; 0: unknown
};

struct ProfileRecord {
  std::string kernel, plan, dtype, verification;
  std::int64_t rows = 0, cols = 0;
  std::size_t element_bytes = 0;
  bool skipped = false;
  std::string note;  // why it was skipped
  int launches = 0;  // kernels ncu profiled for this one execute() (cuBLAS may launch several)
  double ideal_read_bytes = 0, ideal_write_bytes = 0;
  // Derived figures; empty where a counter is missing.
  std::optional<double> time_us, dram_read_bytes, dram_write_bytes, read_ratio, write_ratio;
  std::optional<double> load_sectors_per_request, store_sectors_per_request;
  std::optional<double> smem_load_conflicts, smem_store_conflicts;
  std::optional<double> dram_gbps, peak_gbps, pct_of_peak;
  std::string peak_source;  // "ncu" (dram__bytes.sum.peak_sustained x DRAM clock), "device", or ""
  CounterValues counters;
};

ProfileRecord build_profile_record(const ProfileInput& in);
// A kernel that cannot run this case (e.g. geam on f16): a row that says why.
ProfileRecord skipped_profile_record(const std::string& kernel, const std::string& dtype, std::int64_t rows,
                                     std::int64_t cols, std::size_t element_bytes, const std::string& note);

// The table with a legend that says what each column's ideal is.
void print_profile_table(std::ostream& os, const std::vector<ProfileRecord>& records);
nlohmann::json profile_record_json(const ProfileRecord& r);

}  // namespace xpose_cli
