// The kernels the measured planner times for one descriptor: every GPU algorithm of the fast path
// that fits it, and for tiled_vec every built tile size and row width that fits.
#pragma once

#include <string>
#include <vector>

#include "plan/gpu_planner.hpp"
#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose::plan {

// One kernel choice. tile_bytes and row_bytes name a tiled_vec tile, bands its tile-column bands
// (the planner's rule, or 1 to time a banded tile without them); 0 for the other algorithms, which
// size themselves.
struct Candidate {
  Algorithm algorithm = Algorithm::automatic;
  int tile_bytes = 0;
  int row_bytes = 0;
  int bands = 0;
  bool led = false;  // tiled_vec with its tile grid led onto the pointers' offsets (configure_led_tiled_vec)
  bool operator==(const Candidate& o) const {
    return algorithm == o.algorithm && tile_bytes == o.tile_bytes && row_bytes == o.row_bytes && bands == o.bands &&
           led == o.led;
  }
};

// The candidates for a resolved descriptor and pointer alignment on a GPU of `sm_count` SMs, the
// heuristic planner's choice first. vendor_geam is listed where cuBLAS/rocBLAS has the type; the
// caller drops what fails to configure on its build. `whole_matrix_bytes`: the device's bound for
// small_batch's whole matrices (gpu::small_batch_whole_matrix_bytes); `out_offset`: the output
// pointer's bytes past a 256-byte boundary (-1: unknown), as choose_gpu_algorithm takes it.
std::vector<Candidate> gpu_candidates(const TransposeDesc& resolved_desc, int alignment, int sm_count,
                                      std::int64_t whole_matrix_bytes = kSmallBatchMaxWholeMatrixBytes,
                                      int out_offset = -1);

// The heuristic planner's choice as a candidate.
Candidate heuristic_candidate(const TransposeDesc& resolved_desc, int alignment, int sm_count,
                              std::int64_t whole_matrix_bytes = kSmallBatchMaxWholeMatrixBytes, int out_offset = -1);

// "tiled_vec/16384B/256B", "tiled_vec/8192B/256B/bands2", "tiled_unaligned": for cache keys and logs.
std::string candidate_name(const Candidate& candidate);

}  // namespace xpose::plan
