// The fast path (tiled_vec) and automatic planning, element by element against the CPU reference:
// every element size x odd shapes x batch x leading dimensions x misaligned base pointers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/validate.hpp"  // options_for_pointers, as transpose() plans
#include "gpu/gpu_backend.hpp"
#include "gpu_test_support.hpp"
#include "plan/gpu_planner.hpp"
#include "row_layout_cases.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using namespace xpose_test;

// Leading dimension >= `extent` whose byte size is a multiple of 16 (aligned) or exactly one element
// past one (unaligned).
std::int64_t ld_for(DType dtype, std::int64_t extent, bool aligned) {
  const std::int64_t per16 = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(xpose::dtype_size(dtype)));
  const std::int64_t rounded = (extent + per16 - 1) / per16 * per16 + per16;
  return aligned ? rounded : rounded + (per16 > 1 ? 1 : 0);
}

std::vector<xpose::TransposeDesc> fast_cases(DType t) {
  std::vector<xpose::TransposeDesc> v;
  for (auto [r, c] : standard_shapes()) v.push_back({t, r, c});
  // Around every tile edge the planner may pick (32..256 rows, 64..512 bytes per row).
  for (std::int64_t r : {127, 128, 129, 255, 257})
    for (std::int64_t c : {31, 64, 65, 127, 128, 129, 513}) v.push_back({t, r, c});
  v.push_back({t, 32, 70001});   // short and wide: wide tiles
  v.push_back({t, 61, 3001});
  v.push_back({t, 70001, 32});   // tall and narrow: tall tiles
  v.push_back({t, 50000, 3});
  v.push_back({t, 3, 50000});
  v.push_back({t, 1024, 1024});
  v.push_back({t, 2100000, 2});  // more tile rows than gridDim.y holds
  for (auto [r, c] : random_shapes(kRandomShapeSeed + 1, 8)) v.push_back({t, r, c});
  v.push_back({t, 129, 67, 1, ld_for(t, 67, true), ld_for(t, 129, true)});    // 16-byte multiple strides
  v.push_back({t, 129, 67, 1, ld_for(t, 67, false), ld_for(t, 129, false)});  // strides off 16 bytes
  v.push_back({t, 100, 300, 7});                                               // batched, packed
  v.push_back({t, 40, 70, 3, ld_for(t, 70, true), ld_for(t, 40, true), 40 * ld_for(t, 70, true) + 64,
               70 * ld_for(t, 40, true) + 128});                                // batched with gaps
  v.push_back({t, 33, 65, 70000});  // batch past gridDim.z
  v.push_back({t, 1001, 1003, 2, 1010, 1005, 1001 * 1010 + 3, 1003 * 1005 + 1});  // odd strides, batched
  v.push_back({t, 517, 2049, 1, 2051, 519});
  if (xpose::dtype_size(t) == 1) {  // large matrices of at most 32 columns: 32-byte tile rows
    v.push_back({t, 270000, 32});     // 16-byte accesses
    v.push_back({t, 350000, 24});     // 8-byte accesses
    v.push_back({t, 600, 32, 500});   // batched, output rows on the 8-byte grid
  }
  return v;
}

// Runs `algorithm` on `d` with both buffers `shift` bytes past an allocation and checks every
// element against the CPU reference (call through ASSERT_NO_FATAL_FAILURE).
void expect_matches_reference(const xpose::TransposeDesc& d, Algorithm algorithm, std::size_t shift) {
  const CaseData& data = case_data(d);
  std::vector<unsigned char> got;
  const xpose::Status s = run_on_gpu(d, algorithm, data.input, got, data.expected_transpose.size(), shift);
  ASSERT_TRUE(s.ok()) << describe(d) << " shifted by " << shift << ": " << s.message();
  EXPECT_EQ(first_mismatch(got, data.expected_transpose, xpose::dtype_size(d.dtype)), -1)
      << describe(d) << " shifted by " << shift << "; reproduce: " << repro(d, algorithm, "cuda");
}

// Plans `algorithm` by name for every case: it must be accepted exactly where `fits` (given the
// resolved descriptor) holds, and then match the CPU reference at every shift. Returns how many ran.
template <typename Fits>
int expect_runs_where_it_fits(const std::vector<xpose::TransposeDesc>& cases, Algorithm algorithm, Fits fits,
                              std::initializer_list<std::size_t> shifts) {
  int ran = 0;
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    const xpose::Status s = xpose::make_plan(plan, d, {Backend::cuda, algorithm});
    EXPECT_EQ(s.ok(), fits(xpose::resolved(d))) << describe(d) << ": " << s.message();
    if (!s.ok()) continue;
    ++ran;
    for (std::size_t shift : shifts) {
      expect_matches_reference(d, algorithm, shift);
      if (::testing::Test::HasFatalFailure()) return ran;
    }
  }
  return ran;
}

// The automatic plan of `d` takes `algorithm` (and tiles of `tile_rows` x `tile_cols`, each where not 0)
// and matches the CPU reference (call through ASSERT_NO_FATAL_FAILURE).
void expect_automatic_plan_takes(const xpose::TransposeDesc& d, Algorithm algorithm, int tile_rows = 0,
                                 int tile_cols = 0) {
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok());
  EXPECT_EQ(plan.algorithm(), algorithm) << plan;
  if (tile_rows != 0) EXPECT_EQ(plan.config().tile_rows, tile_rows) << plan;
  if (tile_cols != 0) EXPECT_EQ(plan.config().tile_cols, tile_cols) << plan;
  expect_matches_reference(d, Algorithm::automatic, 0);
}

// tiled_unaligned planned for 16-byte aligned pointers takes the tiles of `tile_rows` rows (whole-chunk
// or line tiles) and matches the CPU reference; planned for element-aligned pointers, it takes other
// tiles and matches too (call through ASSERT_NO_FATAL_FAILURE).
void expect_grid_tiles_where_aligned(const xpose::TransposeDesc& d, std::int64_t tile_rows) {
  const std::size_t e = xpose::dtype_size(d.dtype);
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_unaligned, 16}).ok()) << describe(d);
  EXPECT_EQ(plan.config().tile_rows, tile_rows) << describe(d);
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::tiled_unaligned, 0));
  ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_unaligned, static_cast<int>(e)}).ok());
  EXPECT_NE(plan.config().tile_rows, tile_rows) << describe(d) << ": element-aligned pointers";
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::tiled_unaligned, e));
}

// Runs `call` on `d` with the input `io` and the output `oo` bytes past 256-byte boundaries and checks
// every element of the output against the CPU reference and every byte around it for the poison
// (call through ASSERT_NO_FATAL_FAILURE).
void expect_matches_at_offsets(const xpose::TransposeDesc& d, const PointerCall& call, int io, int oo,
                               const std::string& where, bool input_ends_allocation = false) {
  const CaseData& data = case_data(d);
  const std::size_t out_bytes = data.expected_transpose.size();
  std::vector<unsigned char> whole;
  const xpose::Status s = run_at_offsets(call, data.input, out_bytes, io, oo, whole, input_ends_allocation);
  ASSERT_TRUE(s.ok()) << where << ": " << s.message();
  const auto first = whole.begin() + oo;
  const std::vector<unsigned char> got(first, first + static_cast<std::ptrdiff_t>(out_bytes));
  EXPECT_EQ(first_mismatch(got, data.expected_transpose, xpose::dtype_size(d.dtype)), -1) << where;
  for (std::size_t i = 0; i < whole.size(); ++i)
    if (i < static_cast<std::size_t>(oo) || i >= oo + out_bytes) {
      ASSERT_EQ(whole[i], kPoison) << where << ": byte " << i << " outside the output was written";
    }
}

// The automatic plan for pointers `io` and `oo` bytes past 256-byte boundaries, with the alignment and
// offsets that transpose() takes from such pointers (core::options_for_pointers).
xpose::Status make_automatic_plan_at_offsets(xpose::Plan& plan, const xpose::TransposeDesc& d, int io, int oo) {
  const auto at = [](int offset) { return reinterpret_cast<const void*>(std::uintptr_t{4096} + offset); };
  return xpose::make_plan(plan, d, xpose::core::options_for_pointers({Backend::cuda}, at(io), at(oo)));
}

PointerCall execute_call(const xpose::Plan& plan) {
  return [&plan](const void* in, void* out) { return xpose::execute(plan, in, out); };
}

std::string at_offsets(const xpose::Plan& plan, int io, int oo) {
  return describe(plan.desc()) + " in+" + std::to_string(io) + " out+" + std::to_string(oo) + " " + plan.to_string();
}

// execute refuses `plan` with the input `io` and the output `oo` bytes past 256-byte boundaries, for the
// offset the plan keeps of `side` ("in" or "out"), before any launch.
void expect_refused_at_offsets(const xpose::Plan& plan, int io, int oo, const std::string& side) {
  const CaseData& data = case_data(plan.desc());
  std::vector<unsigned char> whole;
  const xpose::Status s = run_at_offsets(execute_call(plan), data.input, data.expected_transpose.size(), io, oo, whole);
  EXPECT_EQ(s.code(), xpose::StatusCode::invalid_argument) << at_offsets(plan, io, oo) << ": not refused";
  EXPECT_NE(s.message().find("PlanOptions::" + side + "_offset"), std::string::npos)
      << at_offsets(plan, io, oo) << ": " << s.message();
}

class GpuFastPath : public ::testing::TestWithParam<DType> {};

// Automatic planning on 16-byte aligned buffers: tiled_vec wherever the strides allow it.
TEST_P(GpuFastPath, AutomaticPlanMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType dtype = GetParam();
  std::printf("random shapes from seed 0x%llx\n", static_cast<unsigned long long>(kRandomShapeSeed + 1));
  for (const xpose::TransposeDesc& d : fast_cases(dtype)) {
    const CaseData& data = case_data(d);
    std::vector<unsigned char> got;
    const xpose::Status s = run_on_gpu(d, Algorithm::automatic, data.input, got, data.expected_transpose.size());
    ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
    EXPECT_EQ(first_mismatch(got, data.expected_transpose, xpose::dtype_size(dtype)), -1)
        << describe(d) << "; reproduce: " << repro(d, Algorithm::automatic, "cuda");
  }
}

// Input rows a multiple of 128 KiB apart: the automatic plan walks the tile columns in bands. The
// last tile column and tile row are cut, the output rows padded (on the sector grid, where 1- and
// 2-byte elements get 256-byte tile rows); 256 KiB rows (4 bands) and a batch for some element
// sizes.
TEST_P(GpuFastPath, AutomaticPlanInBandsMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  const std::int64_t ld_in = 128 * 1024 / e;
  std::vector<std::pair<xpose::TransposeDesc, int>> cases = {{{t, 1031, ld_in - 2, 1, ld_in, 1056}, 2}};
  if (e == 4) cases.push_back({{t, 1024, 2 * ld_in - 3, 1, 2 * ld_in, 1024}, 4});
  if (e == 16) cases.push_back({{t, 1024, ld_in, 2}, 2});
  for (const auto& [d, bands] : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok()) << describe(d);
    EXPECT_EQ(plan.config().bands, bands) << describe(d) << ": " << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::automatic, 0));
  }
}

// The tile rows picked by how the rows lie (gpu_planner.cpp: 512-byte rows for f32 input rows inside
// 128-byte lines, 16 KiB tiles for c128 matrices of 4096 columns or more with padded input rows,
// 128-byte rows for packed batches of bf16 matrices of 1024 to 2048 columns), on matrices whose last
// tile column and row are cut (row_layout_cases.hpp).
TEST_P(GpuFastPath, RowLayoutTilesMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const auto cases = row_layout_cases(t);  // (case, tile row bytes)
  if (cases.empty()) GTEST_SKIP() << "no row-layout rule for " << xpose::dtype_name(t);
  for (const auto& [d, row_bytes] : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok()) << describe(d);
    ASSERT_EQ(plan.algorithm(), Algorithm::tiled_vec) << describe(d) << ": " << plan;
    EXPECT_EQ(plan.config().tile_cols * static_cast<std::int64_t>(xpose::dtype_size(t)), row_bytes)
        << describe(d) << ": " << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::automatic, 0));
  }
}

// The planner picks the fast path for aligned strides and falls back for the rest.
TEST_P(GpuFastPath, PlannerPicksTiledVecOnlyWhereAligned) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 4096, 4096}, {Backend::cuda}).ok());
  EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << plan;
  EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 256, 256}, {Backend::cuda}).ok());
  EXPECT_EQ(plan.algorithm(), Algorithm::gather) << "small matrices take the gather kernel: " << plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 1024, 1024}, {Backend::cuda, Algorithm::automatic, 8}).ok());
  if (plan.algorithm() == Algorithm::tiled_vec)
    EXPECT_EQ(plan.config().vector_bytes, 8) << "8-byte alignment must not get 16-byte accesses: " << plan;
  if (xpose::dtype_size(t) < 16) {
    // Wider than the few-columns slabs take (which read small gaps between input rows whole).
    ASSERT_TRUE(xpose::make_plan(plan, {t, 300, 267, 1, ld_for(t, 267, false), 0}, {Backend::cuda}).ok());
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_unaligned) << plan;
  }
}

// 10 to 16 rows on the 16-byte grid take tiled_vec's 16-row tiles: whole and cut tile columns, a
// batch, padded output rows, and for wider elements 12, 10 and 11 rows (whole output vectors).
TEST_P(GpuFastPath, FewRowsOnTheGridMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), v = 16 / e;  // elements per 16 bytes
  std::vector<xpose::TransposeDesc> cases = {{t, 16, 1001 * v}, {t, 16, 513 * v, 3}, {t, 16, 700 * v, 1, 0, 16 + v}};
  if (e >= 4) cases.push_back({t, 12, 999 * v});
  if (e >= 8) cases.push_back({t, 10, 641 * v, 2});
  if (e == 16) cases.push_back({t, 11, 3001});
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok()) << describe(d);
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << describe(d) << ": " << plan;
    EXPECT_EQ(plan.config().tile_rows, 16) << describe(d) << ": " << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::automatic, 0));
  }
}

// tiled_vec asked for by name where strides and pointers sit on the 8-byte grid only: the narrower
// accesses, on odd shapes, tiles cut by every edge, batches with gaps.
TEST_P(GpuFastPath, NarrowVectorsMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  constexpr std::int64_t grid = 8;
  if (e > grid) GTEST_SKIP() << "an 8-byte access cannot hold a " << e << "-byte element";
  std::vector<xpose::TransposeDesc> cases;
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{129, 67}, {127, 513}, {257, 31},  {1000, 1000},
                                                          {61, 3001}, {3001, 61}, {17, 4099}, {2049, 129}};
  for (auto [r, c] : shapes) cases.push_back({t, r, c, 1, ld_on_grid(t, c, grid), ld_on_grid(t, r, grid)});
  const std::int64_t ld_in = ld_on_grid(t, 70, grid), ld_out = ld_on_grid(t, 40, grid);
  cases.push_back({t, 40, 70, 3, ld_in, ld_out, 40 * ld_in + grid / e, 70 * ld_out + 3 * grid / e});
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::tiled_vec}).ok()) << describe(d);
    EXPECT_EQ(plan.config().vector_bytes, grid) << describe(d) << ": " << plan;
    for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(grid)})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::tiled_vec, shift));
  }
}

// Base pointers that are element-aligned but not 16-byte aligned, through the one-call API (which
// plans for the pointers it is given) and through a plan made for 16 bytes (which must refuse them).
TEST_P(GpuFastPath, MisalignedBasePointers) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::size_t e = xpose::dtype_size(t);
  const std::size_t shift = e < 16 ? e : 8;  // the smallest legal misalignment
  // Strides that are multiples of 16 bytes, so only the base pointers keep the fast path out.
  for (const xpose::TransposeDesc& d : {xpose::TransposeDesc{t, 256, 1024}, xpose::TransposeDesc{t, 64, 64, 3}}) {
    const CaseData& data = case_data(d);
    const std::size_t out_bytes = data.expected_transpose.size();
    xpose::DeviceBuffer in, out;
    ASSERT_TRUE(in.allocate(data.input.size() + 16).ok());
    ASSERT_TRUE(out.allocate(out_bytes + 16).ok());
    auto* in_ptr = static_cast<unsigned char*>(in.data()) + shift;
    auto* out_ptr = static_cast<unsigned char*>(out.data()) + shift;
    ASSERT_TRUE(xpose::copy_host_to_device(in_ptr, data.input.data(), data.input.size()).ok());
    ASSERT_TRUE(xpose::fill_device_bytes(out_ptr, kPoison, out_bytes).ok());

    xpose::Plan strict;
    ASSERT_TRUE(xpose::make_plan(strict, d, {Backend::cuda, Algorithm::tiled_vec}).ok());
    EXPECT_EQ(xpose::execute(strict, in_ptr, out_ptr).code(), xpose::StatusCode::invalid_argument);

    const xpose::Status s = xpose::transpose(d, in_ptr, out_ptr, nullptr, {Backend::cuda});
    ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
    std::vector<unsigned char> got(out_bytes);
    ASSERT_TRUE(xpose::synchronize_device().ok());
    ASSERT_TRUE(xpose::copy_device_to_host(got.data(), out_ptr, out_bytes).ok());
    EXPECT_EQ(first_mismatch(got, data.expected_transpose, e), -1) << describe(d) << " shifted by " << shift;
  }
}

// Pointers off the 16-byte grid (or off 256-byte blocks) while the strides keep it: the plan for those
// offsets moves tiled_vec's tile grid to start before the matrix (`lead` in the plan), and the
// first tile row and column leave the lead out. Every element is checked, the output poisoned first
// and untouched outside its span, on odd extents, batches and padded strides; execute refuses
// pointers at other offsets modulo 16.
TEST_P(GpuFastPath, LedTilesMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  const std::int64_t w = 16 / std::min(e, 16);  // elements per 16 bytes
  const auto up = [w](std::int64_t x) { return (x + w - 1) / w * w; };  // a stride on the 16-byte grid
  std::vector<xpose::TransposeDesc> cases = {
      {t, 1024, 1024},
      {t, 1000, 1003, 1, up(1003), up(1000)},  // extents off the grid, strides on it
      {t, 777, 96 * w, 1, 0, up(777)},
      {t, 4100, 64 * w, 1, 0, up(4100) + 3 * w},
      {t, 96, 128, 5, 128 + 2 * w, 96 + w, 96 * (128 + 2 * w) + 16 * w, 128 * (96 + w) + 32 * w},  // batch, gaps
      // A batch with gaps of matrices with tile rows and columns enough for leads on both sides.
      {t, 1030, 136 * w, 3, 138 * w, up(1030) + w, 1030 * 138 * w + 16 * w, 136 * w * (up(1030) + w) + 32 * w},
      {t, 40000, 32 * w},
      {t, 1000, 1003},  // strides off the grid: no lead
  };
  // 2-byte elements: matrices past 64 MiB, whose plans take the 32 KiB tiles, led ones among them (128
  // rows of 256 bytes; 256 of 128 where the output rows start mid-sector).
  if (e == 2) cases.insert(cases.end(), {{t, 8192, 4112}, {t, 1000, 1000, 34}});
  // (input, output) offsets in bytes from a 256-byte boundary, element multiples.
  const std::vector<std::pair<int, int>> offsets = {{e, 0},   {0, e},     {3 * e % 128, 5 * e % 128}, {16, 0},
                                                    {0, 48},  {112, 80},  {64, 16},
                                                    {128, 0}, {0, 128},   {176, 144}, {0, 40}};
  int led = 0, led_large_128_rows = 0, led_large_256_rows = 0;
  for (const xpose::TransposeDesc& d : cases) {
    for (auto [io, oo] : offsets) {
      if (io % e != 0 || oo % e != 0) continue;
      xpose::PlanOptions options{Backend::cuda};
      options.alignment = std::min(e, 16);
      options.in_offset = io;
      options.out_offset = oo;
      xpose::Plan plan;
      ASSERT_TRUE(xpose::make_plan(plan, d, options).ok()) << describe(d);
      const bool has_lead = plan.config().lead_rows > 0 || plan.config().lead_cols > 0;
      led += has_lead ? 1 : 0;
      if (has_lead && plan.config().tile_rows * plan.config().tile_cols * e == xpose::kVecTileBytesLarge) {
        led_large_128_rows += plan.config().tile_rows == 128 ? 1 : 0;
        led_large_256_rows += plan.config().tile_rows == 256 ? 1 : 0;
      }
      // An input pointer one element on (as aligned, at another offset modulo 16) is refused.
      if (has_lead && e < 16) expect_refused_at_offsets(plan, io + e, oo, "in");
      ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(d, execute_call(plan), io, oo, at_offsets(plan, io, oo)));
    }
  }
  EXPECT_GT(led, 0) << "no case took a led plan";
  if (e == 2) EXPECT_GT(led_large_128_rows, 0) << "no led plan took the 32 KiB tiles of 128 rows";
  if (e == 2) EXPECT_GT(led_large_256_rows, 0) << "no led plan took the 32 KiB tiles of 256 rows";
}

// tiled_vec's shifted-output tiles: packed output rows of 64 or 128 elements (one tile tall), the
// output pointer at every element offset off the 8-byte grid, last tile columns cut short (and units
// cut by an odd column count), a packed batch and a batch with gaps, asked for by name; and a matrix
// large enough for the automatic plan, there and through the one call. Pointers at other offsets
// modulo 16 than the plan's are refused.
TEST_P(GpuFastPath, ShiftedOutputRunsMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "built for 1- and 2-byte elements";
  const std::int64_t w = 16 / e;  // elements per 16 bytes
  const auto up = [w](std::int64_t x) { return (x + w - 1) / w * w; };  // input rows on the 16-byte grid
  const std::vector<xpose::TransposeDesc> cases = {
      {t, 64, 1001, 1, up(1001)},
      {t, 64, 40 * w + 3, 1, 41 * w},
      {t, 128, 333, 1, up(333)},
      {t, 64, 3, 1, w},  // one cut tile
      {t, 128, 5 * w, 3},  // a packed batch
      {t, 64, 130, 3, 144, 64, 64 * 144 + 16 * w, 130 * 64 + 2 * w},  // a batch with gaps, padded input rows
  };
  int cases_run = 0;
  for (const xpose::TransposeDesc& d : cases) {
    for (int oo = e; oo < 16; oo += e) {
      if (oo % 8 == 0) continue;  // on the 8-byte grid: tiled_vec's 8-byte accesses
      xpose::PlanOptions options{Backend::cuda, Algorithm::tiled_vec, e};
      options.in_offset = 0;
      options.out_offset = 32 + oo;
      xpose::Plan plan;
      const xpose::Status made = xpose::make_plan(plan, d, options);
      ASSERT_TRUE(made.ok()) << describe(d) << " out+" << oo << ": " << made.message();
      const std::string where = at_offsets(plan, 0, 32 + oo);
      ASSERT_TRUE(plan.config().shifted_output) << where;
      ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(d, execute_call(plan), 0, 32 + oo, where));
      ++cases_run;
      if (oo == e) {
        expect_refused_at_offsets(plan, 0, 32 + oo + e, "out");
        expect_refused_at_offsets(plan, 16 + e, 32 + oo, "in");
      }
    }
  }
  EXPECT_EQ(cases_run, static_cast<int>(cases.size()) * (16 / e - 2));
  const xpose::TransposeDesc large{t, 64, (std::int64_t{9} << 20) / (64 * e) + w};  // past 8 MiB
  xpose::PlanOptions options{Backend::cuda};
  options.in_offset = 0;
  options.out_offset = e;
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, large, options).ok()) << describe(large);
  EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << plan.to_string();
  EXPECT_TRUE(plan.config().shifted_output) << plan.to_string();
  ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(large, execute_call(plan), 0, e, at_offsets(plan, 0, e)));
  const PointerCall one_call = [&large](const void* in, void* out) {
    return xpose::transpose(large, in, out, nullptr, {Backend::cuda});
  };
  ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(large, one_call, 0, 3 * e, describe(large) + " by transpose"));
}

// tiled_unaligned asked for by name on every case, on element-aligned and 16-byte aligned pointers
// (a 16-byte element needs 16-byte alignment here).
TEST_P(GpuFastPath, TiledUnalignedMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::size_t e = xpose::dtype_size(t);
  for (const xpose::TransposeDesc& d : fast_cases(t))
    for (std::size_t shift : {std::size_t{0}, e < 16 ? e : 0, e < 8 ? 8 - e : 0})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::tiled_unaligned, shift));
}

// tiled_unaligned on every output row stride mod 32 bytes: the 1- and 2-byte store phase lays its
// windows out by that stride (whole sectors where the spread allows, half sectors elsewhere). A few
// tiles take the small tile shape; for 1- and 2-byte elements batches of 256 take the short one (209
// rows) and the large one (416 rows: 2 large tiles of u8, 4 of bf16, each full).
TEST_P(GpuFastPath, TiledUnalignedEveryOutputStride) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  for (std::int64_t k = 0; k < 32; ++k) {
    const std::int64_t ld_in = 79 + k % 3, ld_out = 453 + k;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference({t, 453, 77, 2, ld_in, ld_out, 453 * ld_in + 5, 77 * ld_out + 7},
                                                     Algorithm::tiled_unaligned, 0));
    if (xpose::dtype_size(t) > 2) continue;
    for (std::int64_t rows : {209, 416})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(
          {t, rows, 65, 256, 67, rows + k, rows * 67, 65 * (rows + k) + 3}, Algorithm::tiled_unaligned, 0));
  }
}

// The three tile shapes of 1- and 2-byte elements, as the plan shows them: the small ones for a few
// tiles (under 512 large ones for 1-byte elements, 256 for 2-byte ones) and for 1-byte elements whose
// rows fill them 20 points better than the others, the short ones where a matrix's rows fill them at
// least 5 points better than the large ones.
TEST_P(GpuFastPath, TiledUnalignedTileShapes) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "one tile shape for 4- to 16-byte elements";
  struct Case {
    xpose::TransposeDesc d;
    std::int64_t tile_rows;
  };
  const std::int64_t large = 208 / e, shorter = e == 1 ? 160 : 128, small = 80 / e;
  for (const Case& c : {Case{{t, 255, 255, 256}, shorter}, Case{{t, 2 * large, 255, 256}, large},
                        Case{{t, 255, 255, 2}, small}, Case{{t, 1001, 1003, 16}, large},
                        Case{{t, 230, 230, 100}, e == 1 ? small : shorter},
                        Case{{t, 1537, 1536, 1}, e == 1 ? small : large}}) {
    xpose::Plan plan;
    // Element-aligned pointers: output rows on the 16-byte grid would take the whole-chunk tiles.
    const xpose::PlanOptions options{Backend::cuda, Algorithm::tiled_unaligned, static_cast<int>(e)};
    ASSERT_TRUE(xpose::make_plan(plan, c.d, options).ok()) << describe(c.d);
    EXPECT_EQ(plan.config().tile_rows, c.tile_rows) << describe(c.d);
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(c.d, Algorithm::tiled_unaligned, static_cast<std::size_t>(e)));
  }
}

// tiled_unaligned's whole-chunk tiles: 1- and 2-byte elements whose output rows (and matrices) lie on
// the 16-byte grid, input rows anywhere. The plan shows their rows (128 of u8, 64 of bf16) on
// 16-byte aligned pointers; element-aligned pointers take the other tiles. Odd columns, partial tile
// rows and columns, output rows that end mid-chunk (padded), batches packed and with gaps, input
// strides on the 4-byte grid.
TEST_P(GpuFastPath, TiledUnalignedWholeOutputChunks) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "the whole-chunk tiles are for 1- and 2-byte elements";
  const std::int64_t per = 16 / e, tile_rows = 128 / e;
  const std::int64_t padded = ld_on_grid(t, 100, 16);
  for (const xpose::TransposeDesc& d : std::vector<xpose::TransposeDesc>{
           {t, 37 * per, 1001},                                      // partial tiles both ways
           {t, 3 * tile_rows, 4099},                                 // whole tile rows
           {t, per, 333},                                            // one chunk per output row
           {t, 5 * per, 77, 9},                                      // a packed batch
           {t, 100, 301, 1, 303, padded},                            // output rows end mid-chunk
           {t, 50, 70, 3, 73, 64, 50 * 73 + 5, 70 * 64 + 2 * per},   // a batch with gaps
           {t, 1040, 2001, 1, 2002},                                 // input rows on the 4-byte grid
           {t, 2 * tile_rows, 129, 1, 131, 2 * tile_rows + per}}) {  // padded output rows, 2 tiles
    ASSERT_NO_FATAL_FAILURE(expect_grid_tiles_where_aligned(d, tile_rows));
  }
}

// tiled_unaligned's line tiles: 1- and 2-byte elements whose input rows (and matrices) lie on the
// 16-byte grid, output rows off it. The plan shows their rows (224 of u8, 112 of bf16) on 16-byte
// aligned pointers; element-aligned pointers take the other tiles. Output strides at every offset
// from the sector grid around two tile rows (the halo, the first tile's head sectors), partial tile
// rows and columns, fewer rows than the halo, batches packed and with gaps, padded output rows.
TEST_P(GpuFastPath, TiledUnalignedWholeInputChunks) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "the line tiles are for 1- and 2-byte elements";
  const std::int64_t per = 16 / e, tile_rows = 224 / e;
  std::vector<xpose::TransposeDesc> cases;
  for (std::int64_t k = 1; k < 32 / e; ++k)  // output rows k elements past the sector grid
    if (k * e % 16 != 0) cases.push_back({t, tile_rows + 40 / e, 5 * per, 1, 5 * per, tile_rows + 64 / e + k});
  for (const xpose::TransposeDesc& d : std::vector<xpose::TransposeDesc>{
           {t, 1001, 37 * per},                                                // partial tiles both ways
           {t, 3 * tile_rows, 9 * per, 1, 9 * per, 3 * tile_rows + 1},         // whole tile rows
           {t, 7, 40 * per},                                                   // fewer rows than the halo
           {t, 77, 3 * per, 9},                                                // a packed batch
           {t, 50, 70, 3, 80, 53, 50 * 80 + per, 73 * 53 + 1},                // a batch with gaps
           {t, 2 * tile_rows + 3, 129, 1, 144, 2 * tile_rows + 3 + per}})      // padded output rows
    cases.push_back(d);
  for (const xpose::TransposeDesc& d : cases) {
    ASSERT_NO_FATAL_FAILURE(expect_grid_tiles_where_aligned(d, tile_rows));
  }
}

// One pointer off the 16-byte grid, the other side's pointer and rows on it: tiled_unaligned planned
// for those offsets takes the tiles that need only that side aligned, the line tiles (224 rows of
// u8, 112 of bf16) for an aligned input, the whole-chunk tiles (128 of u8, 64 of bf16) for an
// aligned output, and execute refuses the aligned side elsewhere modulo 16. Where the windows tiles
// fill the rows 30 points better than the line tiles (u8's small tiles on 80 rows, bf16's short ones
// on 128) they stay, and run with the input anywhere. Every element and the bytes around the output
// are checked, on partial tiles, batches and padded rows, through the plan and through the one-call
// API.
TEST_P(GpuFastPath, TiledUnalignedOnePointerOffTheGrid) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "the line and whole-chunk tiles are for 1- and 2-byte elements";
  const std::int64_t per = 16 / e, line_rows = 224 / e, chunk_rows = 128 / e;
  struct Case {
    xpose::TransposeDesc d;
    int io, oo;
    std::int64_t tile_rows;
  };
  const std::vector<Case> cases = {
      {{t, 2 * line_rows + 2 * per, 9 * per}, 0, e, line_rows},  // output rows on the grid
      {{t, 3 * line_rows, 41 * per}, 0, 24, line_rows},          // 8 bytes off
      {{t, 16 * per, 3 * per, 7}, 0, 5 * e, line_rows},          // a packed batch
      {{t, line_rows + 5 * per, 7 * per, 1, 7 * per, line_rows + 8 * per}, 16, 3 * e, line_rows},  // padded
      {{t, 2 * line_rows + 3, 129, 1, 144}, 0, e, line_rows},       // output rows off the grid too
      {{t, e == 1 ? 80 : 128, e == 1 ? 40 * per : 8192}, 0, e, e == 1 ? 80 : 128},  // the windows fill far better
      {{t, 2 * chunk_rows + per, 1001}, e, 0, chunk_rows},          // input rows anywhere
      {{t, 3 * chunk_rows, 77, 5}, 3 * e, 32, chunk_rows},          // a packed batch
      {{t, chunk_rows + 3 * per, 130, 1, 131, chunk_rows + 5 * per}, 8 + e, 0, chunk_rows},  // padded
  };
  for (const Case& c : cases) {
    xpose::PlanOptions options{Backend::cuda, Algorithm::tiled_unaligned, e};
    options.in_offset = c.io;
    options.out_offset = c.oo;
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, c.d, options).ok()) << describe(c.d);
    const std::string where = at_offsets(plan, c.io, c.oo);
    EXPECT_EQ(plan.config().tile_rows, c.tile_rows) << where;
    // The side the tiles take whole, one element on, is refused; the windows take any pointers.
    if (c.tile_rows == line_rows) expect_refused_at_offsets(plan, c.io + e, c.oo, "in");
    if (c.tile_rows == chunk_rows) expect_refused_at_offsets(plan, c.io, c.oo + e, "out");
    if (c.tile_rows != line_rows && c.tile_rows != chunk_rows)
      ASSERT_NO_FATAL_FAILURE(
          expect_matches_at_offsets(c.d, execute_call(plan), c.io + e, c.oo, at_offsets(plan, c.io + e, c.oo)));
    ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(c.d, execute_call(plan), c.io, c.oo, where));
    const PointerCall one_call = [&c](const void* in, void* out) {
      return xpose::transpose(c.d, in, out, nullptr, {Backend::cuda});
    };
    ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(c.d, one_call, c.io, c.oo, describe(c.d) + " by transpose"));
  }
}

// The gather kernel asked for by name: every case whose output strides are on the 16-byte grid runs
// (input strides of any value; 2-byte elements read words where their input rows allow), the others
// are refused at plan time; so are pointers aligned to less than 16 bytes.
TEST_P(GpuFastPath, GatherMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  std::vector<xpose::TransposeDesc> cases = fast_cases(t);
  const std::int64_t ld_out_1001 = ld_for(t, 1001, true);
  cases.push_back({t, 1001, 999, 1, 1001, ld_out_1001});                    // odd input stride, cut tiles
  cases.push_back({t, 1001, 999, 1, 1002, ld_out_1001});                    // even input stride
  cases.push_back({t, 77, 131, 3, 133, ld_for(t, 77, true), 77 * 133 + 1,  // batched with gaps
                   131 * ld_for(t, 77, true) + 16 / e});
  cases.push_back({t, 15, 300, 1, 300, 16});                                // fewer rows than one vector
  if (e == 16) {  // past 8 MiB: the 32-row tiles, cut in both directions, one matrix and a batch
    cases.push_back({t, 1001, 600});
    cases.push_back({t, 520, 530, 2});
  }
  const auto on_grid = [e](const xpose::TransposeDesc& r) {
    return r.ld_out * e % 16 == 0 && (r.batch == 1 || r.batch_stride_out * e % 16 == 0);
  };
  int ran = 0;
  ASSERT_NO_FATAL_FAILURE(ran = expect_runs_where_it_fits(cases, Algorithm::gather, on_grid, {0}));
  EXPECT_GE(ran, 4) << "the cases above built for it run";
  xpose::Plan plan;
  EXPECT_FALSE(xpose::make_plan(plan, {t, 256, 256}, {Backend::cuda, Algorithm::gather, 8}).ok())
      << "8-byte aligned pointers cannot take 16-byte stores";
}

// tiled_sectors asked for by name: output rows at every offset of the 8-byte grid within a sector,
// around its tile edges (256 rows of u8, 128 of bf16) and its halo's (the output sectors reach 16
// bytes past a tile on the 16-byte grid, 24 on the 8-byte grid, 30 or 31 bytes where matrices start
// anywhere: 8, 12, 15 bf16 rows; 16, 24, 31 u8 rows), batches whose output matrices start anywhere,
// input rows on the 8- and 16-byte grids, base pointers 8 bytes past 16; every case of the fast path
// that it takes. Wider elements and strides off the 8-byte grid are refused at plan time, and so are
// pointers aligned to less than 8 bytes.
TEST_P(GpuFastPath, TiledSectorsMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  std::vector<xpose::TransposeDesc> cases = fast_cases(t);
  const std::int64_t grid8 = 8 / std::min<std::int64_t>(e, 8);  // elements per 8 bytes
  for (std::int64_t rows : {100, 136, 137, 140, 141, 143, 144, 255, 256, 257, 270, 272, 273, 280, 281, 287, 300, 513})
    for (std::int64_t k = 1; k < 4; ++k) {  // output rows 8, 16, 24 bytes past the sector grid
      const std::int64_t ld_out = (rows * e + 31) / 32 * 32 / e + k * grid8;
      cases.push_back({t, rows, 200, 1, 200, ld_out});
      cases.push_back({t, rows, 67, 1, e == 1 ? 72 : 68, ld_out});  // input rows 8 bytes off 16 (1, 2 B)
    }
  cases.push_back({t, 300, 130, 3, 136, 312, 300 * 136 + 8, 130 * 312 + 5});  // batches mid-sector anywhere
  // Output matrices 130 rows of 312 and one (u8) or five (bf16) elements apart: the longest halo, 31 u8
  // rows or 15 bf16 rows (with the output pointer 8 bytes on); a tile and that halo, and one row more.
  for (std::int64_t rows : {e == 1 ? 287 : 143, e == 1 ? 288 : 144})
    cases.push_back({t, rows, 130, 3, 136, 312, rows * 136 + 8, 130 * 312 + (e == 1 ? 1 : 5)});
  cases.push_back({t, 1001, 999, 2, 1000, 1008 + grid8, 1001 * 1000, 999 * (1008 + grid8) + 3});
  cases.push_back({t, 2049, 300, 1, 304, 2056});
  const auto fits = [e](const xpose::TransposeDesc& r) {
    const auto on8 = [e](std::int64_t stride) { return stride * e % 8 == 0; };
    return e <= 2 && on8(r.ld_in) && on8(r.ld_out) && (r.batch == 1 || on8(r.batch_stride_in));
  };
  int ran = 0;
  ASSERT_NO_FATAL_FAILURE(ran = expect_runs_where_it_fits(cases, Algorithm::tiled_sectors, fits, {0, 8}));
  if (e <= 2) EXPECT_GE(ran, 50) << "the cases above built for it run";
  xpose::Plan plan;
  EXPECT_FALSE(xpose::make_plan(plan, {t, 256, 256}, {Backend::cuda, Algorithm::tiled_sectors, 4}).ok())
      << "4-byte aligned pointers cannot take 8-byte loads";
}

// The automatic plan takes tiled_sectors for large 1- and 2-byte matrices whose output rows start
// mid-sector on the 8-byte grid.
TEST_P(GpuFastPath, AutomaticPlanTakesTiledSectors) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "tiled_sectors packs 1- and 2-byte elements";
  ASSERT_NO_FATAL_FAILURE(
      expect_automatic_plan_takes({t, 2100, 4104 / e, 1, 4104 / e, 2120 + 8 / e}, Algorithm::tiled_sectors));
}

// A single u8 matrix of 128 MiB or more read 8 bytes at a time takes tiled_sectors' tiles of 128-byte
// rows (plan::tiled_sectors_wide_rows), with output rows off the sector grid (ld_out 24 bytes past it),
// a last tile row of 16 rows and a last tile column of 8 columns; with input rows on the 16-byte grid
// the same matrix keeps the tiles of 64-byte rows. (Each case holds about 400 MB of host memory for the
// rest of the run: the fixtures keep their data.) Smaller u8 matrices and batches of whole wide tiles
// take them where those fit in one wave of blocks and the narrow ones do not, on this device's SMs.
TEST_P(GpuFastPath, LargeOneByteMatricesTakeWideSectorTiles) {
  XPOSE_SKIP_WITHOUT_GPU();
  if (GetParam() != DType::u8) GTEST_SKIP() << "the wide tiles are for 1-byte elements";
  struct Case {
    xpose::TransposeDesc d;
    int vector_bytes, tile_cols;
  };
  // 512 wide tiles: one wave where 4 blocks on each SM make 512 to 1023.
  const std::int64_t wave = std::int64_t{xpose::plan::kSectorsBlocksPerSm} * xpose::gpu::multiprocessor_count();
  const int one_wave_cols = 512 <= wave && wave < 1024 ? 128 : 64;
  for (const Case& k : {Case{{DType::u8, 16400, 8200, 1, 8200, 16408}, 8, 128},
                        Case{{DType::u8, 16400, 8200, 1, 8208, 16408}, 16, 64},
                        Case{{DType::u8, 4096, 4096, 1, 4104, 4104}, 8, one_wave_cols},
                        Case{{DType::u8, 2048, 2048, 4, 2056, 2056}, 8, one_wave_cols},
                        Case{{DType::u8, 4096, 4096, 1, 4112, 4104}, 16, one_wave_cols},
                        Case{{DType::u8, 4096, 4000, 1, 4008, 4104}, 8, 64}}) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, k.d, {Backend::cuda}).ok());
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_sectors) << plan;
    EXPECT_EQ(plan.config().vector_bytes, k.vector_bytes) << plan;
    EXPECT_EQ(plan.config().tile_cols, k.tile_cols) << plan;
    EXPECT_EQ(plan.config().tile_rows, 256) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(k.d, Algorithm::automatic, 0));
  }
}

// tiled_vec's tile rows narrowed where a few tile columns leave the last mostly empty
// (fill_tile_columns in gpu_planner.cpp): the automatic plan takes them and matches the reference, on
// single matrices, padded rows and a batch, beside a matrix that keeps its tiles.
TEST_P(GpuFastPath, FewTileColumnsTakeNarrowerTileRows) {
  XPOSE_SKIP_WITHOUT_GPU();
  if (GetParam() != DType::c128 && GetParam() != DType::f64) GTEST_SKIP() << "measured for 8- and 16-byte elements";
  struct Case {
    xpose::TransposeDesc d;
    int tile_cols;
  };
  const std::vector<Case> cases = GetParam() == DType::c128
                                      ? std::vector<Case>{{{DType::c128, 62939, 33}, 8},
                                                          {{DType::c128, 15501, 33}, 8},
                                                          {{DType::c128, 55923, 37, 1, 74, 55987}, 16},
                                                          {{DType::c128, 175, 37, 647}, 16},
                                                          {{DType::c128, 14110, 74}, 32}}
                                      : std::vector<Case>{{{DType::f64, 62583, 134, 1, 134, 62584}, 32},
                                                          {{DType::f64, 64, 140, 468}, 32}};
  for (const Case& k : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, k.d, {Backend::cuda}).ok());
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << plan;
    EXPECT_EQ(plan.config().tile_cols, k.tile_cols) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(k.d, Algorithm::automatic, 0));
  }
}

// The rules of the eightieth session (gpu_planner.cpp), each through the automatic plan against the CPU
// reference: 8-byte output rows mid-sector take narrower tile rows (mid_sector_wide_rows_narrow); tall
// few-column matrices with far-apart input rows take tiled_vec rather than skinny
// (padded_few_columns_take_tiles); 2-byte elements on the 8-byte grid keep 16 KiB tiles under 32 MiB
// (two_byte_eight_byte_grid_keeps_tiles).
TEST_P(GpuFastPath, MidSectorRowsPaddedColumnsAndEightByteGridTilesMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  if (t != DType::f64 && t != DType::f32 && t != DType::bf16) GTEST_SKIP() << "the rules are for 2- to 8-byte elements";
  struct Case {
    xpose::TransposeDesc d;
    Algorithm algorithm;
    int tile_rows, tile_cols;
  };
  std::vector<Case> cases;
  if (t == DType::f64)
    cases = {{{t, 363, 11554, 1, 11554, 726}, Algorithm::tiled_vec, 64, 16},
             {{t, 1710, 2452, 1, 2516, 1810}, Algorithm::tiled_vec, 32, 32},
             {{t, 290135, 14, 1, 78}, Algorithm::tiled_vec, 64, 16},
             {{t, 497802, 4, 1, 68}, Algorithm::tiled_vec, 128, 8},
             {{t, 303918, 6, 1, 70, 303919}, Algorithm::tiled_vec, 128, 8},
             {{t, 2557414, 3, 1, 27}, Algorithm::tiled_vec, 128, 8}};
  else if (t == DType::f32)
    cases = {{{t, 500002, 16, 1, 40}, Algorithm::tiled_vec, 128, 16}};
  else
    cases = {{{t, 4000, 4004}, Algorithm::tiled_vec, 64, 128}, {{t, 300, 300, 186}, Algorithm::tiled_vec, 64, 128}};
  for (const Case& k : cases)
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(k.d, k.algorithm, k.tile_rows, k.tile_cols));
}

// Batches of c128 matrices of 8 to 16 KiB whose rows spill into a second tiled_vec tile column take
// small_batch (wide_element_rows_spill_a_tile_column in gpu_planner.cpp) and match the reference; a
// batch whose rows fit one tile column keeps tiled_vec.
TEST_P(GpuFastPath, WideElementBatchesSpillingATileColumnTakeSmallBatch) {
  XPOSE_SKIP_WITHOUT_GPU();
  if (GetParam() != DType::c128) GTEST_SKIP() << "the rule is for 16-byte elements";
  for (const auto& [d, algorithm] : {std::pair{xpose::TransposeDesc{DType::c128, 20, 33, 6355}, Algorithm::small_batch},
                                     std::pair{xpose::TransposeDesc{DType::c128, 13, 44, 733}, Algorithm::small_batch},
                                     std::pair{xpose::TransposeDesc{DType::c128, 25, 25, 600}, Algorithm::tiled_vec}})
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, algorithm));
}

// The eighty-first session's rules (gpu_planner.cpp) pick their plans and match the reference: f64 output
// rows mid-sector in 32-row tiles (mid_sector_few_rows_take_tall_tiles), tall f64 and f32 matrices of 17 to
// 32 columns with far-apart input rows on tiled_vec (padded_few_columns_take_tiles) and, on the 8-byte grid,
// 1- to 4-byte ones whose rows end in part of a vector on tiled_unaligned (tall_far_rows_on_eight_byte_grid),
// c128 matrices of 10 to 12 rows on gather (wide_element_few_rows_take_gather) and batches of 2-row matrices
// of 16- and 32-byte rows on skinny (batch_takes_skinny).
TEST_P(GpuFastPath, FewRowsTallFarRowsAndTwoRowBatchesMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  struct Case {
    xpose::TransposeDesc d;
    Algorithm algorithm;
    int tile_rows;
  };
  std::vector<Case> cases;
  if (t == DType::f64)
    cases = {{{t, 29, 40000, 1, 40002, 34}, Algorithm::tiled_vec, 32},
             {{t, 30, 40000}, Algorithm::tiled_vec, 32},
             {{t, 70000, 17, 1, 81}, Algorithm::tiled_vec, 32}};
  else if (t == DType::f32)
    cases = {{{t, 100002, 24, 1, 70}, Algorithm::tiled_vec, 64},
             {{t, 70000, 33, 1, 102}, Algorithm::tiled_unaligned, 0},
             {{t, 2, 8, 999}, Algorithm::skinny, 0}};
  else if (t == DType::c128)
    cases = {{{t, 10, 60001}, Algorithm::gather, 0}, {{t, 11, 50000, 1, 50003}, Algorithm::gather, 0}};
  else if (t == DType::bf16)
    cases = {{{t, 140000, 33, 1, 100}, Algorithm::tiled_unaligned, 0},
             {{t, 100004, 44, 1, 100}, Algorithm::tiled_vec, 0},
             {{t, 2, 8, 1003}, Algorithm::skinny, 0},
             {{t, 2, 16, 77}, Algorithm::skinny, 0}};
  else
    cases = {{{t, 300000, 33, 1, 104}, Algorithm::tiled_unaligned, 0},
             {{t, 2, 16, 1003}, Algorithm::skinny, 0},
             {{t, 2, 32, 77}, Algorithm::skinny, 0}};
  for (const Case& k : cases) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(k.d, k.algorithm, k.tile_rows));
}

// small_batch asked for by name: matrices from one element to the kernel's whole 16 KiB tile, and
// past it one whole matrix per block up to 64 KiB (swizzled, rotated and strided) and up to the
// device's bound (its largest square, and one past it, refused), batches
// whose last block takes fewer matrices, packed batches (vector runs with element heads and tails)
// and strided ones on either side (element by element), rows of 64 bytes and more (swizzled tile),
// 1-byte matrices of fewer than 16 rows whose output period has a table and one whose has not,
// matrices that divide a 16-byte chunk,
// one matrix with a short side in slabs,
// base pointers off the 16-byte grid; batches of matrices past one whole matrix's bound, single
// matrices past the 16 KiB tile and single matrices whose short side is too long for 32-element slabs
// are refused at plan time.
TEST_P(GpuFastPath, SmallBatchMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  const std::int64_t side = e == 1 ? 128 : e == 2 ? 90 : e == 4 ? 64 : e == 8 ? 45 : 32;  // the largest that fit
  const std::int64_t octo_cols = e >= 8 ? 24 : 96 / e;  // 96 to 384 bytes a row
  const std::int64_t whole = e == 1 ? 255 : e == 2 ? 180 : e == 4 ? 127 : e == 8 ? 90 : 63;  // fit 64 KiB
  // The largest square this device takes whole (past 64 KiB where two blocks of an SM hold more).
  const std::int64_t device_limit = xpose::gpu::small_batch_whole_matrix_bytes();
  const auto device_whole = static_cast<std::int64_t>(std::sqrt(static_cast<double>(device_limit / e)));
  std::vector<xpose::TransposeDesc> cases = {
      {t, 4, 4, 5000},  {t, 1, 1, 777},  {t, 1, 9, 300},   {t, 9, 1, 300},       {t, 3, 5, 1001},
      {t, 16, 16, 2},   {t, 17, 17, 333}, {t, 31, 31, 101}, {t, 32, 32, 65},     {t, 8, 8, 70001},
      {t, side, side, 7}, {t, side + 1, side + 1, 3},  // the whole tile; one past it: a whole matrix per block
      {t, side + 1, side + 1, 1},                      // one matrix past the tile (refused)
      // One whole matrix per block: the largest square that fits 64 KiB and one past it (refused on
      // devices that take no more), the device's largest and one past it (refused), odd sides, rows of
      // a power of two bytes (swizzled), strided on either side (element by element).
      {t, whole, whole, 5}, {t, whole + 1, whole + 1, 2}, {t, whole - 2, whole / 2 + 1, 9},
      {t, device_whole, device_whole, 3}, {t, device_whole + 1, device_whole + 1, 2},
      {t, device_whole - 1, device_whole, 2},
      {t, whole / 2 + 3, whole - 1, 4}, {t, whole - 7, (e == 16 ? 512 : 256) / e, 6},
      {t, whole - 3, whole - 5, 3, whole, whole - 2, (whole - 3) * whole + 1, (whole - 5) * (whole - 2)},
      {t, whole - 3, whole - 5, 3, whole - 5, whole - 3, (whole - 3) * (whole - 5), (whole - 5) * (whole - 3) + 7},
      {t, 5, 7, 100, 9, 6, 5 * 9 + 3, 7 * 6 + 1},   // strided on both sides
      {t, 5, 7, 100, 7, 6, 35, 7 * 6 + 2},          // packed input, strided output
      {t, 5, 7, 100, 9, 5, 5 * 9 + 1, 35},          // strided input, packed output
      {t, 5, 7, 100, 7, 5, 35, 35 + 3},             // packed output rows, gaps between output matrices
      {t, 17, 17, 50, 17, 17, 289, 289 + 5},        // the same, on 17 x 17 matrices
      {t, 17, 17, 50, 17, 20, 289, 17 * 20},        // padded output rows
      {t, 12, 20, 1},                                // one matrix
      // Fewer than 16 rows (1-byte elements: the table of the output's period, up to 2 KiB of it).
      {t, 7, 9, 513}, {t, 3, 4, 999}, {t, 2, 2, 100001}, {t, 15, 15, 100},
      {t, 4, 8, 999}, {t, 8, 16, 301},  // 32 and 128 bytes of 1-byte elements: a swizzled tile
      // Matrices that divide a 16-byte chunk (transposed chunk by chunk; a last chunk cut short).
      {t, 2, 8, 777}, {t, 4, 2, 1001}, {t, 2, 2, 100000},
      // Rows a power of two of 64 bytes or more (1- to 8-byte elements): the swizzled tile.
      {t, 16, 128 / e, 500}, {t, 33, 256 / e, 40}, {t, 9, 64 / e, 77, 64 / e + 3, 9, 9 * (64 / e + 3) + 1, 9 * (64 / e)},
      // Rows of a multiple of 8 elements, 96 bytes or more but not a power of two: swizzled too (packed,
      // strided input, padded output rows).
      {t, 24, octo_cols, 301}, {t, 13, octo_cols, 77, octo_cols + 3, 13, 13 * (octo_cols + 3) + 1, 13 * octo_cols},
      {t, 21, octo_cols, 60, octo_cols, 24, 21 * octo_cols, 24 * octo_cols},
      // Vectors wrapping into the next column, read in order, every lane walking two columns (swizzled
      // 1- and 2-byte tiles, plain 2-byte ones); so do these and the other packed-output cases of 16 / E
      // rows or more at the second shift below (not rotated), whose output pointer off the 16-byte
      // grid moves every vector off the columns' starts.
      {t, 56, 128 / e, 9}, {t, 76, 64 / e, 13}, {t, 20, 53, 31}, {t, 37, 39, 17},
      // One matrix with a short side, in slabs of its long side (a last, shorter slab or none).
      {t, 33, 5001},  {t, 5001, 33},  {t, 17, 64 * 1024},  {t, 2, 70001}, {t, 70001, 3},
      {t, 24, 3000, 1, 3003, 24},     // strided input rows, packed output
      {t, 3000, 24, 1, 24, 3001},     // packed input rows, strided output
      {t, 100, 2000, 1, 2001, 103},   // both strided
      {t, 512 / e + 1, 3000},         // a short side past the slab limit (refused)
  };
  const auto fits = [e, device_limit](const xpose::TransposeDesc& r) {
    const std::int64_t limit = xpose::plan::kSmallBatchMaxMatrixBytes, bytes = r.rows * r.cols * e;
    return bytes <= limit || (r.batch > 1 && bytes <= device_limit) ||
           (r.batch == 1 && std::min(r.rows, r.cols) * e * 32 <= limit);
  };
  for (const xpose::TransposeDesc& d : cases)
    EXPECT_EQ(xpose::plan::small_batch_fits(xpose::resolved(d), device_limit), fits(xpose::resolved(d))) << describe(d);
  int ran = 0;
  ASSERT_NO_FATAL_FAILURE(
      ran = expect_runs_where_it_fits(cases, Algorithm::small_batch, fits, {0, static_cast<std::size_t>(e < 16 ? e : 8)}));
  EXPECT_GE(ran, 20) << "the cases built for it run";
}

// small_batch's rotated store reads (1- and 2-byte elements): shapes whose plans rotate, with
// vectors that wrap into the next column and the next matrix, a last block of fewer matrices, and
// base pointers off the 16-byte grid; each plan must say it rotates.
TEST_P(GpuFastPath, SmallBatchRotatedReadsMatchReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "rotated reads are for 1- and 2-byte elements";
  const std::vector<xpose::TransposeDesc> cases =
      e == 1 ? std::vector<xpose::TransposeDesc>{{t, 17, 17, 1001}, {t, 31, 31, 333}, {t, 100, 100, 7},
                                                 {t, 120, 120, 5}, {t, 31, 17, 250}, {t, 17, 100, 45},
                                                 {t, 20, 20, 999}, {t, 72, 72, 9}, {t, 40, 200, 11},
                                                 {t, 104, 72, 6}}
             : std::vector<xpose::TransposeDesc>{{t, 17, 17, 1001}, {t, 24, 24, 301}, {t, 20, 20, 999},
                                                 {t, 31, 17, 250}, {t, 40, 24, 77}, {t, 16, 16, 3001}};
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::small_batch}).ok()) << describe(d);
    EXPECT_GT(plan.config().rotation, 0) << plan;
    for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e), static_cast<std::size_t>(6 * e)})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::small_batch, shift));
  }
}

// small_batch with pointers off the 16-byte grid: the register kernels for packed batches of matrices
// that divide a 16-byte chunk (1- to 4-byte elements; a last chunk cut short, one block or many) and
// for 1-byte matrices of fewer than 16 rows through the period table (plain, swizzled for 32 to 128
// bytes, and a batch shorter than the bytes before the output's grid), and the one-tile kernel's
// vectors cut by shuffles for 1-byte matrices of a multiple of 16 rows (plain and swizzled tiles, one
// whole matrix per block, an input strided or in slabs; their plans do not rotate); 2-byte and rotated
// 1-byte matrices as controls. The input, the output or both off the grid; every byte around the
// output keeps its poison, and the input's allocation ends at its last byte (run under memcheck).
TEST_P(GpuFastPath, SmallBatchOffTheGrid) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  if (e > 4) GTEST_SKIP() << "no matrix of 8- or 16-byte elements divides a chunk, takes the period table or realigns";
  std::vector<xpose::TransposeDesc> cases = {{t, 2, 2, 5001}, {t, 2, 2, 3}, {t, 2, 2, 1}};
  std::vector<xpose::TransposeDesc> realigned;
  if (e <= 2) {
    cases.insert(cases.end(), {{t, 2, 4, 3001}, {t, 4, 2, 777}, {t, 4, 2, 2}});  // chunk by chunk
    realigned = {{t, 16, 16, 301},  {t, 64, 64, 9},   {t, 128, 128, 3}, {t, 16, 24, 1001}, {t, 32, 64, 33},
                 {t, 160, 144, 2},                                                   // one whole matrix per block
                 {t, 32, 40, 77, 43, 32, 32 * 43, 40 * 32}, {t, 16, 3000}};         // input strided, in slabs
  }
  if (e == 1)
    cases.insert(cases.end(), {{t, 4, 4, 4097}, {t, 2, 8, 1}, {t, 8, 2, 12345},  // chunk by chunk
                               {t, 3, 3, 7001}, {t, 5, 5, 1003}, {t, 7, 9, 513}, {t, 3, 4, 999}, {t, 3, 3, 5},
                               {t, 3, 4, 1}, {t, 4, 8, 999}, {t, 8, 8, 1025}, {t, 8, 16, 301},  // period table
                               {t, 32, 40, 77}});                                               // rotated
  const std::vector<std::pair<int, int>> offsets = {{e, 0}, {0, e}, {16 - e, e}, {8, 16 - e}, {3 * e, 7 * e % 16}};
  const auto run = [&](const xpose::TransposeDesc& d, bool expect_unrotated) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::small_batch, e}).ok()) << describe(d);
    if (expect_unrotated) EXPECT_EQ(plan.config().rotation, 0) << plan << ": realigned vectors need an unrotated plan";
    for (const auto& [io, oo] : offsets)
      ASSERT_NO_FATAL_FAILURE(
          expect_matches_at_offsets(d, execute_call(plan), io, oo, at_offsets(plan, io, oo), true));
  };
  for (const xpose::TransposeDesc& d : cases) ASSERT_NO_FATAL_FAILURE(run(d, false));
  for (const xpose::TransposeDesc& d : realigned) ASSERT_NO_FATAL_FAILURE(run(d, e == 1));
}

// The automatic plan takes small_batch for batches of tiny matrices.
TEST_P(GpuFastPath, AutomaticPlanTakesSmallBatch) {
  XPOSE_SKIP_WITHOUT_GPU();
  ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({GetParam(), 8, 8, 4097}, Algorithm::small_batch));
}

// Batches of 8- and 16-byte matrices of 33 to 48 rows, large enough for tiled_vec's 32-row tiles,
// take gather's 16-row tiles (tiles cut in both directions); output rows that start mid-sector on
// the 16-byte grid stay on tiled_vec where a side is short (the batch and the tall matrix), and
// large matrices whose input rows start mid-sector too take tiled_unaligned; single matrices of 40
// rows (72 of 16-byte elements, 8-byte ones off the 16-byte grid too) take tiled_vec's 16-row
// tiles; tall 1-byte matrices of at most 16 columns on the 16-byte grid, 8-byte matrices of 17 to
// 33 rows off it, and tall 1- and 2-byte ones of 120 columns with output rows mid-sector take
// skinny; tall 16-byte matrices whose last 32-column tile is nearly empty, 2-byte ones whose input
// rows are off the 8-byte grid with output rows on the sector grid, and large batches of 2- and
// 4-byte matrices that tiled_vec's tiles would fill to less than three quarters, take gather.
TEST_P(GpuFastPath, AutomaticPlanOnShortSidesAndMidSectorOutputRows) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e == 1) {  // 1-byte rows of at most 16 bytes on the 16-byte grid: skinny's slabs
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 262144, 16}, Algorithm::skinny));
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 65536, 8, 1, 16, 65536}, Algorithm::skinny));
  }
  if (e == 8) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 40, 40, 2700}, Algorithm::gather));
  if (e == 16) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 34, 46, 400}, Algorithm::gather));
  if (e == 16) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 16390, 35}, Algorithm::gather));
  if (e == 8) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 19, 5001}, Algorithm::skinny));
  if (e <= 2)  // tall, 8 MiB, tiles filled but output rows mid-sector: skinny's slabs
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 70000 / e, 120}, Algorithm::skinny));
  if (e == 2 || e == 4)  // a large batch, tiled_vec's tiles 39% (f32 80^2) / 56% (bf16 96^2) full
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, e == 2 ? 96 : 80, e == 2 ? 96 : 80, e == 2 ? 3000 : 1400}, Algorithm::gather));
  // 8 to 16 KiB off the grid, vectors wrapping into the next column, read in order: tiled_vec at 8 bytes.
  if (e <= 2)
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, e == 1 ? 120 : 60, 128, 300}, Algorithm::tiled_vec));
  if (e <= 2)  // 8 to 16 KiB matrices on the grid, tiled_vec's tiles 38% (u8 112^2) / 32% (bf16 72^2) full
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, e == 1 ? 112 : 72, e == 1 ? 112 : 72, 1400}, Algorithm::small_batch));
  if (e == 2) {  // input rows off the 8-byte grid, output rows on the sector grid: gather
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 1024, 1001}, Algorithm::gather));
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 2000, 515, 1, 518}, Algorithm::gather));
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 208, 333, 5}, Algorithm::gather));
  }
  // Few rows of packed output off the grid, output rows on the sector grid (or one 64-row tile of
  // 2-byte words): gather (gather_takes_few_rows).
  if (e == 2) {
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 48, 5002}, Algorithm::gather));  // words
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 40, 6002}, Algorithm::gather));  // words, mid-sector
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 80, 4001}, Algorithm::gather));  // 2-byte loads, 2 tiles
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 64, 65538}, Algorithm::gather));  // 8 MiB, words
  }
  if (e == 4) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 32, 7001}, Algorithm::gather));
  if (e == 8) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 20, 5001}, Algorithm::gather));
  if (e < 4) return;
  const std::int64_t mid_rows = 16 / e + 32 / e * 31;  // output rows 16 bytes past the sector grid
  ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, mid_rows, 300, 40}, Algorithm::tiled_vec));
  ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 6000 + 16 / e, 200}, Algorithm::tiled_vec));
  const std::int64_t ld = 2048 + 16 / e;
  ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes({t, 2048, 2048, 1, ld, ld}, Algorithm::tiled_unaligned));
  // 40 rows (72 of 16-byte elements; 40 of 8-byte ones off the 16-byte grid too) in 8 MiB: 16-row
  // tiles, the last one cut.
  const std::int64_t rows = e == 16 ? 72 : 40;
  std::vector<xpose::TransposeDesc> short_rows = {{t, rows, (8 << 20) / (rows * e) + 16 / e}};
  if (e == 8) short_rows.push_back({t, 40, (8 << 20) / (40 * e) + 1});
  for (const xpose::TransposeDesc& d : short_rows) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok());
    EXPECT_EQ(plan.config().tile_rows, 16) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::tiled_vec));
  }
}

// The skinny kernel asked for by name, on every short side it is picked for and a few past it.
TEST_P(GpuFastPath, SkinnyMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  std::vector<xpose::TransposeDesc> cases;
  for (std::int64_t s : {1, 2, 3, 4, 5, 8, 12, 13, 16, 19, 23, 24, 31, 33, 48, 50, 100, 127, 128}) {
    cases.push_back({t, s, 40000});
    cases.push_back({t, 40001, s});
  }
  cases.push_back({t, 3, 5000, 4});                // batched
  cases.push_back({t, 4, 3000, 2, 3001, 7});       // leading dimensions
  cases.push_back({t, 3000, 5, 3, 9, 3003, 3000 * 9 + 11, 5 * 3003 + 2});
  cases.push_back({t, 5, 3000, 3, 3001, 5, 5 * 3001 + 3, 5 * 3000 + 1});  // odd strides, packed output rows
  cases.push_back({t, 3000, 5, 3, 5, 3003, 3000 * 5 + 11, 5 * 3003 + 2});  // packed input rows, odd output strides
  cases.push_back({t, 100003, 7});                 // many slabs, the last one short
  cases.push_back({t, 33, 3, 2, 3, 35, 33 * 3 + 1, 3 * 35 + 5});  // less than one slab
  cases.push_back({t, 16, 17});
  cases.push_back({t, 7, 100003});
  cases.push_back({t, 41, 5003, 3, 5007, 41, 41 * 5007 + 9, 41 * 5003 + 5});  // 17-48 rows: slabs of columns, batched
  // Batches whose output matrices start off the 4-byte grid while their columns are on it (1-byte
  // elements with rows a multiple of 4 are staged as whole words only on the grid).
  cases.push_back({t, 24, 5003, 3, 5007, 24, 24 * 5007 + 9, 24 * 5003 + 5});
  cases.push_back({t, 12, 5003, 2, 5003, 12, 12 * 5003 + 1, 12 * 5003 + 3});
  // Rows a multiple of 4 into output matrices 1-3 bytes off the 4-byte grid (1-byte elements: the run
  // staged from word 0 and written out shifted), a last slab cut short.
  cases.push_back({t, 64, 5003, 4, 5003, 64, 64 * 5003 + 3, 64 * 5003 + 1});
  cases.push_back({t, 128, 2001, 2, 2001, 128, 128 * 2001, 128 * 2001 + 2});
  // 17 to 255 columns of packed input rows (the few-columns kernel up to 8-byte elements): the widest
  // slab that fits, odd output strides, batches with gaps, a last slab cut short.
  for (std::int64_t c : {17, 24, 40, 200, 255}) cases.push_back({t, 20011, c, 1, c, 20013});
  cases.push_back({t, 3001, 40, 3, 40, 3003, 3001 * 40 + 11, 40 * 3003 + 2});
  // Matrices 3001 * 40 + 5 elements apart: u8 runs 0, 13, 10 and 7 bytes off the 16-byte grid, every word
  // offset of the few-columns kernel's realigned runs.
  cases.push_back({t, 3001, 40, 4, 40, 3003, 3001 * 40 + 5, 40 * 3003 + 2});
  cases.push_back({t, 100003, 33});
  // Matrices 3001 * 11 elements apart: 8-byte ones (the slabs from 8 columns) alternate on and 8 bytes off
  // the grid. Padded u8 rows an even number of bytes apart over an odd number of columns (realigned).
  cases.push_back({t, 3001, 11, 3, 11, 3003, 3001 * 11, 11 * 3003 + 2});
  cases.push_back({t, 20011, 27, 1, 28, 20013});
  // Few columns on the 16-byte grid: packed, and input rows padded past the columns.
  cases.push_back({t, 40016, 16});
  cases.push_back({t, 40016, 8, 1, 16, 40016});
  // 2-8 rows on the 16-byte grid (the register kernel; one run per thread for 2 to 7 rows, and 8 of 4-
  // and 8-byte elements on small grids): a last chunk cut by the matrix edge, batches with gaps.
  cases.push_back({t, 3, 40001, 1, 40016, 3});
  cases.push_back({t, 2, 40003, 1, 40016, 2});
  cases.push_back({t, 3, 1003, 3, 1008, 3, 3 * 1008 + 16, 3024});
  cases.push_back({t, 5, 1003, 3, 1008, 5, 5 * 1008 + 16, 5024});
  cases.push_back({t, 8, 4099, 2, 4112, 8, 8 * 4112, 32800});
  cases.push_back({t, 7, 4099, 2, 4112, 7, 7 * 4112 + 32, 28704});
  cases.push_back({t, 2, 17, 5, 32, 2, 64, 48});
  // ... whose columns fill whole blocks of the one-run kernel (8192: a multiple of every element
  // size's block columns, so that no block takes the checked path for a matrix's end): one matrix
  // (the instance with no check), a batch with gaps (each block's own check), 7 rows (checked per
  // thread). Each planned on the one-run kernel's grid, a block per 256 runs (of the plan's tile
  // columns) and a row per matrix (small enough to fit its waves on a GPU of 8 SMs).
  const std::vector<xpose::TransposeDesc> whole_blocks = {
      {t, 3, 8192}, {t, 2, 8192}, {t, 3, 8192, 3, 8208, 3, 3 * 8208 + 16, 3 * 8192 + 16}, {t, 7, 8192}};
  for (const xpose::TransposeDesc& d : whole_blocks) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
    EXPECT_EQ(plan.config().grid_x * 256 * plan.config().tile_cols, d.cols) << plan;
    EXPECT_EQ(plan.config().grid_y, d.batch) << plan;
    cases.push_back(d);
  }
  // 2-8 rows off the 16-byte grid with output on it (1- and 2-byte elements: the register kernel,
  // realigned): odd row and batch strides, a last chunk cut short.
  cases.push_back({t, 3, 40001});
  cases.push_back({t, 5, 4099, 2, 4101, 5, 5 * 4101 + 3, 5 * 4112});
  cases.push_back({t, 2, 33, 3, 35, 2, 2 * 35 + 1, 80});
  // ... and 6 to 8 of them (the one-run kernel, realigned, for 2-byte elements and 8 rows of 1-byte
  // ones), batched with gaps.
  cases.push_back({t, 7, 40001});
  cases.push_back({t, 8, 20001});
  cases.push_back({t, 6, 3001, 3, 3003, 6, 6 * 3003 + 5, 6 * 3001 + 10});
  // Few rows into padded output rows (planes into records, the gaps left alone) and few columns out
  // of padded input rows (fields of records into planes): one row or column, record pitches past a
  // sector, batches with gaps, a last slab cut short.
  cases.push_back({t, 1, 40001, 1, 40001, 5});
  cases.push_back({t, 1, 40001, 1, 40001, 33});  // one row into a column a sector or more apart: direct
  cases.push_back({t, 1, 5003, 3, 5003, 40, 5003 + 7, 5003 * 40 + 9});
  cases.push_back({t, 3, 40001, 1, 40001, 4});
  cases.push_back({t, 16, 5003, 1, 5003, 21});
  cases.push_back({t, 7, 4099, 3, 4101, 10, 7 * 4101 + 3, 10 * 4099 + 5});
  cases.push_back({t, 48, 5003, 1, 5003, 50});  // past 16 rows (up to 128 where the slab fits)
  cases.push_back({t, 99, 3001, 2, 3005, 104, 99 * 3005 + 7, 3001 * 104 + 3});
  cases.push_back({t, 128, 2001, 1, 2001, 130});
  cases.push_back({t, 40001, 1, 1, 2, 40001});
  cases.push_back({t, 40001, 3, 1, 4, 40001});
  cases.push_back({t, 20011, 16, 1, 21, 20013});
  cases.push_back({t, 3001, 3, 3, 4, 3003, 3001 * 4 + 5, 3 * 3003 + 2});
  cases.push_back({t, 20011, 24, 1, 32, 20013});  // past 16 columns, rows on the 16-byte grid
  cases.push_back({t, 20011, 27, 1, 35, 20011});
  const std::size_t e = xpose::dtype_size(t);
  for (const xpose::TransposeDesc& d : cases)
    for (std::size_t shift : {std::size_t{0}, e < 16 ? e : 8})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, shift));
}

// 2 to 4 rows on the 16-byte grid with enough columns that the register kernel's grid may give each
// thread two runs (where one run per thread would not fit one wave of resident blocks), or the
// one-run kernel one run each (where its grid fits one or two waves): a last chunk cut by the matrix
// edge, batches whose groups of 32 runs straddle two matrices, with gaps between them, and 64
// matrices of 4 rows whose one-run grid, padded per matrix, is just past one wave. The run counts
// bracket those windows on H100/H200-class GPUs (132 SMs). 4- and 8-byte elements take the one-run
// kernel's half pieces past its waves (FewRowsTakeHalfPieces), except past its grid's limit of 65535
// matrices: there the same run counts, in batches of 65537 matrices of 3 or 4 runs, reach two runs.
TEST_P(GpuFastPath, SkinnyRegisterKernelTwoRunsPerThread) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), per16 = 16 / e;
  bool two_runs_seen = false;
  std::vector<xpose::TransposeDesc> cases;
  for (std::int64_t rows : {2, 3, 4}) {
    for (std::int64_t runs : {196608, 262144}) {
      const std::int64_t cols = runs * per16 - (per16 > 1 ? 1 : 0);
      const std::int64_t half = (runs / 2 + 7) * per16, ld = half + per16;
      cases.push_back({t, rows, cols});
      cases.push_back({t, rows, half - (per16 > 1 ? 1 : 0), 2, ld, rows, rows * ld + per16, rows * half + per16});
    }
  }
  cases.push_back({t, 4, 3136 * per16, 64});
  if (e == 4 || e == 8)
    for (std::int64_t rows : {2, 3, 4})
      for (std::int64_t runs : {3, 4}) cases.push_back({t, rows, runs * per16, 65537});
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
    const std::int64_t threads = plan.config().grid_x * plan.config().grid_y * plan.config().block_x;
    if (threads < d.batch * ((d.cols + per16 - 1) / per16)) two_runs_seen = true;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, 0)) << plan;
  }
  EXPECT_TRUE(two_runs_seen) << "no case here took two runs per thread on this GPU";
}

// A few columns of packed input rows move in 16-byte chunks (up to 16 columns of 4-byte elements, 8 to
// 16 of 8-byte ones: fewer ran faster element by element on an H200, 16-byte ones take tiled_vec where
// they can; 17 columns and more up to 8-byte elements), and so do a few rows whose output rows are packed;
// padded rows on either side are read in 16-byte chunks too.
TEST_P(GpuFastPath, SkinnyVectorisesPackedRuns) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 1048575, 3}, {Backend::cuda, Algorithm::skinny}).ok());
  if (xpose::dtype_size(t) <= 4) EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 1048575, 24}, {Backend::cuda, Algorithm::skinny}).ok());
  if (xpose::dtype_size(t) <= 8) EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 3, 1048575}, {Backend::cuda, Algorithm::skinny}).ok());
  EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  // Padded records: input rows of a few columns with gaps read whole (up to 4-byte elements), and
  // a few rows into padded output rows, read in 16-byte chunks.
  ASSERT_TRUE(xpose::make_plan(plan, {t, 1048575, 3, 1, 4}, {Backend::cuda, Algorithm::skinny}).ok());
  if (xpose::dtype_size(t) <= 4) EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 3, 1048575, 1, 1048575, 4}, {Backend::cuda, Algorithm::skinny}).ok());
  EXPECT_EQ(plan.config().vector_bytes, 16) << plan;
  // On the 16-byte grid, 2-8 rows move one 16-byte chunk per row and thread, through registers (8
  // bytes for 4- and 8-byte elements past the one-run kernel's waves: FewRowsTakeHalfPieces).
  ASSERT_TRUE(xpose::make_plan(plan, {t, 3, 1048576}, {Backend::cuda}).ok());
  EXPECT_EQ(plan.algorithm(), Algorithm::skinny) << plan;
  const int e = static_cast<int>(xpose::dtype_size(t)), piece = plan.config().tile_cols * e;
  if (e == 4 || e == 8)
    EXPECT_TRUE(piece == 16 || piece == 8) << plan;
  else
    EXPECT_EQ(piece, 16) << plan;
}

// One row into a column whose elements lie a sector or more apart takes skinny's direct kernel (one
// thread per element, no slab); closer together, the elements share sectors and the slab kernel stays.
TEST_P(GpuFastPath, SingleRowIntoSpreadColumnTakesDirectKernel) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), apart = (32 + e - 1) / e;
  xpose::Plan plan;
  for (std::int64_t ld_out : {apart, std::int64_t{65}}) {
    ASSERT_TRUE(xpose::make_plan(plan, {t, 1, 1048575, 1, 1048575, ld_out}, {Backend::cuda}).ok());
    EXPECT_EQ(plan.algorithm(), Algorithm::skinny) << plan;
    EXPECT_EQ(plan.config().tile_rows, 0) << "the direct kernel: " << plan;
  }
  if (apart > 2) {
    ASSERT_TRUE(xpose::make_plan(plan, {t, 1, 1048575, 1, 1048575, apart - 1}, {Backend::cuda}).ok());
    EXPECT_EQ(plan.algorithm(), Algorithm::skinny) << plan;
    EXPECT_NE(plan.config().tile_rows, 0) << "a slab kernel: " << plan;
  }
  for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e < 16 ? e : 8)})
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference({t, 1, 100003, 2, 100003, apart, 100010, 100003 * apart + 3},
                                                     Algorithm::automatic, shift));
}

// 2 to 8 columns of packed input rows into output rows on the 16-byte grid: skinny's column-register
// kernel, whose plan reads 16 / E rows by the columns, where it measured ahead (every column count of
// 1- and 2-byte elements at these sizes, even ones and 3 of 4-byte elements, 2 of 8-byte ones). Rows
// past the last whole run (padded output), runs past the last whole warp, a matrix of whole blocks
// only, packed or padded (where cols_regs_whole_grid_built: the instance with no check), packed
// batches and batches with gaps (blocks of whole runs and cut ones in each matrix) match the
// reference; on pointers off the 16-byte grid the slab or direct kernels run the same plan, and output
// rows off the grid never take the register kernel.
TEST_P(GpuFastPath, FewColumnsTakeColumnRegisterKernel) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 8) GTEST_SKIP() << "16-byte elements are not built for it";
  const std::int64_t v = 16 / e;  // rows per run
  const auto up = [v](std::int64_t n) { return (n + v - 1) / v * v; };
  int taken = 0;
  for (std::int64_t cols = 2; cols <= 8; ++cols) {
    const bool registers = e <= 2 || (e == 4 && (cols % 2 == 0 || cols == 3)) || (e == 8 && cols == 2);
    const std::int64_t odd = 100003, whole = 65536 + 3 * v, small = 4096 + v;
    const std::vector<xpose::TransposeDesc> cases = {
        {t, odd, cols, 1, cols, up(odd)},                    // a last run cut short
        {t, whole, cols},                                    // a last warp cut short
        {t, 65536, cols},                                    // whole blocks only (blocks of 256 runs)
        {t, 65536, cols, 1, cols, 65536 + v},                // and padded output rows
        {t, small, cols, 3},                                 // a packed batch
        {t, small, cols, 2, cols, small + v, small * cols + v, cols * (small + v) + v},  // gaps
    };
    xpose::Plan plan;
    for (const xpose::TransposeDesc& d : cases) {
      ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
      EXPECT_EQ(plan.config().tile_rows == v && plan.config().tile_cols == cols, registers) << plan;
      if (registers) EXPECT_EQ(plan.config().grid_x, (d.rows + 256 * v - 1) / (256 * v)) << plan;
      taken += registers;
      xpose::Plan automatic;
      if (registers && cols * e <= 32 && d.batch == 1) {  // where the automatic plan takes skinny
        ASSERT_TRUE(xpose::make_plan(automatic, d, {Backend::cuda}).ok()) << describe(d);
        EXPECT_EQ(automatic.algorithm(), Algorithm::skinny) << automatic;
        EXPECT_EQ(automatic.config().tile_rows, v) << automatic;
      }
      for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e)})
        ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, shift));
    }
    const xpose::TransposeDesc off_grid{t, odd, cols};  // output rows odd * E bytes apart
    ASSERT_TRUE(xpose::make_plan(plan, off_grid, {Backend::cuda, Algorithm::skinny}).ok());
    EXPECT_NE(plan.config().tile_rows, v) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(off_grid, Algorithm::skinny, 0));
  }
  EXPECT_GT(taken, 0) << "some shapes take the register kernel";
}

// 9 to 48 rows of 1- and 2-byte elements into packed output rows on the 16-byte grid, from 8 MiB:
// skinny's wide-rows register kernel, 8 / E columns per thread up to 16 rows, 4 / E past that, and the
// automatic plan takes skinny for them. Input rows on and off the 8- and 4-byte grids (realigned), a
// last run cut by the matrix's edge, a last warp cut short, packed batches and batches with gaps
// match the reference; on pointers off the 16-byte grid the slab kernel runs the same plan. The automatic
// plan takes the kernel with one pointer 8 bytes off the grid too.
TEST_P(GpuFastPath, FewRowsTakeWideRowsRegisterKernel) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "built for 1- and 2-byte elements";
  for (std::int64_t rows : {9, 13, 16, 17, 22, 32, 33, 48}) {
    const std::int64_t v = (rows <= 16 ? 8 : 4) / e;  // columns per thread
    const std::int64_t fill = (std::int64_t{8} << 20) / (rows * e) + 2;  // columns of just past 8 MiB
    // Batches: a multiple of 16 columns, so that the output matrices start on the 16-byte grid.
    const std::int64_t whole = (fill / (256 * v) + 1) * 256 * v;
    const std::int64_t third = (fill / 48 + 1) * 16, half = (fill / 32 + 1) * 16;
    const std::vector<xpose::TransposeDesc> cases = {
        {t, rows, fill | 1},                                   // rows off the grid, a last run cut short
        {t, rows, whole + 3 * v},                              // a last warp cut short
        {t, rows, whole, 1, whole + 1},                        // padded rows off the grid
        {t, rows, third, 3},                                   // a packed batch
        {t, rows, half, 2, half + v, rows, rows * (half + v) + v, rows * half + 16 / e},  // gaps
    };
    for (const xpose::TransposeDesc& d : cases) {
      xpose::Plan plan;
      ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
      EXPECT_EQ(plan.config().tile_rows, rows) << plan;
      EXPECT_EQ(plan.config().tile_cols, v) << plan;
      // (tiled_unaligned's whole-chunk tiles keep 48 rows of 2-byte elements off the grid.)
      if (d.batch == 1 && xpose::plan::few_rows_take_wide_registers(xpose::resolved(d), 16))
        ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::skinny));
      for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e)})
        ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, shift));
    }
  }
  // One pointer 8 bytes off the 16-byte grid: the automatic plan takes the kernel too (the output stored
  // shifted, or the input read at its offset), where tiled_vec would run at 8 bytes. The input off is
  // taken with its rows on the 8-byte grid only: on the 16-byte grid the led tiles take it (16-byte
  // accesses; configure_led_tiled_vec comes first).
  for (std::int64_t rows : {24, 40, 48}) {
    const std::int64_t cols = ((std::int64_t{8} << 20) / (rows * e) / 16 + 1) * 16;
    for (const auto& [io, oo] : std::vector<std::pair<int, int>>{{0, 8}, {8, 0}}) {
      const xpose::TransposeDesc d{t, rows, io == 0 ? cols : cols + 8 / e};
      xpose::Plan plan;
      ASSERT_TRUE(make_automatic_plan_at_offsets(plan, d, io, oo).ok()) << describe(d);
      const std::string where = at_offsets(plan, io, oo);
      EXPECT_EQ(plan.algorithm(), Algorithm::skinny) << where;
      EXPECT_EQ(plan.config().tile_cols, 4 / e) << where << ": the register kernel's plan";
      ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(d, execute_call(plan), io, oo, where));
    }
  }
  // Under 8 MiB the plans from before: the slab kernel.
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {t, 12, 100003}, {Backend::cuda, Algorithm::skinny}).ok());
  EXPECT_NE(plan.config().tile_cols, 8 / e) << plan;
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference({t, 12, 100003}, Algorithm::skinny, 0));
}

// 2 to 7 rows of 4- and 8-byte elements on the 16-byte grid past the waves of the one-run kernel's
// 16-byte pieces (the cases here: 2048 blocks of those or more, past their waves on GPUs of fewer than
// 256 SMs), and 8 rows on grids of at most a block per SM (16 or 32 blocks here): the one-run kernel
// with half pieces (8 bytes of every row a thread). Planned on the half pieces' grid (a block per 256
// runs, a row per matrix) and checked element by element, aligned and with the pointers one element
// off (the slab kernel then): one matrix of whole blocks (the instance with no check, up to 4 rows), a
// last block cut short (f32: by a run of one column), and batches with gaps. 8 rows on more blocks
// than SMs (2048 blocks of half pieces) keep the loop kernel's 16-byte pieces.
TEST_P(GpuFastPath, FewRowsTakeHalfPieces) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e != 4 && e != 8) GTEST_SKIP() << "half pieces are built for 4- and 8-byte elements";
  std::vector<xpose::TransposeDesc> cases;
  if (e == 8) {
    cases = {{t, 2, 4194304}, {t, 4, 1048575, 1, 1048576}, {t, 7, 1048575, 1, 1048576},
             {t, 3, 1048575, 4, 1048576, 3, 3 * 1048576 + 2, 3 * 1048575 + 1},
             {t, 8, 4095, 2, 4096, 8, 8 * 4096 + 2, 8 * 4095 + 2}};
  } else {
    cases = {{t, 4, 4194304}, {t, 4, 4194303, 1, 4194304}, {t, 7, 2097151, 1, 2097152},
             {t, 3, 1048575, 4, 1048576, 3, 3 * 1048576 + 4, 3 * 1048575 + 3},
             {t, 6, 524287, 4, 524288, 6, 6 * 524288 + 4, 6 * 524287 + 2}, {t, 8, 8191, 1, 8192}};
  }
  for (const xpose::TransposeDesc& d : cases) {
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
    const std::int64_t runs = (d.cols * e + 7) / 8;
    EXPECT_EQ(plan.config().tile_cols * e, 8) << describe(d) << ": " << plan;
    EXPECT_EQ(plan.config().grid_x, (runs + 255) / 256) << plan;
    EXPECT_EQ(plan.config().grid_y, d.batch) << plan;
    if (d.batch == 1) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::skinny));
    for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e)})
      ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, shift));
  }
  const xpose::TransposeDesc many_blocks{t, 8, 4194304 / e - 1, 1, 4194304 / e};
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, many_blocks, {Backend::cuda, Algorithm::skinny}).ok());
  EXPECT_EQ(plan.config().tile_cols * e, 16) << plan;
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(many_blocks, Algorithm::skinny, 0));
}

// Matrices of a few tens of rows of 4- and 8-byte elements (past skinny's caps for rows off the grid) with
// output rows off the 16-byte grid: the automatic plan takes skinny's slabs. Single matrices just past 8
// MiB with packed output, the output pointer off the grid (one element, and 8 bytes for 4-byte elements;
// input rows and pointer on it) or output rows off it by their stride (odd columns, pointers on the grid),
// up to the largest row counts (96 and 48); padded output rows off the grid (the slabs' element stores
// around the gaps); batches; matrices of 2 MiB (f32) and 512 KiB (f64). 2-byte elements from 8 MiB, 85 to
// 128 rows. Every element is checked, and every byte around the output and in its gaps.
TEST_P(GpuFastPath, FewRowsWithOutputOffTheGridTakeSlabs) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  if (e < 2 || e > 8) GTEST_SKIP() << "a rule for 2-, 4- and 8-byte elements";
  // Input rows on the 16-byte grid (8-byte for 2-byte elements) where the output pointer is off it, odd
  // columns where it is on it.
  const auto cols_for = [&](std::int64_t rows, int oo, std::int64_t bytes) {
    const std::int64_t cols = bytes / (rows * e) / 4 * 4 + 4;
    return oo != 0 ? cols : cols + 1;
  };
  struct Case {
    std::int64_t rows;
    int oo;
    std::int64_t batch = 1, ld_out = 0, bytes = (std::int64_t{8} << 20) + 4096;  // of one matrix
  };
  constexpr std::int64_t kMiB = std::int64_t{1} << 20;
  const std::vector<Case> cases =
      e == 2   ? std::vector<Case>{{96, 2}, {115, 0}, {124, 0}, {100, 2, 3, 0, 3 * kMiB}}
      : e == 4 ? std::vector<Case>{{41, 4}, {48, 8}, {96, 4}, {45, 0}, {77, 0}, {48, 0, 1, 49}, {96, 4, 1, 98},
                                   {48, 4, 3, 0, 3 * kMiB}, {45, 0, 1, 0, 2 * kMiB + 4096}}
               : std::vector<Case>{{34, 8}, {48, 8}, {41, 0}, {47, 0}, {48, 0, 1, 49}, {35, 8, 1, 37},
                                   {48, 8, 3, 0, 3 * kMiB}, {41, 0, 5, 0, kMiB}, {48, 8, 1, 0, kMiB / 2 + 4096}};
  for (const Case& c : cases) {
    const xpose::TransposeDesc d{t, c.rows, cols_for(c.rows, c.oo, c.bytes), c.batch, 0, c.ld_out};
    xpose::Plan plan;
    ASSERT_TRUE(make_automatic_plan_at_offsets(plan, d, 0, c.oo).ok()) << describe(d);
    const std::string where = at_offsets(plan, 0, c.oo) + " batch " + std::to_string(c.batch);
    EXPECT_EQ(plan.algorithm(), Algorithm::skinny) << where;
    EXPECT_EQ(plan.config().vector_bytes, 16) << where << ": the slabs' plan (skinny_rows_vec, or skinny_rows_padded)";
    ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(d, execute_call(plan), 0, c.oo, where));
  }
}

// Single packed matrices of 32 rows of 2- and 4-byte elements past 64 MiB: the automatic plan takes
// tiled_vec's 8 KiB tiles of 32 rows of 256 bytes, and matches the reference with the last tile column
// whole and cut short by a 16-byte vector.
TEST_P(GpuFastPath, ThirtyTwoRowsTakeSmallTiles) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e != 2 && e != 4) GTEST_SKIP() << "a rule for 2- and 4-byte elements";
  const std::int64_t cols = (std::int64_t{64} << 20) / (32 * e) + 256 / e;  // whole 256-byte tile rows
  for (std::int64_t c : {cols, cols - 16 / e}) {
    const xpose::TransposeDesc d{t, 32, c};
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok()) << describe(d);
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << plan;
    EXPECT_EQ(plan.config().tile_rows, 32) << plan;
    EXPECT_EQ(plan.config().tile_cols * e, 256) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::automatic, 0)) << plan;
  }
}

// Single packed matrices of 32 MiB or more of 1- and 2-byte elements whose rows are 256 bytes long: the
// automatic plan takes tiled_vec's 16 KiB tiles of 128-byte rows (two tile columns), and matches the
// reference with the last tile row whole and cut short.
TEST_P(GpuFastPath, WholeRowTilesTakeHalfWidth) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "a rule for 1- and 2-byte elements";
  const std::int64_t cols = 256 / e;
  // 32 rows more keep the output rows on the sector grid (odd counts go to tiled_unaligned) and cut the last
  // tile row short.
  for (std::int64_t rows : {(std::int64_t{32} << 20) / 256, (std::int64_t{32} << 20) / 256 + 32}) {
    const xpose::TransposeDesc d{t, rows, cols};
    xpose::Plan plan;
    ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda}).ok()) << describe(d);
    EXPECT_EQ(plan.algorithm(), Algorithm::tiled_vec) << plan;
    EXPECT_EQ(plan.config().tile_cols * e, 128) << plan;
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::automatic, 0)) << plan;
  }
}

// The few-rows register kernels (2 to 8 rows, and 9 to 48 past 8 MiB) with the output pointer off the
// 16-byte grid, 1- and 2-byte elements: each warp's stretch is stored shifted, its first and last
// chunks in parts that the neighbouring stretches complete. The plan is the register kernel's; every
// element and the bytes around the output are checked, the input on the grid and off it (past 8 rows
// the slab kernel takes input rows off their grid), on a last run cut short, padded input rows and a
// packed batch.
TEST_P(GpuFastPath, FewRowsRegisterKernelsOutputOffTheGrid) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const int e = static_cast<int>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "4- to 16-byte elements take the slab kernel off the grid";
  for (std::int64_t rows : {2, 5, 8, 12, 33}) {
    const std::int64_t cols = rows <= 8 ? 100003 : (std::int64_t{8} << 20) / (rows * e) + 2;  // past 8 MiB
    const std::int64_t packed = (cols / 16 + 1) * 16;  // matrices on the 16-byte grid
    const std::vector<xpose::TransposeDesc> cases = {
        {t, rows, cols | 1}, {t, rows, packed, 2}, {t, rows, packed - 1, 1, packed}};
    for (const xpose::TransposeDesc& d : cases) {
      xpose::Plan plan;
      ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny, e}).ok()) << describe(d);
      EXPECT_EQ(plan.config().tile_rows, rows) << plan << ": a register kernel's plan";
      EXPECT_EQ(plan.config().tile_cols, (rows <= 8 ? 16 : rows <= 16 ? 8 : 4) / e) << plan << ": its piece";
      // Output offsets 16 - e, 8, 12 and e: the stretch stores' word offsets 0, 2, 1 and 3.
      for (auto [io, oo] : {std::pair{0, e}, std::pair{e, 8}, std::pair{0, 16 - e}, std::pair{0, 12}})
        ASSERT_NO_FATAL_FAILURE(expect_matches_at_offsets(d, execute_call(plan), io, oo, at_offsets(plan, io, oo)));
    }
  }
}

// 12 to 24 columns of 1- and 2-byte elements with packed input rows into output rows on the sector
// grid, from 8 MiB: skinny's wide-columns register kernel, 8 / E rows per thread up to 16 columns, 4 / E
// past that, and the automatic plan takes skinny for them. A last run cut short (padded output rows), a
// last warp cut short, a packed batch and a batch with gaps match the reference; on pointers off the
// 16-byte grid the slab kernel runs the same plan; output rows off the sector grid with 4-byte pieces
// keep the slabs.
TEST_P(GpuFastPath, FewColumnsTakeWideColumnRegisterKernel) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 2) GTEST_SKIP() << "built for 1- and 2-byte elements";
  const std::int64_t sector = 32 / e;  // output row elements per sector
  const auto up = [](std::int64_t n, std::int64_t m) { return (n + m - 1) / m * m; };
  for (std::int64_t cols : {12, 13, 16, 17, 24}) {
    const std::int64_t v = (cols <= 16 ? 8 : 4) / e;                               // rows per thread
    const std::int64_t fill = up((std::int64_t{8} << 20) / (cols * e) + 1, 256 * v);  // rows of 8 MiB or more
    const std::vector<xpose::TransposeDesc> cases = {
        {t, fill + 3, cols, 1, cols, up(fill + 3, sector)},        // a last run cut short
        {t, fill + up(5 * v, sector), cols},                       // a last warp cut short
        {t, up(fill / 3 + 1, sector), cols, 3},                    // a packed batch
        {t, fill / 2, cols, 2, cols, fill / 2, (fill / 2) * cols + 16 / e, cols * (fill / 2) + sector},  // gaps
    };
    for (const xpose::TransposeDesc& d : cases) {
      xpose::Plan plan;
      ASSERT_TRUE(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::skinny}).ok()) << describe(d);
      EXPECT_EQ(plan.config().tile_rows, v) << plan;
      EXPECT_EQ(plan.config().tile_cols, cols) << plan;
      if (d.batch == 1) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::skinny));
      for (std::size_t shift : {std::size_t{0}, static_cast<std::size_t>(e)})
        ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, Algorithm::skinny, shift));
    }
  }
  const xpose::TransposeDesc off_sectors{t, up((std::int64_t{8} << 20) / (24 * e), 32) + 16 / e, 24};
  xpose::Plan plan;
  ASSERT_TRUE(xpose::make_plan(plan, off_sectors, {Backend::cuda, Algorithm::skinny}).ok());
  EXPECT_NE(plan.config().tile_rows, 4 / e) << plan;
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(off_sectors, Algorithm::skinny, 0));
}

// vector_copy asked for by name: row and column vectors packed on both sides, alone and in packed
// batches, on pointers aligned only to their element; vectors with gaps between their elements or
// between the matrices of a batch, and anything with two rows and columns, are refused at plan time.
// The automatic plan takes it for every case it accepts.
TEST_P(GpuFastPath, VectorCopyMatchesReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::vector<xpose::TransposeDesc> cases = {
      {t, 1000003, 1}, {t, 1, 1000003}, {t, 1, 1}, {t, 7, 1},          // alone
      {t, 1, 4097, 1, 5000}, {t, 4097, 1, 1, 0, 5000},                // a stride that never steps
      {t, 333, 1, 77}, {t, 1, 333, 77}, {t, 1, 1, 100003},            // packed batches
      {t, 1000, 1, 1, 2}, {t, 1, 1000, 1, 0, 3},                      // elements apart (refused)
      {t, 1000, 1, 4, 0, 0, 1001}, {t, 1, 1000, 4, 0, 0, 0, 1008},    // matrices apart (refused)
      {t, 1, 1000, 4, 1024}, {t, 2, 1000}, {t, 1000, 2},              // refused
  };
  const auto fits = [](const xpose::TransposeDesc& r) { return xpose::plan::transpose_is_copy(r); };
  int ran = 0;
  const std::size_t e = xpose::dtype_size(t);
  const std::size_t element_aligned = std::min<std::size_t>(e, 8);
  ASSERT_NO_FATAL_FAILURE(
      ran = expect_runs_where_it_fits(cases, Algorithm::vector_copy, fits, {0, element_aligned, 3 * e}));
  EXPECT_EQ(ran, 9) << "the packed vectors run";
  for (const xpose::TransposeDesc& d : cases)
    if (fits(xpose::resolved(d))) ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::vector_copy));
}

// Packed batches of a short and a long side (and tall ones of 16- or 32-byte rows) take skinny, whose
// slabs walk the batch: odd long sides, the short side on either side, a matrix over several blocks.
TEST_P(GpuFastPath, BatchesOfAShortAndALongSideTakeSkinny) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  if (e > 8) GTEST_SKIP() << "16-byte elements keep the batch rules";
  std::vector<xpose::TransposeDesc> cases = {{t, 2000, 4, 3}, {t, 3, 1008, 5}, {t, 2080, 3, 5},
                                             {t, 4, 4096, 4}, {t, 70000, 2, 2}};
  if (e >= 4) cases.push_back({t, 1001, 3, 5});  // long sides off the 16-byte grid
  if (e >= 4) cases.push_back({t, 8 / (e / 4), 1999, 4});
  if (e >= 4) cases.push_back({t, 201, 16 / e, 9});
  if (e >= 4) cases.push_back({t, 333, 32 / e, 4});
  for (const xpose::TransposeDesc& d : cases) {
    ASSERT_TRUE(xpose::plan::batch_takes_skinny(xpose::resolved(d))) << describe(d);
    ASSERT_NO_FATAL_FAILURE(expect_automatic_plan_takes(d, Algorithm::skinny));
  }
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, GpuFastPath,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const auto& info) { return std::string(xpose::dtype_name(info.param)); });

}  // namespace
