// Candidate kernels for the measured planner (host code: no GPU call here).
#include "plan/candidates.hpp"

#include <algorithm>

#include "gpu/vendor/geam_types.hpp"
#include "plan/gpu_planner.hpp"
#include "plan/tiled_vec_shape.hpp"

namespace xpose::plan {

Candidate heuristic_candidate(const TransposeDesc& d, int alignment, int sm_count, std::int64_t whole_matrix_bytes,
                              int out_offset) {
  Candidate c;
  c.algorithm = choose_gpu_algorithm(d, alignment, whole_matrix_bytes, out_offset);
  if (c.algorithm == Algorithm::tiled_vec) {
    LaunchConfig config;
    if (configure_tiled_vec(d, alignment, sm_count, config).ok()) {
      const int esize = static_cast<int>(dtype_size(d.dtype));
      c.row_bytes = config.tile_cols * esize;
      c.tile_bytes = config.tile_rows * c.row_bytes;
      c.bands = config.bands;
    }
  }
  return c;
}

std::vector<Candidate> gpu_candidates(const TransposeDesc& d, int alignment, int sm_count,
                                      std::int64_t whole_matrix_bytes, int out_offset) {
  std::vector<Candidate> out{heuristic_candidate(d, alignment, sm_count, whole_matrix_bytes, out_offset)};
  const auto add = [&out](const Candidate& c) {
    for (const Candidate& have : out)
      if (have == c) return;
    out.push_back(c);
  };
  const int esize = static_cast<int>(dtype_size(d.dtype));
  const std::int64_t row_bytes_of_matrix = d.cols * esize;
  if (tiled_vec_vector_bytes(d, alignment) != 0) {
    for (int tile_bytes : {kVecTileBytesTiny, kVecTileBytesSmall, kVecTileBytes, kVecTileBytesLarge}) {
      // 4 KiB tiles of wider elements serve matrices under 8 MiB, which fit the L2 and are never
      // timed, and batches of small matrices (small_tiles_fill_batch), where the heuristic's own 4 KiB
      // tile is candidate 0: other 4 KiB row widths are not tried.
      if (tile_bytes == kVecTileBytesTiny && esize != 1) continue;
      for (int row_bytes = tiled_vec_min_row_bytes(esize, tile_bytes);
           row_bytes <= tiled_vec_max_row_bytes(esize, tile_bytes); row_bytes *= 2) {
        // A tile row over twice the matrix's row is mostly empty; 32-byte rows only for rows that fit.
        if (row_bytes < kVecMinRowBytes && row_bytes < row_bytes_of_matrix) continue;
        if (row_bytes > kVecMinRowBytes && row_bytes >= 2 * row_bytes_of_matrix) break;
        // The tile as the planner would walk it, and where that is in bands, also without them.
        LaunchConfig config;
        if (!configure_tiled_vec_tile(d, alignment, tile_bytes, row_bytes, config).ok()) continue;
        add(Candidate{Algorithm::tiled_vec, tile_bytes, row_bytes, config.bands});
        if (config.bands > 1) add(Candidate{Algorithm::tiled_vec, tile_bytes, row_bytes, 1});
      }
    }
  }
  if (alignment >= esize) add(Candidate{Algorithm::tiled_unaligned});
  if (gather_runs(d, alignment)) add(Candidate{Algorithm::gather});
  if (tiled_sectors_load_bytes(d, alignment) != 0 && !output_rows_sector_aligned(d))
    add(Candidate{Algorithm::tiled_sectors});
  if (std::min(d.rows, d.cols) <= kSkinnyMaxShort || short_side_takes_skinny(d, alignment) ||
      skinny_rows_regs_wide_runs(d) || skinny_cols_regs_wide_runs(d) || few_rows_output_slabs_run(d))
    add(Candidate{Algorithm::skinny});
  if (small_batch_fits(d, whole_matrix_bytes)) add(Candidate{Algorithm::small_batch});
  if (gpu::geam_has_type(d.dtype)) add(Candidate{Algorithm::vendor_geam});
  return out;
}

std::string candidate_name(const Candidate& c) {
  std::string name = algorithm_name(c.algorithm);
  if (c.led) return name + "/led";
  if (c.algorithm == Algorithm::tiled_vec) {
    name += "/" + std::to_string(c.tile_bytes) + "B/" + std::to_string(c.row_bytes) + "B";
    if (c.bands > 1) name += "/bands" + std::to_string(c.bands);
  }
  return name;
}

}  // namespace xpose::plan
