// In-place transposes on the GPU: every case against plain loops, from aligned and shifted pointers
// (16-byte vectors, 8-byte ones, realigned chunks and single elements), blocks that loop over several
// tile pairs, non-square matrices (row and column shuffles), and the refusals (nothing written).
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <set>
#include <string>

#include "gpu/gpu_backend.hpp"
#include "gpu_test_support.hpp"
#include "in_place_cases.hpp"
#include "plan/in_place.hpp"
#include "plan/in_place_shuffles.hpp"

namespace {

using xpose::Algorithm;
using xpose::Backend;
using xpose::DType;
using xpose::TransposeDesc;
using namespace xpose_test;

constexpr std::size_t kGuard = 256;  // poisoned bytes after the data, which must stay poisoned

// Runs `d` in place on a device buffer `shift` bytes into its allocation, poisoned before and after,
// and compares every byte with plain loops. `run` enqueues it (default: a plan for the shift's
// alignment, executed) and names what ran.
using InPlaceRunner = std::function<xpose::Status(const TransposeDesc&, int alignment, void*, std::string& what_ran)>;

xpose::Status run_plan(const TransposeDesc& d, int alignment, void* data, std::string& what_ran) {
  xpose::InPlacePlan plan;
  XPOSE_RETURN_IF_ERROR(xpose::make_plan(plan, d, {Backend::cuda, Algorithm::automatic, alignment}));
  what_ran = plan.to_string();
  const xpose::Status run = xpose::execute(plan, data);
  // The plan (and any scratch it holds) must outlive the work it enqueued.
  const xpose::Status done = xpose::synchronize_device();
  return run.ok() ? done : run;
}

void expect_gpu_in_place(const TransposeDesc& d, std::size_t shift, std::string& what_ran,
                         const InPlaceRunner& run = run_plan) {
  const std::size_t bytes = input_bytes(d);
  const std::vector<unsigned char> data = random_values(d.dtype, bytes, 0x5b + bytes);
  xpose::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(shift + bytes + kGuard).ok());
  auto* base = static_cast<unsigned char*>(buf.data());
  ASSERT_TRUE(xpose::fill_device_bytes(base, kPoison, shift + bytes + kGuard).ok());
  ASSERT_TRUE(xpose::copy_host_to_device(base + shift, data.data(), bytes).ok());
  const int alignment = shift == 0 ? 16 : static_cast<int>(shift & (~shift + 1));
  const xpose::Status s = run(d, alignment, base + shift, what_ran);
  ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
  ASSERT_TRUE(xpose::synchronize_device().ok()) << describe(d) << ": " << what_ran;
  std::vector<unsigned char> got(shift + bytes + kGuard);
  ASSERT_TRUE(xpose::copy_device_to_host(got.data(), base, got.size()).ok());
  const std::vector<unsigned char> want = expected_in_place(d, data);
  const std::vector<unsigned char> result(got.begin() + static_cast<std::ptrdiff_t>(shift),
                                          got.begin() + static_cast<std::ptrdiff_t>(shift + bytes));
  EXPECT_EQ(first_mismatch(result, want, xpose::dtype_size(d.dtype)), -1)
      << describe(d) << " shifted by " << shift << ": " << what_ran;
  for (std::size_t i = 0; i < shift; ++i) ASSERT_EQ(got[i], kPoison) << describe(d) << ": byte " << i << " before it";
  for (std::size_t i = shift + bytes; i < got.size(); ++i)
    ASSERT_EQ(got[i], kPoison) << describe(d) << ": byte " << i - shift - bytes << " past it written; " << what_ran;
}

class GpuInPlace : public ::testing::TestWithParam<DType> {};

// Aligned, shifted by one element's alignment and by 8 bytes: between them every kernel that the
// element size can take runs (the 16- and 8-byte vector tiles, the realigned tiles, the element
// tiles, and for matrices smaller than a tile the small squares), which the plans' names must show.
TEST_P(GpuInPlace, EveryCaseMatchesPlainLoops) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::size_t e = xpose::dtype_size(t), one_element = std::min<std::size_t>(e, 8);
  std::vector<TransposeDesc> cases = in_place_cases(t);
  cases.push_back({t, 2049, 2049, 1, 2064, 0, 0, 0});  // many blocks, rows off the tiles' edges
  std::set<std::string> kernels, small_accesses;
  for (const TransposeDesc& d : cases)
    for (const std::size_t shift : {std::size_t{0}, one_element, std::size_t{8}}) {
      std::string what_ran;
      ASSERT_NO_FATAL_FAILURE(expect_gpu_in_place(d, shift, what_ran));
      for (const char* k : {",vec16B", ",vec8B", ",realigned", ",elements", ",small squares"})
        if (what_ran.find(k) != std::string::npos) kernels.insert(k);
      const std::size_t access = what_ran.find(" a block,");  // small squares: "... a block,16B>"
      if (what_ran.find(",small squares") != std::string::npos && access != std::string::npos)
        small_accesses.insert(what_ran.substr(access + 9, what_ran.find("B>", access) - access - 9));
    }
  EXPECT_TRUE(kernels.count(",small squares"));
  // 1, 2, 3, 15, 17, ... elements a row: every access width from the element's up to 16 bytes.
  std::set<std::string> want_accesses;
  for (std::size_t w = e; w <= 16; w *= 2) want_accesses.insert(std::to_string(w));
  EXPECT_EQ(small_accesses, want_accesses);
  EXPECT_TRUE(kernels.count(",vec16B"));
  EXPECT_EQ(kernels.count(",vec8B"), e <= 8 ? 1u : 0u);
  // 8-byte elements always fit 8-byte vectors, 16-byte ones off the 16-byte grid go element by element
  EXPECT_EQ(kernels.count(",realigned"), e <= 4 ? 1u : 0u);
  EXPECT_EQ(kernels.count(",elements"), e == 16 ? 1u : 0u);
}

// Fewer blocks than tile pairs: each block loops over pairs gridDim.x apart, across matrices; and over
// small squares' groups of matrices likewise.
TEST_P(GpuInPlace, BlocksLoopOverTheirPairs) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const TransposeDesc pairs{t, 300, 300, 3, 0, 0, 0, 0}, small_squares{t, 24, 24, 200, 0, 0, 0, 0};
  const InPlaceRunner seven_blocks = [](const TransposeDesc& desc, int a, void* data, std::string& w) {
    xpose::plan::InPlaceConfig c = xpose::plan::choose_in_place(xpose::resolved(desc), a);
    c.blocks = 7;
    w = "in_place with 7 blocks, vector bytes " + std::to_string(c.vector_bytes);
    return xpose::gpu::launch_in_place(xpose::resolved(desc), c, data, nullptr);
  };
  for (const int alignment : {16, static_cast<int>(std::min<std::size_t>(xpose::dtype_size(t), 8))})
    for (const TransposeDesc& d : {pairs, small_squares}) {
      std::string what_ran;
      ASSERT_NO_FATAL_FAILURE(expect_gpu_in_place(d, alignment == 16 ? 0 : alignment, what_ran, seven_blocks));
    }
}

// Non-square matrices: the row and column shuffles, in both views (tall and wide), with and without
// the rotation pass (extents sharing a factor or coprime), blocks of several rows, rows plain and
// swizzled, rows longer than shared memory (through scratch, in several rounds: 240001 x 6; in tiles
// where the short side divides the long one: 262144 x 16, 8 x 300000), shared
// memory past the limit without opt-in, batches with gaps, aligned and shifted by one element's
// alignment (1- and 2-byte elements: the column and row passes in words where the pointer and the
// rows allow, else element by element).
TEST_P(GpuInPlace, NonSquareMatchesPlainLoops) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::size_t one_element = std::min<std::size_t>(xpose::dtype_size(t), 8);
  std::vector<TransposeDesc> cases = in_place_non_square_cases(t);
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1000, 3000}, {3000, 1000}, {997, 1009}, {4096, 256}, {5, 20000}, {64, 4096}, {4096, 64}, {250000, 3},
           {3, 250000}, {240001, 6}, {262144, 16}, {8, 300000}, {20032, 64}, {64, 96}, {128, 192}})
    cases.push_back({t, rows, cols});
  cases.push_back({t, 33, 12, 1000, 0, 0, 0, 0});                    // many small matrices
  cases.push_back({t, 36, 20, 300, 0, 0, 36 * 20 + 4, 0});            // a batch with gaps of whole words
  cases.push_back({t, 250000, 2, 3, 0, 0, 250000 * 2 + 5, 0});      // long rows in tiles, batch with gaps
  cases.push_back({t, 240001, 2, 2, 0, 0, 240001 * 2 + 3, 0});      // long rows by element, batch with gaps
  // A batch with gaps of matrices large enough (16 MiB) for blocks and pieces.
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t)), rows = e == 16 ? 512 : 1024;
  const std::int64_t cols = (std::int64_t{16} << 20) / (rows * e);
  cases.push_back({t, rows, cols, 2, 0, 0, rows * cols + 16 / e, 0});
  std::set<std::string> words;  // ",column_words" and ",row_words" where they ran, "-" where neither did
  std::set<bool> views, swizzled, long_rows, long_tiles;
  std::set<std::string> paths, segments;  // the ways that ran; pieces in cycles held whole, in saved segments
  for (const TransposeDesc& d : cases) {
    xpose::plan::ShuffleConfig c;  // the shuffles' plan (the shorter side of every case fits 48 KiB)
    ASSERT_TRUE(xpose::plan::choose_in_place_shuffles(xpose::resolved(d), xpose::gpu::shared_per_block_limit(), c).ok())
        << describe(d);
    views.insert(c.transposed_view);
    swizzled.insert(c.swizzle_rows);
    long_rows.insert(c.long_rows);
    if (c.long_rows) long_tiles.insert(c.long_tile > 0);
    for (const std::size_t shift : {std::size_t{0}, one_element}) {
      // The plan's choice; where that is square blocks and pieces, the shuffles too.
      for (const bool shuffles_forced : {false, true}) {
        if (shuffles_forced) ASSERT_EQ(setenv("XPOSE_IN_PLACE_PIECES", "0", 1), 0);
        std::string what_ran;
        expect_gpu_in_place(d, shift, what_ran);
        if (shuffles_forced) unsetenv("XPOSE_IN_PLACE_PIECES");
        if (HasFatalFailure()) return;
        const bool one_line = d.rows == 1 || d.cols == 1;  // the same bytes either way
        const bool pieces = what_ran.find("then pieces") != std::string::npos;
        EXPECT_NE(what_ran.find(one_line ? "nothing to move" : pieces ? "blocks," : "row and column shuffles"),
                  std::string::npos)
            << what_ran;
        if (!one_line) paths.insert(pieces ? "pieces" : "shuffles");
        if (pieces) {
          EXPECT_FALSE(shuffles_forced) << what_ran;
          // Pieces of fewer than 32 units move in groups of threads, several segments a block; small
          // blocks of a matrix neither tall nor wide go in groups of a row of blocks each.
          const std::string grouped = what_ran.find(" threads each") != std::string::npos ? "grouped, " : "";
          if (what_ran.find(", in groups") != std::string::npos) segments.insert("blocks in groups");
          if (what_ran.find(" 0 cycles whole") == std::string::npos) segments.insert(grouped + "whole");
          if (what_ran.find(" 0 segments saved") == std::string::npos) segments.insert(grouped + "saved");
          continue;
        }
        bool any = false;
        for (const char* w : {",column_words", ",row_words"})
          if (what_ran.find(w) != std::string::npos) words.insert(w), any = true;
        if (!any) words.insert("-");
        break;  // the shuffles ran
      }
    }
  }
  EXPECT_EQ(paths, (std::set<std::string>{"pieces", "shuffles"}));
  // 1000 x 3000: cycles of 1499 pieces, cut; pieces in groups (u8, bf16, f32: 64 x 4096's cycles of two
  // pieces held, 20032 x 64's long ones cut; f64, c128: 12 x 18, 5 x 20000); blocks in groups (u8 128 x
  // 192, bf16 and f32 64 x 96, f64 and c128 12 x 18).
  EXPECT_EQ(segments,
            (std::set<std::string>{"saved", "whole", "grouped, saved", "grouped, whole", "blocks in groups"}));
  const std::set<std::string> want_words = xpose::dtype_size(t) <= 2
                                               ? std::set<std::string>{",column_words", ",row_words", "-"}
                                               : std::set<std::string>{"-"};
  EXPECT_EQ(words, want_words);
  EXPECT_EQ(views.size(), 2u);     // both views ran
  EXPECT_EQ(swizzled.size(), 2u);  // and rows plain and swizzled (64 x 4096: scatters a power of two apart)
  EXPECT_EQ(long_rows.size(), 2u);  // in shared memory and through scratch (250000 x 3)
  EXPECT_EQ(long_tiles.size(), 2u);  // through scratch element by element and in tiles (262144 x 16)
}

// The one-call transpose_in_place, whose plan takes blocks and pieces only for pieces of 8 KiB or more
// where the shuffles can run (the plan tests check that rule): a shape it leaves to the shuffles (32-
// to 512-byte pieces), one of 8 KiB pieces, which it keeps, and a batch with a gap. Only the results
// are checked here; the one-call path does not name its plan.
TEST_P(GpuInPlace, OneCallMatchesPlainLoops) {
  XPOSE_SKIP_WITHOUT_GPU();
  const DType t = GetParam();
  const std::int64_t e = static_cast<std::int64_t>(xpose::dtype_size(t));
  for (const TransposeDesc& d : {TransposeDesc{t, 65536, 32}, TransposeDesc{t, 8192 / e, 3 * 8192 / e},
                                 TransposeDesc{t, 96, 144, 2, 0, 0, 96 * 144 + 1, 0}}) {
    const InPlaceRunner one_call = [](const TransposeDesc& desc, int a, void* data, std::string& w) {
      w = "one call";
      const xpose::Status run =
          xpose::transpose_in_place(desc, data, nullptr, {Backend::cuda, Algorithm::automatic, a});
      const xpose::Status done = xpose::synchronize_device();
      return run.ok() ? done : run;
    };
    std::string what_ran;
    ASSERT_NO_FATAL_FAILURE(expect_gpu_in_place(d, 0, what_ran, one_call));
  }
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, GpuInPlace,
                         ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c128),
                         [](const auto& info) { return std::string(xpose::dtype_name(info.param)); });

// Refusals on the GPU: a host pointer, pointers less aligned than the plan; the data stays as it was.
TEST(GpuInPlaceErrors, RefusesHostMemoryAndBrokenAlignment) {
  XPOSE_SKIP_WITHOUT_GPU();
  std::vector<float> host(64 * 64, 1.5f);
  const xpose::Status on_host = xpose::transpose_in_place({DType::f32, 64, 64}, host.data(), nullptr, {Backend::cuda});
  EXPECT_EQ(on_host.code(), xpose::StatusCode::wrong_memory) << on_host.message();
  xpose::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(64 * 64 * 4 + 16).ok());
  xpose::InPlacePlan plan;
  ASSERT_TRUE(xpose::make_plan(plan, {DType::f32, 64, 64}, {Backend::cuda}).ok());
  const xpose::Status shifted = xpose::execute(plan, static_cast<unsigned char*>(buf.data()) + 4);
  EXPECT_NE(shifted.message().find("plan was made for 16"), std::string::npos) << shifted.message();
}

// A non-square matrix whose sides are both longer than a block's shared memory holds is refused at
// plan time, and a host pointer at execution; the data stays as it was.
TEST(GpuInPlaceErrors, RefusesNonSquareMatricesTooLongForSharedMemory) {
  XPOSE_SKIP_WITHOUT_GPU();
  xpose::InPlacePlan plan;
  const xpose::Status too_long = xpose::make_plan(plan, {DType::f32, 60000, 60001}, {Backend::cuda});
  EXPECT_EQ(too_long.code(), xpose::StatusCode::unsupported) << too_long.message();
  EXPECT_NE(too_long.message().find("shared memory"), std::string::npos) << too_long.message();
  EXPECT_FALSE(plan.valid());
  std::vector<float> host(30 * 20, 1.5f);
  const std::vector<float> before = host;
  const xpose::Status on_host = xpose::transpose_in_place({DType::f32, 30, 20}, host.data(), nullptr, {Backend::cuda});
  EXPECT_EQ(on_host.code(), xpose::StatusCode::wrong_memory) << on_host.message();
  EXPECT_EQ(host, before);
}

}  // namespace
