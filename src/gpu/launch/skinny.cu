// Launcher for the skinny family: the direct kernel, or slabs of the whole short side in shared memory.
#include <string>
#include <type_traits>  // std::integral_constant
#include <utility>

#include "gpu/gpu_backend.hpp"
#include "gpu/kernels/skinny.cuh"
#include "gpu/kernels/skinny_cols_regs.cuh"
#include "gpu/kernels/skinny_cols_vec.cuh"
#include "gpu/kernels/skinny_rows_padded.cuh"
#include "gpu/kernels/skinny_rows_regs.cuh"
#include "gpu/kernels/skinny_rows_vec.cuh"
#include "gpu/launch/launch_common.hpp"
#include "gpu/launch/launchers.hpp"
#include "plan/gpu_planner.hpp"

namespace xpose::gpu {

namespace {

// Columns per staged slab: as many as the shared memory holds, at most 1024 so that long matrices
// still give many blocks.
int slab_span(const TransposeDesc& d) {
  const std::int64_t fit = kSkinnySmemBytes / (d.rows * static_cast<std::int64_t>(dtype_size(d.dtype)));
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(fit, 1024)));
}

// f(std::integral_constant<int, N>{}) for the extent n = N in [Lo, Hi]: the compile-time instance of a
// kernel built for each extent of that range (`what` names it where n is outside).
template <int Lo, int Hi, typename F>
Status dispatch_extent(std::int64_t n, const char* what, F&& f) {
  if constexpr (Lo > Hi) {
    return Status(StatusCode::internal, std::string("skinny: no ") + what + " for this extent");
  } else {
    if (n == Lo) return f(std::integral_constant<int, Lo>{});
    return dispatch_extent<Lo + 1, Hi>(n, what, std::forward<F>(f));
  }
}

// dispatch_element_size for a kernel built for elements of at most kMaxBytes bytes.
template <std::size_t kMaxBytes, typename F>
Status dispatch_element_size_up_to(std::size_t bytes, const char* what, F&& f) {
  return dispatch_element_size(bytes, [&](auto tag) -> Status {
    if constexpr (sizeof(decltype(tag)) <= kMaxBytes)
      return f(tag);
    else
      return Status(StatusCode::internal, std::string("skinny: ") + what + " is not built for this element size");
  });
}

// One row into a column whose elements lie a sector or more apart: each element is a partial write
// of a sector of its own, and one thread per element (the direct kernel) keeps the most of them in
// flight. Measured on an H200 (of memcpy, slabs -> direct; bench/results/h200_2026-11-25zn_single_row_scatter.txt):
// c128 1x2097152 ld_out 65 0.092 -> 0.139 and ld_out 2 0.393 -> 0.469 (whole 16-byte stores), u8 ld_out 65
// 0.022 -> 0.027, f32 ld_out 17 0.093 -> 0.105, f64 ld_out 4 level. Where the elements share sectors the
// slabs stay ahead of one element a thread (u8 ld_out 4 0.270 / 0.197, f64 ld_out 3 0.334 / 0.327;
// h200_2026-11-25zn_strided_vector_probe.txt).
bool single_row_scatter(const TransposeDesc& d) {
  return d.rows == 1 && d.cols > 1 && d.ld_out * static_cast<std::int64_t>(dtype_size(d.dtype)) >= 32;
}

// Staging pays for a few rows of 4- to 16-byte elements; a few columns, or 1- and 2-byte elements,
// run faster with one thread per long-side index (measured on an H200, bench/results/).
bool use_staged(const TransposeDesc& d) {
  return d.rows < d.cols && dtype_size(d.dtype) >= 4 && !single_row_scatter(d);
}

// Whether every run of every input row is one aligned 16-byte chunk (`in` null: the strides only).
bool rows_regs_input_aligned(const TransposeDesc& d, const void* in) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && d.ld_in * e % 16 == 0 &&
         (d.batch == 1 || d.batch_stride_in * e % 16 == 0);
}

// 2 to 8 rows with packed output rows on the 16-byte grid: transposed in registers, stored through a
// per-warp stage (pointers are checked at launch: an output pointer off the grid takes the slab kernel
// for 4- to 16-byte elements, while 1- and 2-byte ones store their stretches shifted). 1- and 2-byte
// input rows off the grid are realigned in registers: measured on an H200 (of memcpy, slab kernel
// -> realigned, bench/results/h200_2026-11-24s_rows_regs_realigned.txt) u8 2x33554431 0.71 -> 0.99,
// 5x13421772 0.69 -> 0.88, 7x9586980 0.66 -> 0.86, bf16 5x6710886 0.82 -> 0.90, 7x4793490 0.82 ->
// 0.83; 4- and 8-byte ones ran slower realigned (f32 7x2396745 0.95 -> 0.83, f64 5x1677721 0.94 ->
// 0.90) and keep the slab kernel. XPOSE_SKINNY_ROWS_REGS=0 turns it off, to measure against it.
bool use_rows_regs(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_ROWS_REGS", '0');
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return enabled && d.rows >= 2 && d.rows <= kSkinnyRegsMaxRows && d.rows < d.cols && d.ld_out == d.rows &&
         (d.batch == 1 || d.batch_stride_out * e % 16 == 0) && (e <= 2 || rows_regs_input_aligned(d, nullptr));
}

// Threads of the register kernel per matrix: one per 16-byte chunk of columns (per `piece_bytes`: the
// one-run kernel's half pieces).
std::int64_t rows_regs_runs(const TransposeDesc& d, int piece_bytes = 16) {
  return ceil_div(d.cols, piece_bytes / static_cast<std::int64_t>(dtype_size(d.dtype)));
}

// 9 to 48 rows of 1- and 2-byte elements with packed output rows on the 16-byte grid: the wide-rows
// register kernel (plan::skinny_rows_regs_wide_runs; a matrix per row of its grid).
bool use_rows_regs_wide(const TransposeDesc& d) {
  return plan::skinny_rows_regs_wide_runs(d) && d.batch <= kMaxGridYZ;
}

// Columns per thread of the wide-rows register kernel (its piece of every row), and its threads per
// matrix.
std::int64_t rows_regs_wide_columns(const TransposeDesc& d) {
  return rows_regs_piece_bytes(static_cast<int>(d.rows)) / static_cast<std::int64_t>(dtype_size(d.dtype));
}
std::int64_t rows_regs_wide_runs(const TransposeDesc& d) { return ceil_div(d.cols, rows_regs_wide_columns(d)); }

// A few columns with packed input rows: the input of a slab is one run, read in 16-byte chunks.
// For 1- to 4-byte elements (H200, 1048576x3: u8 0.53 -> 1.00 of memcpy, bf16 0.69 -> 0.93, f32
// 0.87 -> 0.98); 8-byte elements from 8 columns (skinny runs them where tiled_vec's 16-byte tiles cannot:
// H200, input one element off, direct kernel -> slabs, two rounds alike,
// bench/results/h200_2026-11-30i_cols_vec_realign_overlap.txt: f64 524288x16 0.69 -> 0.92, 699050x12 0.91
// -> 1.03, 1048576x8 0.93 -> 0.94; x17 0.75 -> 0.98 earlier; aligned pointers with output rows or column
// counts off the grid, such as f64 1048575x12, take the slabs too and were not timed), fewer on the
// direct kernel (x5 1.01-1.03 either way; 1048576x3 0.96 against the slabs' 0.92, when they were new);
// 16-byte ones go to tiled_vec where they can. Where it runs: plan::skinny_cols_vec_runs.
// XPOSE_SKINNY_COLS_VEC=0 turns it off, to measure against it.
bool use_cols_vec(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_COLS_VEC", '0');
  return enabled && plan::skinny_cols_vec_runs(d);
}

// Input rows per thread of the column-register kernel (its piece of every output row over E), and its
// threads per matrix.
std::int64_t cols_regs_rows(const TransposeDesc& d) {
  return cols_regs_piece_bytes(static_cast<int>(d.cols)) / static_cast<std::int64_t>(dtype_size(d.dtype));
}
std::int64_t cols_regs_runs(const TransposeDesc& d) { return ceil_div(d.rows, cols_regs_rows(d)); }

// Where the column-register kernel measured ahead of the slab kernel (skinny_cols_vec) or the direct
// one (8-byte elements). H200, of memcpy, before -> after, three rounds alike
// (bench/results/h200_2026-11-25zo_cols_regs_ab.txt): u8 1048576 rows x2 / x3 / x4 / x5 / x8 0.83 /
// 0.84 / 0.86 / 0.86 / 0.87 -> 0.97 / 0.97 / 0.97 / 0.99 / 1.00, 64 MiB x2 0.92 -> 0.97, x8 0.93 -> 0.96,
// a batch of 64 x 50176x3 0.83 -> 1.00; bf16 1048576 rows x2 / x3 / x4 / x8 0.89 / 0.95 / 0.95 / 0.91 ->
// 0.97 / 0.99 / 1.00 / 0.97; f32 x2 0.96 -> 1.00, x4 0.94 -> 0.98; f64 x2 0.92 -> 0.97, 64 MiB too.
// Level or behind it, the others stay: odd column counts of 4-byte elements past 3 (x5 0.93 -> 0.93,
// x7 0.93 -> 0.93), 8-byte elements past 2 columns (f64 1048576x3 0.97 -> 0.96, x4 0.96 -> 0.95), and
// past two waves of blocks (64 MiB) all but 2 columns, 4 and 8 of 1- and 2-byte elements and 3 of
// 1-byte ones (bf16 x3 1.04 -> 1.03, x5 1.05 -> 1.03; u8 x5 1.02 -> 1.01; f32 x4 0.950 -> 0.943, x8
// 0.955 -> 0.952). f32 x3 was level too (1.00 -> 0.99) until the kernel's whole blocks went straight
// to their loads; since then, three rounds alike (bench/results/h200_2026-11-30n_one_run_ab.txt, us):
// f32 1048576x3 8.54-8.66 on the slabs -> 8.32-8.48, within two waves; 4194304x3 level (28.1-28.4 ->
// 27.9-29.1). f64 x3 and x4 stayed level with the direct kernel or behind it (1048576x3 15.25 -> 15.14,
// x4 20.04 -> 20.70, 2097152x3 27.71 -> 27.95), so they are not built.
bool cols_regs_ahead(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const bool ahead_at_any_size = d.cols == 2 || (e <= 2 && (d.cols == 4 || d.cols == 8)) || (e == 1 && d.cols == 3);
  const std::int64_t blocks = d.batch * ceil_div(cols_regs_runs(d), std::int64_t{kSkinnyColsRegsThreads});
  return ahead_at_any_size ||
         blocks <= 2 * std::int64_t{skinny_cols_regs_blocks(static_cast<int>(d.cols))} * multiprocessor_count();
}

// Whether the column-register kernel can run `d`: 2 to 8 columns (of the instances built) with packed
// input rows and output rows on the 16-byte grid (pointers are checked at launch).
bool cols_regs_runs_on(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.cols >= 2 && d.cols <= kSkinnyColsRegsMaxCols && d.cols < d.rows &&
         cols_regs_built(static_cast<int>(e), static_cast<int>(d.cols)) &&
         d.ld_in == d.cols && d.ld_out * e % 16 == 0 && d.batch <= kMaxGridYZ &&
         (d.batch == 1 || (d.batch_stride_in * e % 16 == 0 && d.batch_stride_out * e % 16 == 0));
}

// The column-register kernel, transposing 16 / E rows a thread in registers (skinny_cols_regs.cuh),
// where it can run and measured ahead; off the 16-byte grid at launch the kernels below run.
// XPOSE_SKINNY_COLS_REGS=0 turns it off, =all takes it wherever it runs, to measure against it.
bool use_cols_regs(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_COLS_REGS", '0');
  static const bool everywhere = core::env_starts_with("XPOSE_SKINNY_COLS_REGS", 'a');
  return enabled && cols_regs_runs_on(d) && (everywhere || cols_regs_ahead(d));
}

// The column-register kernel with narrower pieces (12 to 24 columns of 1- and 2-byte elements): where
// the planner's rule says it runs (plan::skinny_cols_regs_wide_runs; a matrix per row of its grid).
bool use_cols_regs_wide(const TransposeDesc& d) {
  return plan::skinny_cols_regs_wide_runs(d) && d.batch <= kMaxGridYZ;
}

// Output bytes per slab; XPOSE_SKINNY_SLAB_BYTES overrides it to measure alternatives on a new GPU.
int rows_vec_slab_bytes() {
  static const int bytes = [] {
    const int n = core::env_int("XPOSE_SKINNY_SLAB_BYTES", 0);
    return n >= 512 && n <= 65536 ? n : 12288;
  }();
  return bytes;
}

// About 12 KiB of output per slab (many blocks even for a few MiB; 12 KiB measured a little faster
// than 8 or 16 on an H100 at 3x1048576), in whole 16-byte runs of columns.
SkinnyVecSlab rows_vec_slab(const TransposeDesc& d) {
  const int row_bytes = static_cast<int>(d.rows * static_cast<std::int64_t>(dtype_size(d.dtype)));
  const int e = static_cast<int>(dtype_size(d.dtype));
  SkinnyVecSlab s{};
  s.span = std::max(16, rows_vec_slab_bytes() / row_bytes / 16 * 16);
  s.halo = (32 + row_bytes - 1) / row_bytes;
  for (;;) {  // narrower slabs until the raw rows fit the shared memory
    s.chunks = ((s.span + s.halo) * e + 15) / 16 + 1;
    s.pitch = 4 * s.chunks + 1;
    if (d.rows * s.pitch <= kSkinnyVecSmemWords || s.span <= 16) break;
    s.span -= 16;
  }
  s.rows = make_fast_div(d.rows);
  s.chunks_div = make_fast_div(s.chunks);
  return s;
}

// A few rows with packed output rows: the output of a slab is one run, written in 16-byte chunks;
// up to kSkinnyVecMaxRows rows whose slabs of at least 16 columns fit the shared memory.
bool use_rows_vec(const TransposeDesc& d) {
  return d.rows < d.cols && d.rows <= kSkinnyVecMaxRows && d.ld_out == d.rows &&
         d.rows * rows_vec_slab(d).pitch <= kSkinnyVecSmemWords;
}

// A few rows with padded output rows (ld_out > rows): slabs read as skinny_rows_vec reads them,
// stored element by element around the output's gaps (skinny_rows_padded.cuh), where the raw rows of
// a slab of at least 16 columns fit the shared memory. Measured on an H200 (of memcpy, the direct or
// element-by-element slab kernel -> this; bench/results/h200_2026-11-25zh_padded_few_sides.txt, and
// _padded_tall.txt part 2 for the stepped store loop): u8 3x16777216 with ld_out 4 0.27 -> 0.39
// (planes of three bytes into records of four), 16x2097152 ld_out 21 0.095 -> 0.37, 8x4194304 ld_out 9
// 0.26 -> 0.40, 1x33554432 ld_out 2 0.15 -> 0.36; bf16 3x8388608 ld_out 4 0.35 -> 0.47, 8x2097152
// ld_out 9 0.23 -> 0.51; f32 3x4194304 ld_out 4 0.52 -> 0.55; f64 3x2097152 ld_out 4 0.48 -> 0.55;
// c128 3x1048576 ld_out 4 0.45 -> 0.49; level where each element has sectors of its own (c128
// 1x2097152 ld_out 65). Sectors the output only partly covers are filled from DRAM before they are
// written back (ncu, _ncu_padded.txt: u8 3x16777216 ld_out 4 read 112 MB for 50 MB of input), which
// bounds these near 0.55; f32 runs at that bound, u8 is held by the element loop's instructions.
// XPOSE_SKINNY_ROWS_PADDED=0 turns it off, to measure against it.
bool use_rows_padded(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_ROWS_PADDED", '0');
  return enabled && d.rows < d.cols && d.rows <= kSkinnyVecMaxRows && d.ld_out > d.rows && !single_row_scatter(d) &&
         d.rows * rows_vec_slab(d).pitch <= kSkinnyVecSmemWords;
}

// The widest rows the few-columns kernel runs (plan::kSkinnyColsVecMaxCols): its own 32 / E rows and
// as many of halo, and the run's 32 bytes of shift and last chunk, fit its shared memory.
static_assert(2 * 32 * plan::kSkinnyColsVecMaxCols + 32 <= kSkinnyColsSmemBytes, "a slab of the widest rows fits");

// Bytes between input rows in the few-columns kernel's run (gaps included).
int cols_vec_pitch(const TransposeDesc& d) {
  return static_cast<int>(d.ld_in * static_cast<std::int64_t>(dtype_size(d.dtype)));
}

// Input rows a power of two of bytes apart: the few-columns kernel reads its run swizzled.
bool cols_vec_swizzled(const TransposeDesc& d) {
  const int pitch = cols_vec_pitch(d);
  return (pitch & (pitch - 1)) == 0;
}

// Up to 4 columns: the kernel at kSkinnyColsFullBlocks blocks per SM, slabs cut small enough that a
// small matrix still fills one wave of them. Few columns spend most of a block's time storing, and
// their slabs' halos are short. Measured on an H200, 6 -> 8 blocks per SM (of memcpy,
// bench/results/h200_2026-11-25zd_cols_vec_up_to_4_columns.txt, part 1): f32 1048576x3 (1024 slabs)
// 0.95 -> 0.99, u8 67108864x3 0.92 -> 0.95; more columns ran slower at 8 blocks (f32 2097152x6 0.97
// -> 0.95, f32 1048576x100 0.86 -> 0.84). Rows a power of two of bytes apart (2 and 4 columns, part
// 6): u8 1048576x4 0.80 -> 0.87, u8 1048576x2 0.76 -> 0.84, bf16 1048576x4 0.90 -> 0.95; from 16 MiB
// level within 1%.
bool cols_vec_full_occupancy(const TransposeDesc& d) { return d.cols <= 4; }

// The slab geometry of the few-columns kernel at `span` input rows per slab: its halo (one output
// sector's rows) and the division by the columns.
SkinnyColsSlab cols_vec_slab(const TransposeDesc& d, int span) {
  SkinnyColsSlab s{};
  s.span = span;
  s.halo = 32 / static_cast<int>(dtype_size(d.dtype));
  s.cols = make_fast_div(d.cols);
  return s;
}

// The most input rows a slab may span: with its halo (one output sector's rows) and the run's 32
// bytes of shift and last chunk inside the shared memory, in whole sectors per output row.
int cols_vec_max_span(const TransposeDesc& d) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  const int rows_per_sector = 32 / e;
  const int fit = (kSkinnyColsSmemBytes - 32) / cols_vec_pitch(d) - rows_per_sector;
  return fit / rows_per_sector * rows_per_sector;
}

// Whether a plan's slab of `span` rows suits the kernel (checked before launch).
bool cols_vec_span_fits(const TransposeDesc& d, int span) {
  const int rows_per_sector = 32 / static_cast<int>(dtype_size(d.dtype));
  return span >= rows_per_sector && span % rows_per_sector == 0 && span <= cols_vec_max_span(d);
}

// Input rows per slab: about as many bytes as the few-rows kernel's slabs, in whole 32-byte runs of
// each output row, with the halo inside the shared memory; under full occupancy, down to 4 KiB while
// the matrix fills less than one wave of 12 KiB slabs (H200, part 2 of the same file, 12 KiB -> 4 /
// 6 KiB: u8 1048576x3 0.80 -> 0.83, bf16 0.92 -> 0.96; 3 KiB slabs ran slower on every shape tried).
int cols_vec_span(const TransposeDesc& d) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  const int row_bytes = cols_vec_pitch(d);
  const int rows_per_sector = 32 / e;
  int slab_bytes = rows_vec_slab_bytes();
  if (cols_vec_full_occupancy(d)) {
    const std::int64_t slots = std::max(1, multiprocessor_count()) * std::int64_t{kSkinnyColsFullBlocks};
    const std::int64_t one_wave = ceil_div(d.batch * d.rows * row_bytes, slots);
    slab_bytes = static_cast<int>(std::max<std::int64_t>(4096, std::min<std::int64_t>(slab_bytes, one_wave)));
  }
  const int whole_sectors = slab_bytes / row_bytes / rows_per_sector * rows_per_sector;
  return std::max(rows_per_sector, std::min(whole_sectors, cols_vec_max_span(d)));
}

// Store runs of 8 lanes (128 bytes of an output row) past 16 columns, where rows are not a power of two
// of bytes apart (those keep pairs, in the swizzled run their reads were laid out for) and the reads
// stay free of bank conflicts (input rows an odd number of elements apart: the columns, or ld_in where
// the rows are padded) or are few per chunk (4- and 8-byte elements, which win through the conflicts,
// and 2-byte ones two elements past a multiple of 4); pairs elsewhere. Measured
// on an H200 (of memcpy, pairs -> runs of 8; bench/results/h200_2026-11-25w_cols_vec_store_runs.txt):
// u8 4194304x17 0.844 -> 0.902, x33 0.829 -> 0.875; bf16 2097152x17 0.883 -> 0.916, x33 0.853 ->
// 0.878, x18 0.889 -> 0.908, 1048576x50 0.873 -> 0.895; f32 1048576x17 0.895 -> 0.916, x33 0.851 ->
// 0.879, x100 0.76 -> 0.86; f64 1048576x17 0.908 -> 0.926, x33 0.877 -> 0.896. Not for other even
// column counts of 1- and 2-byte elements (u8 x24 0.844 -> 0.437, x26 0.907 -> 0.877, x100 0.735 ->
// 0.694, bf16 x24 0.89 -> 0.71), nor up to 16 columns, whose pairs already cover long stretches of
// their few rows (f32 2097152x6 28.2 -> 28.5-29.2 us, bf16 4194304x5 within 1%).
int cols_vec_run_lanes(const TransposeDesc& d) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  const bool reads_spread = e >= 4 || d.ld_in % 2 == 1 || (e == 2 && d.ld_in % 4 == 2);
  return d.cols > plan::kSkinnyMaxShort && reads_spread ? 8 : 2;
}

// 1-byte elements of 18 to 64 columns whose input rows lie an even number of bytes apart: runs off the
// 16-byte grid go to shared memory realigned to their first byte. Stored as they lie, shifted, their bytes
// met the store phase's reads in 1.8-2.9x the bank conflicts of the aligned layout (H200, u8 1398101x48
// and 2796202x24 input one byte off, 0.75 of memcpy against 0.91-0.96 aligned;
// bench/results/h200_2026-11-30h_cols_vec_shift_ncu.txt). bench/cols_vec_banks.py replays the reads: rows an
// odd number of bytes apart meet the same conflicts wherever the run lies, even ones up to 1.8x more off
// the grid. Realigned / as they lie, packed rows, input one byte off, of memcpy, two rounds alike
// (bench/results/h200_2026-11-30i_cols_vec_realign_overlap.txt, _cols_vec_realign_18.txt): u8 x22 0.84 /
// 0.81, x24 0.91 / 0.75, x38 0.90 / 0.86, x40 0.80 / 0.74, x44 0.79 / 0.75, x48 0.94 / 0.75; x18, x20,
// x46 within 1.5% either way; odd column counts 0.92-0.95 / 0.96-0.97 (x19, x21, x23; x33 0.78 / 0.74
// the exception). Padded rows were not measured; the rule goes by the pitch, as the replay does. Up to 17
// columns the realigning costs more than it saves: x5 0.97 / 0.99, x8 0.87 / 0.92, x12 0.96 / 0.98, x16
// 0.86 / 0.89, x17 level. Not for wider rows or elements either, which the realigning load phase made
// slower (before it loaded each warp's last chunk with the others): u8 x100 0.83 -> 0.74, bf16 x24 / x48
// 0.97 -> 0.89 / 0.91, f32 x16 / x48 0.92 / 0.98 -> 0.86 / 0.84
// (bench/results/h200_2026-11-30h_cols_vec_realign.txt). Up to 4 columns the kernel capped at 32 registers
// runs, which keeps its runs as they lie. XPOSE_SKINNY_COLS_REALIGN=0 keeps every run as it lies, to
// measure against it.
constexpr std::int64_t kColsVecRealignMinCols = 18, kColsVecRealignMaxCols = 64;
bool cols_vec_realigns(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_COLS_REALIGN", '0');
  return enabled && dtype_size(d.dtype) == 1 && d.ld_in % 2 == 0 && d.cols >= kColsVecRealignMinCols &&
         d.cols <= kColsVecRealignMaxCols;
}

template <int E>
Status launch_cols_vec(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if (!cols_vec_span_fits(d, c.tile_rows))
    return Status(StatusCode::invalid_argument, "skinny: the plan's slab does not fit the few-columns kernel");
  const SkinnyColsSlab s = cols_vec_slab(d, c.tile_rows);
  const auto* src = static_cast<const unsigned char*>(in);
  const MatrixGeometry g = make_geometry(d, 1);
  const FastDiv slabs = make_fast_div(ceil_div(d.rows, s.span));
  const unsigned char* src_end = src + input_span_elements(d) * E;
  auto* dst = static_cast<unsigned char*>(out);
  const auto launch = [&](auto kernel) {
    kernel<<<grid_of(c), block_of(c), 0, stream>>>(src, src_end, dst, g, s, slabs);
    return check_launch("skinny_cols_vec_kernel", c, kSkinnyColsSmemBytes, stream);
  };
  const bool swizzled = cols_vec_swizzled(d);
  if (cols_vec_full_occupancy(d))
    return swizzled ? launch(skinny_cols_vec_full_kernel<E, true, 2>)
                    : launch(skinny_cols_vec_full_kernel<E, false, 2>);
  if constexpr (E == 1) {
    if (cols_vec_realigns(d))  // an even pitch: runs of 2 lanes (cols_vec_run_lanes)
      return swizzled ? launch(skinny_cols_vec_kernel<E, true, 2, true>)
                      : launch(skinny_cols_vec_kernel<E, false, 2, true>);
  }
  if (swizzled) return launch(skinny_cols_vec_kernel<E, true, 2, false>);
  if (cols_vec_run_lanes(d) == 8) return launch(skinny_cols_vec_kernel<E, false, 8, false>);
  return launch(skinny_cols_vec_kernel<E, false, 2, false>);
}

// A register kernel's one-run grid: `runs` threads per matrix in blocks along x, the matrices along y;
// the tile is the rows and columns one thread moves.
LaunchConfig one_run_config(const TransposeDesc& d, std::int64_t tile_rows, std::int64_t tile_cols, int threads,
                            std::int64_t runs) {
  LaunchConfig c = linear_config(static_cast<int>(tile_rows), static_cast<int>(tile_cols), 16, threads,
                                 ceil_div(runs, threads));
  c.grid_y = d.batch;
  return c;
}

// Whether a plan's config has the tile and grid of a kernel's config. The launch goes by this rather
// than by that kernel's rule again, which may count the current device's SMs: a plan made for another
// device still launches the grid it was sized for.
bool same_tile_and_grid(const LaunchConfig& c, const LaunchConfig& kernel) {
  return c.tile_rows == kernel.tile_rows && c.tile_cols == kernel.tile_cols && c.grid_x == kernel.grid_x &&
         c.grid_y == kernel.grid_y;
}

// one_run_whole_blocks for a one-run kernel's launch (the few-rows and column-register kernels). With
// XPOSE_ONE_RUN_WHOLE_BLOCKS=0, none: every block takes the checked path, to measure against the
// whole-block path and instance.
std::uint32_t one_run_whole_blocks_or_none(std::int64_t extent, int threads, int per_run) {
  static const bool enabled = !core::env_starts_with("XPOSE_ONE_RUN_WHOLE_BLOCKS", '0');
  return enabled ? one_run_whole_blocks(extent, threads, per_run) : 0;
}

// Whether a one-run kernel's launch takes its instance for one matrix of whole blocks: a grid of
// exactly the whole blocks, in one row.
bool takes_whole_grid(const TransposeDesc& d, const LaunchConfig& c, std::uint32_t whole_blocks) {
  return d.batch == 1 && c.grid_x == whole_blocks;
}

LaunchConfig cols_regs_config(const TransposeDesc& d) {
  return one_run_config(d, cols_regs_rows(d), d.cols, kSkinnyColsRegsThreads, cols_regs_runs(d));
}

// Whether the plan's config is the column-register kernel's (either width of piece).
bool planned_for_cols_regs(const TransposeDesc& d, const LaunchConfig& c) {
  return (cols_regs_runs_on(d) || use_cols_regs_wide(d)) && same_tile_and_grid(c, cols_regs_config(d));
}

LaunchConfig rows_regs_wide_config(const TransposeDesc& d) {
  return one_run_config(d, d.rows, rows_regs_wide_columns(d), rows_regs_one_run_threads(static_cast<int>(d.rows)),
                        rows_regs_wide_runs(d));
}

// The column-register kernel where it is built; one matrix whose blocks are all whole takes the
// instance with no check on the way to the loads (cols_regs_whole_grid_built).
template <int E>
Status launch_cols_regs(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  return dispatch_extent<2, plan::kSkinnyColsRegsWideMaxCols>(d.cols, "column-register kernel", [&](auto cols) {
    constexpr int C = decltype(cols)::value;
    if constexpr (cols_regs_built(E, C)) {
      const std::uint32_t whole_blocks =
          one_run_whole_blocks_or_none(d.rows, kSkinnyColsRegsThreads, cols_regs_piece_bytes(C) / E);
      const auto run = [&](auto kernel) {
        kernel<<<grid_of(c), block_of(c), 0, stream>>>(static_cast<const unsigned char*>(in),
                                                       static_cast<unsigned char*>(out), d.rows, d.ld_out * E,
                                                       d.batch_stride_in * E, d.batch_stride_out * E,
                                                       cols_regs_runs(d), whole_blocks);
        return check_launch("skinny_cols_regs_kernel", c, 0, stream);
      };
      if constexpr (cols_regs_whole_grid_built(C)) {
        if (takes_whole_grid(d, c, whole_blocks)) return run(skinny_cols_regs_kernel<E, C, true>);
      }
      return run(skinny_cols_regs_kernel<E, C>);
    } else {
      return Status(StatusCode::internal, "skinny: the column-register kernel is not built for this shape");
    }
  });
}

// Runs per thread of the register kernel: two, for 2 to 4 rows, where that fits the grid in one
// wave of resident blocks and one per thread would not (measured on an H200, us, one -> two: f32
// 3x1048576 9.20 -> 8.70, 0.95 -> 1.00 of memcpy; f32 2x1048576 7.24 -> 7.07); one elsewhere, where
// the longer threads only cost (f64 3x1048576 15.24 -> 15.46, f32 4x1048576 11.50 -> 11.58, c128
// 3x1048576 27.6 -> 28.7, f32 3x4194304 27.6 -> 28.2).
template <int E, int R>
int rows_regs_runs_per_thread(const TransposeDesc& d) {
  if constexpr (R > 4) {
    return 1;
  } else {
    const std::int64_t threads = d.batch * rows_regs_runs(d);
    const std::int64_t sms = multiprocessor_count();
    const std::int64_t wave1 = sms * rt::resident_blocks_per_sm(skinny_rows_regs_kernel<E, R, 1>, kSkinnyRegsThreads);
    const std::int64_t wave2 = sms * rt::resident_blocks_per_sm(skinny_rows_regs_kernel<E, R, 2>, kSkinnyRegsThreads);
    const bool fits2 = ceil_div(threads, 2 * kSkinnyRegsThreads) <= wave2;
    return ceil_div(threads, kSkinnyRegsThreads) > wave1 && fits2 ? 2 : 1;
  }
}

template <int E>
int rows_regs_runs_per_thread(const TransposeDesc& d) {
  switch (d.rows) {
    case 2: return rows_regs_runs_per_thread<E, 2>(d);
    case 3: return rows_regs_runs_per_thread<E, 3>(d);
    case 4: return rows_regs_runs_per_thread<E, 4>(d);
    default: return 1;
  }
}

// The one-run kernel's blocks: ceil(runs / block) along x for each matrix, the matrices along y.
std::int64_t rows_regs_one_run_blocks_per_matrix(const TransposeDesc& d) {
  return ceil_div(rows_regs_runs(d), kSkinnyRegsThreads);
}

// Matrices of 2 to 7 rows (8 of 1-byte elements) on the 16-byte grid whose runs (one per thread)
// fill at most two waves of the one-run kernel's blocks for 2 or 3 rows (8 per SM), one wave for 4
// to 8 rows (5-6 per SM): that kernel. Measured on an H200 (of memcpy, the loop kernel -> the
// one-run kernel; bench/results/h200_2026-11-25ze_rows_regs_one_run.txt): two or three rounds, u8 3x1048576 0.943
// -> 0.977, f32 2x1048576 0.972 -> 1.000, u8 2x1048576 0.948 -> 0.972, f32 3x262144 0.953 ->
// 0.977, batches u8 64 x 3x50176 0.984 -> 1.003, f64 8 x 2x65536 0.944 -> 1.003, u8 4 x 2x262144
// 0.923 -> 0.972 (part 3), bf16 4x1048576 0.981 -> 1.007, f32 16 x 4x50176 0.972 -> 1.007, bf16
// 6x1048576 0.980 -> 1.004, f64 7x262144 0.948 -> 0.986 (part 4); f32 3x1048576 within the spread
// (1.002 -> 0.992, 0.990 -> 1.019, 1.004 -> 1.022). Past two waves (2 or 3 rows) it gained nothing
// (part 1: f32 3x4194304 0.995 -> 0.974, 3x16777216 0.994 -> 0.990), and past one wave (4 to 8
// rows) it lost to the loop kernel's two runs per thread or level (part 4: u8 64 x 4x50176, 1.05
// waves, 0.978 -> 0.934; f64 4x524288 0.944 -> 0.935; f32 4x1048576 0.935 -> 0.938). `shifted`: 1-
// and 2-byte rows off the 16-byte grid, realigned, where the kernel holds more blocks than the loop
// kernel's realigning instance, at any size (parts 6-7; part 7: u8 8x2097153 0.810 -> 1.016, bf16
// 5x6710886 0.893 -> 0.950, bf16 7x4793490 0.825 -> 0.875, u8 8x8388607 0.770 -> 0.840, bf16
// 6x5592405 0.815 -> 0.864, bf16 8x524289 0.959 -> 0.984; batches level, u8 32 x 5x40001 0.869 ->
// 0.871). 8 rows of 1-byte elements (part 8): u8 8x1048576 0.986 -> 1.002, 16 x 8x50176 0.934 ->
// 0.958; of 16-byte ones it lost (c128 8x131072 0.966 -> 0.950), so they keep the loop kernel.
// XPOSE_SKINNY_ROWS_REGS_ONE_RUN=0 turns it off (its half pieces below too), to measure against it.
bool rows_regs_one_run_enabled() {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_ROWS_REGS_ONE_RUN", '0');
  return enabled;
}
// The rule above without the switch: whether the one-run kernel's 16-byte pieces would take `d`.
bool rows_regs_one_run_fits(const TransposeDesc& d, bool shifted) {
  const int blocks =
      skinny_rows_regs_one_run_blocks(static_cast<int>(dtype_size(d.dtype)), static_cast<int>(d.rows), shifted);
  if (blocks == 0 || d.batch > kMaxGridYZ) return false;
  if (shifted) return true;
  const std::int64_t waves = d.rows <= 3 ? 2 : 1;
  return rows_regs_input_aligned(d, nullptr) &&
         d.batch * rows_regs_one_run_blocks_per_matrix(d) <= waves * blocks * multiprocessor_count();
}
bool use_rows_regs_one_run(const TransposeDesc& d, bool shifted) {
  return rows_regs_one_run_enabled() && rows_regs_one_run_fits(d, shifted);
}

// 2 to 8 rows of 4- and 8-byte elements on the 16-byte grid that the one-run kernel's 16-byte pieces
// do not take (past their waves, where the loop kernel ran): the one-run kernel with half pieces, a
// thread per 8 bytes of every row, at 8 blocks per SM. Measured on an H200 (us, medians of three
// rounds, the loop kernel -> half pieces; bench/results/h200_2026-11-30o_half_pieces.txt): f32
// 4x1048576 11.31 -> 10.94 (and 11.55 -> 10.92 in the second run), 4x4194304 35.84 -> 35.25, 2x4194304
// 19.53 -> 19.22, 3x4194304 27.54 -> 27.33, 2x16777216 67.17 -> 66.77, 5x1048576 13.63 -> 13.42,
// 6x1048576 15.37 -> 15.21, 7x1048576 17.96 -> 17.47, 6x4194304 level; f64 4x1048576 19.90 -> 19.55,
// 4x4194304 67.04 -> 66.58, 16 x 4x50176 15.73 -> 15.35, 5x1048576 and 6x2097152 level. Where 16-byte
// pieces fit the one-run kernel's waves, half pieces ran slower for f32 (2x1048576 6.45 -> 6.73,
// 3x1048576 8.49 -> 8.77, 16 x 4x50176 8.66 -> 8.93); for f64 they were mixed there (8 x 2x65536 6.53 ->
// 7.06; 2x1048576 10.81 -> 10.67, 4x131072 4.96 -> 4.80 and 2x16384 2.65 -> 2.50 with memcpy as much
// faster, level by ratio; 3x1048576 15.04 -> 14.90 and 15.02 -> 15.06 in two runs), and f64 keeps the f32
// rule.
// 8 rows have no one-run kernel of 16-byte pieces; half pieces there only where their whole grid is at most
// a block per SM, twice the loop kernel's threads on a GPU they leave mostly idle. Measured on an H200
// (us, medians of three rounds, the loop kernel -> half pieces; bench/results/h200_2026-12-01a_half_8_rows.txt):
// f32 8x32768 3.53 -> 3.20, 8x65536 3.99 -> 3.91, f64 8x16384 3.66 -> 3.15, 8x32768 4.14 -> 3.75 (64 or
// 128 blocks of half pieces); past that mixed, and slower at one wave (f32 8x131072 5.10 -> 5.10, 8x262144
// 6.79 -> 6.66, 8x524288 11.00 -> 11.53, 8x1048576 20.10 -> 20.38, 64 x 8x8192 11.09 -> 11.42; f64 8x65536
// 4.92 -> 5.06, 8x131072 6.84 -> 6.65, 8x262144 11.02 -> 11.45, 8x524288 20.08 -> 20.32).
// XPOSE_ROWS_REGS_HALF_PIECES=0 turns them off and =1 takes them wherever they are built, to measure
// (XPOSE_SKINNY_ROWS_REGS_ONE_RUN=0 turns off both).
constexpr int kHalfPieceBytes = 8;
bool rows_regs_half_pieces(const TransposeDesc& d) {
  static const int mode = core::env_int("XPOSE_ROWS_REGS_HALF_PIECES", -1);
  const int e = static_cast<int>(dtype_size(d.dtype));
  if (mode == 0 || !rows_regs_one_run_enabled() || !rows_regs_half_pieces_built(e, static_cast<int>(d.rows)) ||
      d.batch > kMaxGridYZ || !rows_regs_input_aligned(d, nullptr))
    return false;
  if (mode == 1) return true;
  if (d.rows == kSkinnyRegsMaxRows)
    return d.batch * ceil_div(rows_regs_runs(d, kHalfPieceBytes), kSkinnyRegsThreads) <= multiprocessor_count();
  return !rows_regs_one_run_fits(d, false);
}

// The one-run kernel's grid for half pieces: a thread per 8 bytes of columns.
LaunchConfig rows_regs_half_config(const TransposeDesc& d) {
  const std::int64_t columns = kHalfPieceBytes / static_cast<std::int64_t>(dtype_size(d.dtype));
  return one_run_config(d, d.rows, columns, kSkinnyRegsThreads, rows_regs_runs(d, kHalfPieceBytes));
}

// Whether the one-run kernel takes `d` with inputs as its strides leave them (a pointer off the
// 16-byte grid still realigns at launch, in that grid where it is built).
bool rows_regs_one_run_planned(const TransposeDesc& d) {
  return use_rows_regs_one_run(d, dtype_size(d.dtype) <= 2 && !rows_regs_input_aligned(d, nullptr));
}

// The grid gives each thread `runs per thread` runs (the kernel loops past 2^30 blocks).
LaunchConfig rows_regs_config(const TransposeDesc& d) {
  if (rows_regs_half_pieces(d)) return rows_regs_half_config(d);
  if (rows_regs_one_run_planned(d))
    return one_run_config(d, d.rows, 16 / static_cast<std::int64_t>(dtype_size(d.dtype)), kSkinnyRegsThreads,
                          rows_regs_runs(d));
  int per_thread = 1;
  (void)dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
    per_thread = rows_regs_runs_per_thread<sizeof(decltype(tag))>(d);
    return Status::ok_status();
  });
  return linear_config(static_cast<int>(d.rows), 16 / static_cast<int>(dtype_size(d.dtype)), 16, kSkinnyRegsThreads,
                       std::min<std::int64_t>(ceil_div(d.batch * rows_regs_runs(d), kSkinnyRegsThreads * per_thread),
                                              std::int64_t{1} << 30));
}

// A config's grid in one row: the loop kernels (and skinny's staged one) cover the problem along x
// (and the batch along z) whatever the grid, and would repeat it on every row of the one-run
// kernel's grid.
LaunchConfig flat_grid(LaunchConfig c) {
  c.grid_y = 1;
  return c;
}

// The one-run kernel's blocks of whole runs per matrix, for its instance of R rows of E-byte elements
// with pieces of W bytes.
template <int E, int R, int W = rows_regs_piece_bytes(R)>
std::uint32_t rows_regs_one_run_whole_blocks(const TransposeDesc& d) {
  return one_run_whole_blocks_or_none(d.cols, rows_regs_one_run_threads(R), W / E);
}

// The one-run kernel where configure sized the grid for it (its half-piece instances where the plan
// has their tile and grid); otherwise the loop kernel: two runs per
// thread where configure sized the grid for that (fewer threads than runs), one for 1- and 2-byte
// input rows off the 16-byte grid (the kernel loops past its grid). `input_aligned`:
// rows_regs_input_aligned, as launch_skinny found it. An output pointer off the 16-byte grid (1- and
// 2-byte elements) takes the loop kernel's instances that store their stretches shifted. A loop kernel
// run on a grid sized for the one-run kernel (a row of blocks per matrix) takes all its blocks in one
// row: one row alone would leave a batch to the blocks of one matrix.
template <int E, int R>
Status launch_rows_regs_for(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream,
                            bool input_aligned) {
  const auto* src = static_cast<const unsigned char*>(in);
  const unsigned char* src_end = src + input_span_elements(d) * E;
  auto* dst = static_cast<unsigned char*>(out);
  // The one-run kernel where configure sized the grid for it (one run per thread, a matrix per row
  // of the grid); the loop kernels cover any grid along x and take one row of it.
  const bool one_run_grid = c.grid_x == rows_regs_one_run_blocks_per_matrix(d) && c.grid_y == d.batch;
  const auto one_run_with = [&](auto kernel, std::int64_t runs, std::uint32_t whole_blocks) {
    kernel<<<grid_of(c), block_of(c), 0, stream>>>(src, src_end, dst, d.ld_in * E, d.batch_stride_in * E,
                                                   d.batch_stride_out * E, d.cols, runs, whole_blocks);
    return check_launch("skinny_rows_regs_one_run_kernel", c, 0, stream);
  };
  const auto one_run = [&](auto kernel) {
    return one_run_with(kernel, rows_regs_runs(d), rows_regs_one_run_whole_blocks<E, R>(d));
  };
  // The instance for input rows on the grid with pieces of W bytes: one matrix of whole blocks (up to 4
  // rows) takes the one with no check, the rest the one that checks per block or per thread.
  const auto one_run_aligned = [&](auto piece) {
    constexpr int W = decltype(piece)::value;
    const std::int64_t runs = rows_regs_runs(d, W);
    const std::uint32_t whole = rows_regs_one_run_whole_blocks<E, R, W>(d);
    if constexpr (one_run_checks_per_block(R, false)) {
      if (takes_whole_grid(d, c, whole))
        return one_run_with(skinny_rows_regs_one_run_kernel<E, R, false, false, true, W>, runs, whole);
    }
    return one_run_with(skinny_rows_regs_one_run_kernel<E, R, false, false, false, W>, runs, whole);
  };
  if constexpr (rows_regs_half_pieces_built(E, R)) {
    if (input_aligned && same_tile_and_grid(c, rows_regs_half_config(d)))
      return one_run_aligned(std::integral_constant<int, kHalfPieceBytes>{});
  }
  const auto looped = [&](auto kernel) {
    LaunchConfig loop = flat_grid(c);
    if (one_run_grid) loop.grid_x = std::min<std::int64_t>(c.grid_x * c.grid_y, std::int64_t{1} << 30);
    kernel<<<grid_of(loop), block_of(loop), 0, stream>>>(src, src_end, dst, make_geometry(d, 1), rows_regs_runs(d));
    return check_launch("skinny_rows_regs_kernel", loop, 0, stream);
  };
  if constexpr (E <= 2) {
    if (reinterpret_cast<std::uintptr_t>(out) % 16 != 0)
      return input_aligned ? looped(skinny_rows_regs_kernel<E, R, 1, false, true>)
                           : looped(skinny_rows_regs_kernel<E, R, 1, true, true>);
  }
  if constexpr (E <= 2 && skinny_rows_regs_one_run_blocks(E, R, true) > 0) {
    if (!input_aligned && one_run_grid && use_rows_regs_one_run(d, true))
      return one_run(skinny_rows_regs_one_run_kernel<E, R, true>);
  }
  if constexpr (E <= 2) {
    if (!input_aligned) return looped(skinny_rows_regs_kernel<E, R, 1, true>);
  }
  if constexpr (skinny_rows_regs_one_run_blocks(E, R) > 0) {
    if (input_aligned && one_run_grid && use_rows_regs_one_run(d, false))
      return one_run_aligned(std::integral_constant<int, rows_regs_piece_bytes(R)>{});
  }
  if constexpr (R <= 4) {
    if (c.grid_x * kSkinnyRegsThreads < d.batch * rows_regs_runs(d)) return looped(skinny_rows_regs_kernel<E, R, 2>);
  }
  return looped(skinny_rows_regs_kernel<E, R, 1>);
}

template <int E>
Status launch_rows_regs(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream,
                        bool input_aligned) {
  return dispatch_extent<2, kSkinnyRegsMaxRows>(d.rows, "register kernel", [&](auto rows) {
    return launch_rows_regs_for<E, decltype(rows)::value>(d, c, in, out, stream, input_aligned);
  });
}

// Whether every input row's pieces of the wide-rows register kernel lie on their own grid.
bool rows_regs_wide_input_on_grid(const TransposeDesc& d, const void* in) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t piece = rows_regs_piece_bytes(static_cast<int>(d.rows));
  return reinterpret_cast<std::uintptr_t>(in) % piece == 0 && d.ld_in * e % piece == 0 &&
         (d.batch == 1 || d.batch_stride_in * e % piece == 0);
}

// The instance for d.rows: aligned where every row's pieces lie on their own grid, and with the output
// pointer off the 16-byte grid the one that stores shifted (its caller sends only input rows on their
// grid here then).
template <int E>
Status launch_rows_regs_wide(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                             rt::Stream stream) {
  return dispatch_extent<plan::kSkinnyRegsWideMinRows, plan::kSkinnyRegsWideMaxRows>(
      d.rows, "wide-rows register kernel", [&](auto rows) {
        constexpr int R = decltype(rows)::value;
        const auto* src = static_cast<const unsigned char*>(in);
        const bool on_grid = rows_regs_wide_input_on_grid(d, in);
        // An output pointer off the 16-byte grid: the instance that stores its stretches shifted, for
        // input rows on their grid (elsewhere the slab kernel runs: launch_skinny_past_cols_regs).
        const bool out_shifted = reinterpret_cast<std::uintptr_t>(out) % 16 != 0;
        const auto kernel = out_shifted ? skinny_rows_regs_one_run_kernel<E, R, false, true>
                            : on_grid   ? skinny_rows_regs_one_run_kernel<E, R, false>
                                        : skinny_rows_regs_one_run_kernel<E, R, true>;
        kernel<<<grid_of(c), block_of(c), 0, stream>>>(src, src + input_span_elements(d) * E,
                                                       static_cast<unsigned char*>(out), d.ld_in * E,
                                                       d.batch_stride_in * E, d.batch_stride_out * E, d.cols,
                                                       rows_regs_wide_runs(d), rows_regs_one_run_whole_blocks<E, R>(d));
        return check_launch("skinny_rows_regs_one_run_kernel", c, 0, stream);
      });
}

LaunchConfig rows_vec_config(const TransposeDesc& d) {
  const SkinnyVecSlab s = rows_vec_slab(d);
  return linear_config(static_cast<int>(d.rows), s.span, 16, kSkinnyVecThreads, d.batch * ceil_div(d.cols, s.span));
}

template <int E>
Status launch_rows_padded(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const SkinnyVecSlab s = rows_vec_slab(d);
  const auto* src = static_cast<const unsigned char*>(in);
  skinny_rows_padded_kernel<E><<<grid_of(c), block_of(c), 0, stream>>>(
      src, src + input_span_elements(d) * E, static_cast<unsigned char*>(out), make_geometry(d, 1), s,
      make_fast_div(ceil_div(d.cols, s.span)));
  return check_launch("skinny_rows_padded_kernel", c, sizeof(std::uint32_t) * kSkinnyVecTileWords, stream);
}

template <int E>
Status launch_rows_vec(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  const SkinnyVecSlab s = rows_vec_slab(d);
  const auto* src = static_cast<const unsigned char*>(in);
  const unsigned char* src_end = src + input_span_elements(d) * E;
  auto* dst = static_cast<unsigned char*>(out);
  const FastDiv slabs = make_fast_div(ceil_div(d.cols, s.span));
  // One launch for every instance of the kernel; the staged ones use the stage's shared memory too.
  const auto launch = [&](auto kernel, bool staged) {
    kernel<<<grid_of(c), block_of(c), 0, stream>>>(src, src_end, dst, make_geometry(d, 1), s, slabs);
    const std::size_t words = kSkinnyVecTileWords + (staged ? staged_run_words(kSkinnyVecSmemWords) : 0);
    return check_launch("skinny_rows_vec_kernel", c, sizeof(std::uint32_t) * words, stream);
  };
  if constexpr (E == 1) {
    const bool out_on_4_byte_grid =
        reinterpret_cast<std::uintptr_t>(out) % 4 == 0 && (d.batch == 1 || d.batch_stride_out % 4 == 0);
    const RowsVecStage stage = skinny_rows_vec_stage(E, d.rows, s.span + s.halo, out_on_4_byte_grid);
    if (stage == RowsVecStage::run) return launch(skinny_rows_vec_kernel<E, true, RowsVecStage::run>, true);
    if (stage == RowsVecStage::shifted_run)
      return launch(skinny_rows_vec_kernel<E, true, RowsVecStage::shifted_run>, true);
    if (stage == RowsVecStage::padded) return launch(skinny_rows_vec_kernel<E, true, RowsVecStage::padded>, true);
  }
  if constexpr (!skinny_rows_vec_computes_rows(E, 0)) {
    if (!skinny_rows_vec_computes_rows(E, d.rows))
      return launch(skinny_rows_vec_kernel<E, false, RowsVecStage::none>, false);
  }
  return launch(skinny_rows_vec_kernel<E, true, RowsVecStage::none>, false);
}

// The plan without the column-register kernel: also what runs where a plan for it meets pointers off
// the 16-byte grid.
Status configure_skinny_past_cols_regs(const TransposeDesc& d, LaunchConfig& c) {
  const std::int64_t short_n = std::min(d.rows, d.cols);
  const std::int64_t long_n = std::max(d.rows, d.cols);
  if (use_cols_vec(d)) {
    const int span = cols_vec_span(d);
    c = linear_config(span, static_cast<int>(d.cols), 16, kSkinnyColsThreads, d.batch * ceil_div(d.rows, span));
    return Status::ok_status();
  }
  if (use_rows_regs(d)) {
    c = rows_regs_config(d);
    return Status::ok_status();
  }
  if (use_rows_regs_wide(d)) {
    c = rows_regs_wide_config(d);
    return Status::ok_status();
  }
  if (use_rows_vec(d) || use_rows_padded(d)) {
    c = rows_vec_config(d);
    return Status::ok_status();
  }
  if (!use_staged(d)) {
    c = LaunchConfig{};
    c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
    set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, kSkinnyThreads), 1 << 20), 1, d.batch);
    return Status::ok_status();
  }
  if (short_n * static_cast<std::int64_t>(dtype_size(d.dtype)) > kSkinnySmemBytes)
    return Status(StatusCode::unsupported, "skinny: the short side must fit a shared-memory slab");
  c = LaunchConfig{};
  c.vector_bytes = static_cast<int>(dtype_size(d.dtype));
  const int span = slab_span(d);
  c.tile_rows = static_cast<int>(d.rows);  // staged slabs: all rows x span columns
  c.tile_cols = span;
  // Past 2^20 slabs the blocks loop.
  set_grid(c, kSkinnyThreads, 1, std::min<std::int64_t>(ceil_div(long_n, span), 1 << 20), 1, d.batch);
  return Status::ok_status();
}

Status launch_skinny_past_cols_regs(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out,
                                   rt::Stream stream) {
  // 16-byte elements move as whole 16-byte words there, which needs 16-byte aligned pointers; on
  // 8-byte aligned ones they take the staged kernel below (its loops cover any grid).
  const bool words_aligned = (reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) % 16 == 0;
  if (use_cols_vec(d)) {
    switch (dtype_size(d.dtype)) {
      case 1: return launch_cols_vec<1>(d, c, in, out, stream);
      case 2: return launch_cols_vec<2>(d, c, in, out, stream);
      case 4: return launch_cols_vec<4>(d, c, in, out, stream);
      case 8: return launch_cols_vec<8>(d, c, in, out, stream);
      default: return Status(StatusCode::internal, "skinny: no few-columns kernel for this element size");
    }
  }
  const bool regs_input_aligned = rows_regs_input_aligned(d, in);
  // The register kernels store 1- and 2-byte elements' stretches shifted where the output pointer is
  // off the 16-byte grid (RunStage::store_stretch): past 8 rows only for input rows on their grid.
  const bool out_on_grid = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const bool small_elements = dtype_size(d.dtype) <= 2;
  if (use_rows_regs(d) && (out_on_grid || small_elements) && (small_elements || regs_input_aligned))
    return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
      return launch_rows_regs<sizeof(decltype(tag))>(d, c, in, out, stream, regs_input_aligned);
    });
  if (use_rows_regs_wide(d) && (out_on_grid || (small_elements && rows_regs_wide_input_on_grid(d, in))))
    return dispatch_element_size_up_to<2>(dtype_size(d.dtype), "the wide-rows register kernel", [&](auto tag) {
      return launch_rows_regs_wide<sizeof(decltype(tag))>(d, c, in, out, stream);
    });
  // A plan for a register kernel run where none of its instances fits the pointers (an output off the
  // 16-byte grid for 4- to 16-byte elements, or past 8 rows with input rows off their grid): the slab
  // kernel, its own grid.
  const LaunchConfig slab_config = use_rows_regs(d) || use_rows_regs_wide(d) ? rows_vec_config(d) : c;
  if (use_rows_vec(d) && (dtype_size(d.dtype) < 16 || words_aligned))
    return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
      return launch_rows_vec<sizeof(decltype(tag))>(d, slab_config, in, out, stream);
    });
  if (use_rows_padded(d))
    return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) {
      return launch_rows_padded<sizeof(decltype(tag))>(d, c, in, out, stream);
    });
  const bool short_cols = d.cols <= d.rows;
  if (c.tile_rows == 0 && single_row_scatter(d) && dtype_size(d.dtype) == 16 && words_aligned) {
    // One 16-byte store per element rather than two 8-byte halves of one sector.
    skinny_direct_kernel<uint4, false><<<grid_of(c), block_of(c), 0, stream>>>(
        static_cast<const uint4*>(in), static_cast<uint4*>(out), make_geometry(d, 1));
    return check_launch("skinny_direct_kernel", c, 0, stream);
  }
  return dispatch_element_size(dtype_size(d.dtype), [&](auto tag) -> Status {
    using T = decltype(tag);
    const MatrixGeometry g = make_geometry(d, 1);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    if (c.tile_rows == 0) {  // configure_skinny chose the direct kernel
      if (short_cols)
        skinny_direct_kernel<T, true><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
      else
        skinny_direct_kernel<T, false><<<grid_of(c), block_of(c), 0, stream>>>(src, dst, g);
      return check_launch("skinny_direct_kernel", c, 0, stream);
    }
    const LaunchConfig staged = flat_grid(c);  // a register kernel's plan on pointers off its grid
    skinny_staged_kernel<T><<<grid_of(staged), block_of(staged), 0, stream>>>(src, dst, g, slab_span(d));
    return check_launch("skinny_staged_kernel", staged, kSkinnySmemBytes, stream);
  });
}

}  // namespace

Status configure_skinny(const TransposeDesc& d, LaunchConfig& c) {
  if (use_cols_regs(d) || use_cols_regs_wide(d)) {
    c = cols_regs_config(d);
    return Status::ok_status();
  }
  return configure_skinny_past_cols_regs(d, c);
}

Status launch_skinny(const TransposeDesc& d, const LaunchConfig& c, const void* in, void* out, rt::Stream stream) {
  if (planned_for_cols_regs(d, c)) {
    const int piece = cols_regs_piece_bytes(static_cast<int>(d.cols));
    if (reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % piece == 0)
      return dispatch_element_size_up_to<8>(dtype_size(d.dtype), "the column-register kernel", [&](auto tag) {
        return launch_cols_regs<sizeof(decltype(tag))>(d, c, in, out, stream);
      });
    // A plan for the column-register kernel on pointers off its grid: the kernels past it, their own plan.
    LaunchConfig past{};
    XPOSE_RETURN_IF_ERROR(configure_skinny_past_cols_regs(d, past));
    return launch_skinny_past_cols_regs(d, past, in, out, stream);
  }
  return launch_skinny_past_cols_regs(d, c, in, out, stream);
}

}  // namespace xpose::gpu
