// Every GPU ladder kernel and cuBLAS geam, element by element against the CPU reference.
#include <gtest/gtest.h>

#include <tuple>

#include "gpu_test_support.hpp"

namespace {

using xpose::Algorithm;
using xpose::DType;
using namespace xpose_test;

std::vector<xpose::TransposeDesc> ladder_cases(DType dtype) {
  std::vector<xpose::TransposeDesc> v;
  for (auto [r, c] : standard_shapes()) v.push_back({dtype, r, c});
  v.push_back({dtype, 3, 1048576});
  v.push_back({dtype, 8191, 8193});
  for (auto [r, c] : random_shapes(kRandomShapeSeed, 6)) v.push_back({dtype, r, c});
  v.push_back({dtype, 129, 67, 1, 70, 131});                          // leading dimensions
  v.push_back({dtype, 65, 33, 3});                                    // batched, packed
  v.push_back({dtype, 40, 70, 3, 71, 41, 40 * 71 + 5, 70 * 41 + 9});  // batched with gaps
  v.push_back({dtype, 2100000, 2});  // more tile rows than gridDim.y holds: the kernels must loop
  return v;
}

bool geam_has(DType d) { return d == DType::f32 || d == DType::f64 || d == DType::c64 || d == DType::c128; }

class GpuKernel : public ::testing::TestWithParam<std::tuple<Algorithm, DType>> {};

TEST_P(GpuKernel, MatchesCpuReference) {
  XPOSE_SKIP_WITHOUT_GPU();
  const auto [algorithm, dtype] = GetParam();
  if (algorithm == Algorithm::vendor_geam && !geam_has(dtype)) {
    xpose::Plan plan;
    const xpose::Status s = xpose::make_plan(plan, {dtype, 4, 4}, {xpose::Backend::cuda, algorithm});
    EXPECT_EQ(s.code(), xpose::StatusCode::unsupported) << "geam must refuse " << xpose::dtype_name(dtype);
    return;
  }
  std::printf("random shapes from seed 0x%llx\n", static_cast<unsigned long long>(kRandomShapeSeed));
  for (const xpose::TransposeDesc& d : ladder_cases(dtype)) {
    const CaseData& data = case_data(d);
    const auto& want = algorithm == Algorithm::copy ? data.expected_copy : data.expected_transpose;
    std::vector<unsigned char> got;
    const xpose::Status s = run_on_gpu(d, algorithm, data.input, got, want.size());
    ASSERT_TRUE(s.ok()) << describe(d) << ": " << s.message();
    EXPECT_EQ(first_mismatch(got, want, xpose::dtype_size(dtype)), -1)
        << algorithm_name(algorithm) << " " << describe(d) << "; reproduce: " << repro(d, algorithm, "cuda");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ladder, GpuKernel,
    ::testing::Combine(::testing::Values(Algorithm::copy, Algorithm::naive_read, Algorithm::naive_write,
                                         Algorithm::tiled, Algorithm::tiled_padded, Algorithm::vendor_geam),
                       ::testing::Values(DType::u8, DType::bf16, DType::f32, DType::f64, DType::c64, DType::c128)),
    [](const auto& info) {
      return std::string(xpose::algorithm_name(std::get<0>(info.param))) + "_" +
             xpose::dtype_name(std::get<1>(info.param));
    });

}  // namespace
