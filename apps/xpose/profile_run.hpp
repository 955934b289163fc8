// What one ncu run over `xpose run-kernel` produced: a measured row, a skipped row, or a one-line error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ncu_runner.hpp"
#include "profile_table.hpp"

namespace xpose_cli {

// The case every kernel of one `xpose profile` runs.
struct ProfileCase {
  std::string dtype;
  std::int64_t rows = 0, cols = 0;
  std::size_t element_bytes = 0;
  double fallback_peak_gbps = 0;  // the device's DRAM peak, for when ncu reports none
};

struct RunOutcome {
  enum class Kind { measured, skipped, failed };
  Kind kind = Kind::failed;
  ProfileRecord record;  // measured or skipped
  std::string error;     // failed: the most telling line of the output
  int launches = 0;
};

// Reads ncu's exit status and output for `kernel`. A result that failed verification is still a
// measured row (its record says FAILED); no table, no launch, or an error from ncu or run-kernel fail.
RunOutcome interpret_ncu_run(const std::string& kernel, const ProcessResult& run, const ProfileCase& c);

}  // namespace xpose_cli
