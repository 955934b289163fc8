// InPlacePlan: validate the layout (square, or packed rows for non-square matrices), choose the
// backend and the way (tile pairs for square matrices; for others square blocks and pieces where the
// sides share a large factor, else the shuffle passes), and run it after checking the one pointer.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/env.hpp"
#include "core/validate.hpp"
#include "cpu/blocked.hpp"
#include "cpu/in_place.hpp"
#include "gpu/gpu_backend.hpp"
#include "plan/in_place.hpp"
#include "xpose/device.hpp"
#include "xpose/in_place.hpp"

namespace xpose {

struct InPlacePlan::State {
  TransposeDesc desc;  // resolved: batch_stride_out the input's; ld_out ld_in (square) or rows (packed)
  Backend backend = Backend::cpu;
  bool reference = false;  // PlanOptions::algorithm == cpu_reference
  int alignment = 16;
  plan::InPlaceConfig config;         // cuda, square
  bool cpu_blocks = false;            // cpu, non-square: square blocks, then pieces (else the shuffles)
  cpu::SquareBlocksPlan cpu_pieces;
  bool pieces = false;                // cuda, non-square: square blocks, then pieces (else the shuffles)
  plan::PiecesConfig blocks_and_pieces;
  DeviceBuffer piece_segments;        // its segments, on the device
  plan::ShuffleConfig shuffles;       // cuda, non-square
  // cuda, non-square: the pieces' saved pieces, or the shuffles' rows through scratch
  // (shuffles.scratch_bytes)
  DeviceBuffer scratch;
};

namespace {

Status invalid(const std::string& message) { return Status(StatusCode::invalid_argument, message); }

std::string str(std::int64_t v) { return std::to_string(v); }

// The layout checks of a transpose, then what in place adds: the output's strides the input's for
// square matrices; packed rows on both sides for others, whose rows change length. Fills `out` with
// the descriptor resolved so.
Status validate_in_place_desc(const TransposeDesc& desc, TransposeDesc& out) {
  XPOSE_RETURN_IF_ERROR(core::validate_desc(desc, Algorithm::automatic));
  TransposeDesc d = resolved(desc);
  const bool square = d.rows == d.cols;
  if (!square && d.ld_in != d.cols)
    return invalid("an in-place transpose of a non-square matrix needs packed rows (ld_in " + str(d.ld_in) +
                   " for " + str(d.cols) + " columns): its rows change length");
  const std::int64_t ld_out = square ? d.ld_in : d.rows;
  if (desc.ld_out != 0 && desc.ld_out != ld_out)
    return invalid("in place, ld_out (" + str(desc.ld_out) + ") must be 0 or " +
                   (square ? "ld_in (" + str(ld_out) + "): the output is the input's buffer"
                           : str(ld_out) + ", the output's packed rows"));
  if (desc.batch_stride_out != 0 && desc.batch_stride_out != d.batch_stride_in)
    return invalid("in place, batch_stride_out (" + str(desc.batch_stride_out) + ") must be 0 or batch_stride_in (" +
                   str(d.batch_stride_in) + "): the output is the input's buffer");
  d.ld_out = ld_out;
  d.batch_stride_out = d.batch_stride_in;
  out = d;
  return Status::ok_status();
}

// Shared memory a GPU block may hold where the device does not say (the limit without an opt-in).
constexpr std::int64_t kDefaultSharedPerBlock = 48 * 1024;

// "in_place<row and column shuffles,view=3000x1000,column_block=8,row_block=4,passes=3> block=(1024,256)":
// the column passes' threads, then the row pass's.
std::string shuffles_name(const plan::ShuffleConfig& c) {
  if (c.view_rows == 1 || c.view_cols == 1) return "in_place<one row or column: nothing to move>";
  plan::ShufflePass passes[3];
  std::ostringstream os;
  os << "in_place<row and column shuffles,view=" << c.view_rows << "x" << c.view_cols
     << (c.transposed_view ? " (transposed)" : "") << ",column_block=" << c.column_width
     << (c.long_rows ? ",rows through scratch x" + std::to_string(c.staged_rows) +
                           (c.long_tile > 0 ? " in tiles of " + std::to_string(c.long_tile) : std::string())
                     : ",row_block=" + std::to_string(c.rows_per_block) + (c.swizzle_rows ? ",swizzled" : ""))
     << (c.column_words ? ",column_words" : "") << (c.row_words ? ",row_words" : "")
     << ",passes=" << plan::shuffle_passes(c, passes) << "> block=("
     << plan::kShuffleColumnThreads << "," << plan::kShuffleRowThreads << ")";
  return os.str();
}

// The pieces' segments to the device, and their scratch. The copy from pageable memory may return
// before it lands, and the plan's streams do not wait for it, hence the device synchronisation.
Status upload_pieces(InPlacePlan::State& s) {
  const std::vector<plan::PieceSegment>& segments = s.blocks_and_pieces.segments.segments;
  const std::size_t table = segments.size() * sizeof(plan::PieceSegment);
  if (table > 0) {
    XPOSE_RETURN_IF_ERROR(s.piece_segments.allocate(table));
    XPOSE_RETURN_IF_ERROR(copy_host_to_device(s.piece_segments.data(), segments.data(), table));
    XPOSE_RETURN_IF_ERROR(synchronize_device());
  }
  if (s.blocks_and_pieces.saved_bytes() > 0)
    XPOSE_RETURN_IF_ERROR(s.scratch.allocate(static_cast<std::size_t>(s.blocks_and_pieces.saved_bytes())));
  return Status::ok_status();
}

// The square kernel and its access: "vec16B", "realigned", "elements", "small squares 14 a block,16B"
// (", in groups" where a launch takes several rows of blocks).
std::string square_kernel_name(const plan::InPlaceConfig& c) {
  switch (c.kernel) {
    case plan::InPlaceKernel::vectors: return "vec" + std::to_string(c.vector_bytes) + "B";
    case plan::InPlaceKernel::realigned: return "realigned";
    case plan::InPlaceKernel::elements: return "elements";
    case plan::InPlaceKernel::small_squares:
      return "small squares " + std::to_string(c.matrices_per_block) + " a block," + std::to_string(c.vector_bytes) +
             "B" + (c.group_count > 0 ? ", in groups" : "");
  }
  return "?";
}

// "in_place<4096x4096 blocks,vec16B, then pieces of 4096 B in 16-byte units: 2340 cycles whole, 0 segments
// saved> block=(256,256)": the blocks' threads, then the pieces'.
std::string pieces_name(const plan::PiecesConfig& c) {
  const std::int64_t all = static_cast<std::int64_t>(c.segments.segments.size());
  const plan::InPlaceConfig& b = c.block_config;
  std::ostringstream os;
  os << "in_place<" << c.map.g << "x" << c.map.g << " blocks," << square_kernel_name(b) << ", then pieces of "
     << c.map.g * static_cast<std::int64_t>(dtype_size(c.blocks.dtype)) << " B in " << c.unit_bytes << "-byte units"
     << (c.group_threads < c.threads ? ", " + std::to_string(c.group_threads) + " threads each" : std::string()) << ": "
     << all - c.segments.saved << " cycles whole, " << c.segments.saved << " segments saved> block=(" << b.threads
     << "," << c.threads << ")";
  return os.str();
}

}  // namespace

InPlacePlan::InPlacePlan() = default;
InPlacePlan::~InPlacePlan() = default;
InPlacePlan::InPlacePlan(InPlacePlan&&) noexcept = default;
InPlacePlan& InPlacePlan::operator=(InPlacePlan&&) noexcept = default;

bool InPlacePlan::valid() const { return state_ != nullptr; }
const TransposeDesc& InPlacePlan::desc() const { return state_->desc; }
Backend InPlacePlan::backend() const { return state_->backend; }

std::string InPlacePlan::to_string() const {
  if (!state_) return "<empty plan>";
  const State& s = *state_;
  const bool square = s.desc.rows == s.desc.cols;
  if (s.reference) return square ? "in_place<cpu_reference swaps> (cpu)" : "in_place<cpu_reference copy> (cpu)";
  if (!square && s.backend == Backend::cuda && s.pieces) return pieces_name(s.blocks_and_pieces) + " (cuda)";
  if (!square && s.backend == Backend::cuda) return shuffles_name(s.shuffles) + " (cuda)";
  if (!square && s.cpu_blocks) {
    const std::string g = std::to_string(s.cpu_pieces.pieces.g);
    return "in_place<" + g + "x" + g + " blocks, then pieces> (cpu)";
  }
  if (!square) return "in_place<row and column shuffles> (cpu)";
  std::ostringstream os;
  const int edge = s.backend == Backend::cuda
                       ? s.config.tile
                       : cpu::blocked_tile_edge(dtype_size(s.desc.dtype));
  const bool pairs = s.backend != Backend::cuda || s.config.kernel != plan::InPlaceKernel::small_squares;
  os << "in_place<" << edge << "x" << edge << (pairs ? " tile pairs" : "");
  if (s.backend == Backend::cuda) {
    const plan::InPlaceConfig& c = s.config;
    os << "," << square_kernel_name(c) << "> block=(" << c.threads << ") grid=(" << c.blocks << ")";
  } else {
    os << ">";
  }
  os << " (" << backend_name(s.backend) << ')';
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const InPlacePlan& plan) { return os << plan.to_string(); }

namespace {

// make_plan's work into `s`; `one_call` for transpose_in_place's plan, used once.
Status plan_in_place(InPlacePlan::State& s, const TransposeDesc& desc, const PlanOptions& options, bool one_call) {
  XPOSE_RETURN_IF_ERROR(validate_in_place_desc(desc, s.desc));
  core::ResolvedOptions resolved_options;
  XPOSE_RETURN_IF_ERROR(core::resolve_oracle_or_auto_options(options, "an in-place transpose", resolved_options));
  s.backend = resolved_options.backend;
  s.reference = resolved_options.reference;
  s.alignment = resolved_options.alignment;
  if (s.backend == Backend::cpu && !s.reference && s.desc.rows != s.desc.cols && cpu::square_blocks_fit(s.desc)) {
    s.cpu_blocks = true;
    s.cpu_pieces = cpu::square_blocks_plan(s.desc);
  }
  if (s.backend != Backend::cuda) return Status::ok_status();
  if (s.desc.rows == s.desc.cols) {
    s.config = plan::choose_in_place(s.desc, s.alignment);
    return Status::ok_status();
  }
  const std::int64_t limit =
      gpu::shared_per_block_limit() > 0 ? gpu::shared_per_block_limit() : kDefaultSharedPerBlock;
  // The shuffles' plan first (no memory yet): whether they can run decides the one-call rule, and it
  // is kept where blocks and pieces are not taken. For measuring: XPOSE_SHUFFLE_COLUMN_BYTES, column
  // blocks of that many bytes a row; XPOSE_SHUFFLE_WORDS=0, 1- and 2-byte elements moved one at a time.
  const int words_alignment = core::env_int("XPOSE_SHUFFLE_WORDS", 1) != 0 ? s.alignment : 1;
  const Status shuffles = plan::choose_in_place_shuffles(
      s.desc, limit, s.shuffles, core::env_int("XPOSE_SHUFFLE_COLUMN_BYTES", 0), words_alignment);
  // For measuring: XPOSE_IN_PLACE_PIECES=0, the shuffles instead, =2 pieces of any size in every kind
  // of shape; XPOSE_PIECE_GROUPS=0, one segment a block for pieces of every size.
  const int pieces_mode = core::env_int("XPOSE_IN_PLACE_PIECES", 1);
  if (pieces_mode != 0) {
    plan::PiecesChoice choice;
    choice.grouped = core::env_int("XPOSE_PIECE_GROUPS", 1) != 0;
    choice.any_size = pieces_mode == 2;
    if (one_call && shuffles.ok()) choice.min_piece_bytes = plan::kOneCallMinPieceBytes;
    s.pieces = plan::choose_in_place_pieces(s.desc, s.alignment, limit, s.blocks_and_pieces, choice);
  }
  if (s.pieces) return upload_pieces(s);
  XPOSE_RETURN_IF_ERROR(shuffles);
  if (s.shuffles.long_rows)
    XPOSE_RETURN_IF_ERROR(s.scratch.allocate(static_cast<std::size_t>(s.shuffles.scratch_bytes)));
  return Status::ok_status();
}

Status execute_state(const InPlacePlan::State& s, void* data, StreamHandle stream) {
  if (data == nullptr) return invalid("data pointer is null");
  const std::size_t align = core::element_alignment(s.desc.dtype);
  if (reinterpret_cast<std::uintptr_t>(data) % align != 0)
    return invalid("data must be aligned to " + std::to_string(align) + " bytes for " + dtype_name(s.desc.dtype));
  if (s.backend == Backend::cuda) XPOSE_RETURN_IF_ERROR(core::validate_plan_alignment(s.alignment, data, data));
  XPOSE_RETURN_IF_ERROR(core::validate_backend_memory(s.backend, data, data));
  if (s.backend == Backend::cuda && s.desc.rows == s.desc.cols)
    return gpu::launch_in_place(s.desc, s.config, data, stream);
  if (s.backend == Backend::cuda && s.pieces)
    return gpu::launch_in_place_pieces(s.desc, s.blocks_and_pieces, data, s.piece_segments.data(), s.scratch.data(),
                                       stream);
  if (s.backend == Backend::cuda)
    return gpu::launch_in_place_shuffles(s.desc, s.shuffles, data, s.scratch.data(), stream);
  if (s.reference)
    cpu::reference_transpose_in_place(s.desc, data);
  else if (s.cpu_blocks)
    cpu::square_blocks_transpose_in_place(s.desc, s.cpu_pieces, data);
  else if (s.desc.rows != s.desc.cols)
    cpu::shuffled_transpose_in_place(s.desc, data);
  else
    cpu::blocked_transpose_in_place(s.desc, data);
  return Status::ok_status();
}

}  // namespace

Status make_plan(InPlacePlan& plan, const TransposeDesc& desc, const PlanOptions& options) {
  auto s = std::make_unique<InPlacePlan::State>();
  XPOSE_RETURN_IF_ERROR(plan_in_place(*s, desc, options, false));
  plan.state_ = std::move(s);
  return Status::ok_status();
}

Status execute(const InPlacePlan& plan, void* data, StreamHandle stream) {
  if (!plan.valid()) return invalid("plan is empty: call make_plan first");
  return execute_state(*plan.state(), data, stream);
}

Status transpose_in_place(const TransposeDesc& desc, void* data, StreamHandle stream, const PlanOptions& options) {
  InPlacePlan::State s;
  XPOSE_RETURN_IF_ERROR(plan_in_place(s, desc, core::options_for_pointers(options, data, data), true));
  const Status run = execute_state(s, data, stream);
  // The plan's device memory is freed on return: whatever was enqueued that reads it must be done.
  if (s.scratch.data() != nullptr || s.piece_segments.data() != nullptr)
    XPOSE_RETURN_IF_ERROR(gpu::synchronize_stream(stream));
  return run;
}

}  // namespace xpose
