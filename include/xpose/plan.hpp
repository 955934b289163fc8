// Plan / execute: validate and choose once, then run many times with no allocation or host sync.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "xpose/descriptor.hpp"
#include "xpose/status.hpp"

namespace xpose {

// A cudaStream_t (or hipStream_t) passed as an opaque handle, so this header needs no GPU header.
// nullptr is the default stream.
using StreamHandle = void*;

enum class Backend { automatic, cuda, cpu };

// The algorithms a caller may ask for. `automatic` lets the planner choose.
enum class Algorithm {
  automatic,
  copy,             // GPU baseline: copies in -> out WITHOUT transposing (out has the input's shape)
  naive_read,       // GPU: one thread per source element; coalesced reads, strided writes
  naive_write,      // GPU: one thread per destination element; strided reads, coalesced writes
  tiled,            // GPU: shared-memory tile TILE x TILE, keeps its bank conflicts (the lesson)
  tiled_padded,     // GPU: shared-memory tile TILE x (TILE + 1), no bank conflicts
  tiled_vec,        // GPU: 16-byte loads and stores, swizzled tile, packed 1-/2-byte elements (the fast path)
  tiled_unaligned,  // GPU: aligned 16-byte chunks for any strides; row shifts undone in shared memory
  skinny,           // GPU: one side of a few elements: a thread per long index loops over the short side
  gather,           // GPU: no shared memory; 16-byte output vectors gathered from global memory (small matrices)
  tiled_sectors,    // GPU: 1-/2-byte elements, output rows on the 8-byte grid: every output sector written whole
  small_batch,      // GPU: batches of small matrices, several whole matrices per block
  vendor_geam,      // GPU: cuBLAS geam (f32, f64, c64, c128 only)
  vector_copy,      // GPU: a row or column vector (batch) whose transpose keeps every byte's order: one copy
  cpu_reference,    // CPU: plain loops, the test oracle
  cpu_blocked,      // CPU: cache-blocked tiles
};

const char* algorithm_name(Algorithm algorithm);
bool parse_algorithm(const std::string& name, Algorithm& out);
const char* backend_name(Backend backend);
bool parse_backend(const std::string& name, Backend& out);  // "auto", "cuda" or "cpu"
Backend algorithm_backend(Algorithm algorithm);  // automatic -> Backend::automatic

// The grid PlanOptions::in_offset / out_offset place the pointers on: tiles whose input rows start
// 128 bytes into a 256-byte block ran 1.4-4% slower on an H200 than on the block's start (8192^2, u8
// to f64; bench/results/h200_2026-11-30c_led_interior.txt), so led plans aim at 256 bytes.
constexpr int kPointerOffsetGrid = 256;

struct PlanOptions {
  Backend backend = Backend::automatic;
  Algorithm algorithm = Algorithm::automatic;
  // The alignment in bytes that the caller promises for the input and output pointers given to
  // execute (0: 16, what cudaMalloc and the xpose allocators give). Vectorised kernels are chosen
  // only where it allows them; execute refuses pointers that break the promise.
  int alignment = 0;
  // Where the pointers given to execute will lie: their addresses modulo kPointerOffsetGrid (256)
  // bytes, or -1 where not known (transpose() and make_measured_plan fill them in from their
  // pointers). With both known, a matrix whose strides are multiples of 16 bytes but whose pointers
  // are off that grid (a slice of a larger matrix, say) runs tiled_vec with its tile grid moved to
  // start before the matrix, so that the tiles inside meet whole aligned accesses and 256-byte
  // blocks as far as the strides allow; the plan shows the move as `lead<rows>x<cols>`, and execute
  // then refuses pointers at other offsets modulo 16. So it does for a few-rows matrix of one tile row
  // whose output pointer alone is off the grid (`shifted_out` in the plan: each tile's output run is
  // written shifted to it). A tiled_unaligned plan of 1- and 2-byte elements
  // also takes each known offset's own alignment: where one side lies on the 16-byte grid its tiles may
  // take that side's chunks whole, and execute then refuses that side's pointer off the grid.
  int in_offset = -1, out_offset = -1;
};

// Launch geometry chosen by the planner; printed with every result.
struct LaunchConfig {
  int tile_rows = 0, tile_cols = 0;   // elements per tile (0 when not tiled)
  int pad = 0;                        // extra shared-memory columns per tile row
  bool swizzled = false;              // shared-memory tile addressed with an XOR swizzle instead of padding
  int block_x = 0, block_y = 0;       // threads per block
  std::int64_t grid_x = 0, grid_y = 0, grid_z = 0;
  int vector_bytes = 0;               // bytes per global access (element size when not vectorised)
  int bands = 1;                      // tile-column bands walked side by side (tiled_vec; 1: none)
  int rotation = 0;                   // small_batch: slope of the lanes' rotated read orders (0: in order)
  int lead_rows = 0, lead_cols = 0;   // tiled_vec: rows / columns its tile grid starts before the matrix
  bool shifted_output = false;        // tiled_vec: each tile's output run written to a pointer off the grid
};

class Plan {
 public:
  Plan();
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  bool valid() const;
  const TransposeDesc& desc() const;  // resolved (no zero strides)
  Algorithm algorithm() const;
  Backend backend() const;
  const LaunchConfig& config() const;
  // "tiled_padded<32x32,pad1,vec8B> block=(32,8) grid=(256,256,1)"
  std::string to_string() const;

  struct State;  // private to the library
  State* state() const { return state_.get(); }

 private:
  friend Status make_plan(Plan&, const TransposeDesc&, const PlanOptions&);
  std::unique_ptr<State> state_;
};

std::ostream& operator<<(std::ostream& os, const Plan& plan);

// Validates `desc`, picks backend and algorithm. On error `plan` is left as it was.
Status make_plan(Plan& plan, const TransposeDesc& desc, const PlanOptions& options = PlanOptions{});

// Runs the plan: GPU plans enqueue on `stream` and return without waiting; CPU plans run to
// completion. Checks the pointers (null, overlap, host vs device) before anything is written.
Status execute(const Plan& plan, const void* in, void* out, StreamHandle stream = nullptr);

// Measured planning: the heuristic planner knows the GPUs it was tuned on; this one times the
// candidate kernels that fit `desc` (the heuristic choice, tiled_vec's other tile shapes,
// tiled_unaligned, skinny, gather, the vendor's geam) on the caller's buffers and keeps the fastest, which
// must beat the heuristic choice by 1% to replace it. Where input and output together fit in the
// GPU's L2, calls back to back would time the cache: the heuristic choice stands there, untimed.
// A choice is remembered for the process per device and shape class (element size, extents to a
// power of two, stride and pointer alignment): later calls of the class plan without timing. `in`
// is read and `out` ends holding the transpose; work goes to `stream` and is waited for. With
// options.alignment 0 the plan fits the alignment of `in` and `out`. A CPU backend or an algorithm
// fixed in `options` leaves nothing to measure: the plan is make_plan's, run once. Bad input
// returns an error before anything is written.
struct MeasuredPlanReport {
  struct Candidate {
    std::string plan;  // Plan::to_string of the candidate
    double us = -1.0;  // median time per call; -1 where it was not timed
    std::string error;  // why not
  };
  bool from_cache = false;           // the shape class was measured before: nothing timed
  std::vector<Candidate> candidates;  // the heuristic choice first
};
Status make_measured_plan(Plan& plan, const TransposeDesc& desc, const void* in, void* out,
                          StreamHandle stream = nullptr, const PlanOptions& options = PlanOptions{},
                          MeasuredPlanReport* report = nullptr);

// Forgets the choices make_measured_plan remembered (all devices).
void clear_measured_plans();

// One call: plan + execute.
Status transpose(const TransposeDesc& desc, const void* in, void* out, StreamHandle stream = nullptr,
                 const PlanOptions& options = PlanOptions{});

}  // namespace xpose
