// The profile table builder: ratios to the ideal, sectors per request, bandwidth and peak, printing, JSON.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "profile_table.hpp"

namespace xpose_cli {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream f(std::string(XPOSE_FIXTURE_DIR) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The records of the synthetic fixture, built the way `xpose profile --from-csv` builds them.
std::vector<ProfileRecord> fixture_records(double fallback_peak_gbps = 0) {
  std::vector<NcuCapture> caps;
  std::string error;
  EXPECT_TRUE(parse_ncu_output(fixture("ncu_raw_synthetic.csv"), caps, error)) << error;
  std::vector<ProfileRecord> out;
  for (const NcuCapture& c : caps) {
    ProfileInput in;
    in.kernel = c.label;
    in.plan = c.marker.at("plan");
    in.dtype = "f64";
    in.rows = in.cols = 1024;
    in.element_bytes = 8;
    in.verification = c.marker.at("verification");
    in.counters = combine_launches(c.launches);
    in.fallback_peak_gbps = fallback_peak_gbps;
    out.push_back(build_profile_record(in));
  }
  return out;
}

const ProfileRecord& find(const std::vector<ProfileRecord>& rs, const std::string& kernel) {
  for (const auto& r : rs)
    if (r.kernel == kernel) return r;
  ADD_FAILURE() << "no record " << kernel;
  return rs.front();
}

TEST(ProfileTable, RatiosToTheIdealAndSectorsPerRequest) {
  const auto rs = fixture_records();
  ASSERT_EQ(rs.size(), 6u);
  const double ideal = 1024.0 * 1024.0 * 8.0;
  for (const auto& r : rs) {
    EXPECT_EQ(r.ideal_read_bytes, ideal);
    EXPECT_EQ(r.ideal_write_bytes, ideal);
  }
  const auto& copy = find(rs, "copy");
  EXPECT_DOUBLE_EQ(*copy.read_ratio, 8392704.0 / ideal);
  EXPECT_DOUBLE_EQ(*copy.write_ratio, 1.0);
  EXPECT_DOUBLE_EQ(*copy.load_sectors_per_request, 8.0);
  EXPECT_DOUBLE_EQ(*copy.store_sectors_per_request, 8.0);
  EXPECT_DOUBLE_EQ(*copy.time_us, 9.184);

  // Strided stores: every thread of a warp lands in its own 32-byte sector.
  const auto& naive_read = find(rs, "naive_read");
  EXPECT_DOUBLE_EQ(*naive_read.store_sectors_per_request, 32.0);
  EXPECT_DOUBLE_EQ(*naive_read.write_ratio, 2.0);
  const auto& naive_write = find(rs, "naive_write");
  EXPECT_DOUBLE_EQ(*naive_write.load_sectors_per_request, 32.0);
  EXPECT_DOUBLE_EQ(*naive_write.read_ratio, 1.5);

  // Shared-memory tiles: conflicts on the unpadded tile's column reads, none once padded.
  EXPECT_EQ(*find(rs, "tiled").smem_load_conflicts, 983040.0);
  EXPECT_EQ(*find(rs, "tiled").smem_store_conflicts, 0.0);
  EXPECT_EQ(*find(rs, "tiled_padded").smem_load_conflicts, 0.0);

  // cuBLAS: two launches, summed.
  const auto& geam = find(rs, "geam");
  EXPECT_EQ(geam.launches, 2);
  EXPECT_DOUBLE_EQ(*geam.time_us, 10.176);
  EXPECT_DOUBLE_EQ(*geam.write_ratio, 1.0);
  EXPECT_EQ(*geam.smem_load_conflicts, 2048.0);
}

TEST(ProfileTable, BandwidthAndShareOfThePeakFromNcu) {
  const auto rs = fixture_records(/*fallback_peak_gbps=*/9999);
  const auto& copy = find(rs, "copy");
  const double gbps = (8392704.0 + 8388608.0) / 9184e-9 / 1e9;
  EXPECT_NEAR(*copy.dram_gbps, gbps, 1e-9 * gbps);
  EXPECT_EQ(copy.peak_source, "ncu");  // ncu's own peak wins over the fallback
  EXPECT_NEAR(*copy.peak_gbps, 2048.0 * 1.593e9 / 1e9, 1e-9);
  EXPECT_NEAR(*copy.pct_of_peak, 100.0 * gbps / (2048.0 * 1.593), 1e-9);
}

TEST(ProfileTable, FallsBackToTheDevicePeakAndToDashesWhenCountersAreMissing) {
  ProfileInput in;
  in.kernel = "auto";
  in.dtype = "f32";
  in.rows = 100;
  in.cols = 200;
  in.element_bytes = 4;
  NcuLaunch l;
  l.metrics = {{"dram__bytes_read.sum", 80000}, {"dram__bytes_write.sum", 80000}, {"gpu__time_duration.sum", 1e-6}};
  in.counters = combine_launches({l});
  in.fallback_peak_gbps = 320;
  const ProfileRecord r = build_profile_record(in);
  EXPECT_EQ(r.ideal_read_bytes, 80000.0);
  EXPECT_DOUBLE_EQ(*r.dram_gbps, 160.0);
  EXPECT_EQ(r.peak_source, "device");
  EXPECT_DOUBLE_EQ(*r.pct_of_peak, 50.0);
  EXPECT_FALSE(r.load_sectors_per_request.has_value());
  EXPECT_FALSE(r.smem_load_conflicts.has_value());

  in.fallback_peak_gbps = 0;
  const ProfileRecord none = build_profile_record(in);
  EXPECT_EQ(none.peak_source, "");
  EXPECT_FALSE(none.pct_of_peak.has_value());

  std::ostringstream os;
  print_profile_table(os, {r});
  EXPECT_NE(os.str().find("auto"), std::string::npos);
  EXPECT_NE(os.str().find(" -"), std::string::npos) << os.str();
  const auto j = profile_record_json(r);
  EXPECT_TRUE(j["load_sectors_per_request"].is_null());
  EXPECT_TRUE(j["counters"]["global_load_sectors"].is_null());
  EXPECT_EQ(j["counters"]["dram_read_bytes"], 80000.0);
}

TEST(ProfileTable, PrintsEveryKernelSkippedRowsAndALegend) {
  auto rs = fixture_records();
  rs.push_back(skipped_profile_record("geam", "f16", 1024, 1024, 2, "cuBLAS geam has no f16"));
  std::ostringstream os;
  print_profile_table(os, rs);
  const std::string text = os.str();
  for (const char* k : {"copy", "naive_read", "naive_write", "tiled", "tiled_padded", "geam"})
    EXPECT_NE(text.find(k), std::string::npos) << k;
  EXPECT_NE(text.find("skipped: cuBLAS geam has no f16"), std::string::npos) << text;
  EXPECT_NE(text.find("[2 launches, summed]"), std::string::npos) << text;
  EXPECT_NE(text.find("983040"), std::string::npos) << text;
  EXPECT_NE(text.find("32.00"), std::string::npos) << text;
  EXPECT_NE(text.find("ncu: dram__bytes.sum.peak_sustained"), std::string::npos) << text;
  EXPECT_NE(text.find("8-byte elements: 8 when"), std::string::npos) << text;
}

TEST(ProfileTable, JsonHasEveryFigure) {
  const auto rs = fixture_records();
  const auto j = profile_record_json(find(rs, "naive_read"));
  for (const char* key : {"kernel", "plan", "dtype", "rows", "cols", "launches", "time_us", "dram_read_bytes",
                          "dram_write_bytes", "read_ratio", "write_ratio", "load_sectors_per_request",
                          "store_sectors_per_request", "smem_load_bank_conflicts", "smem_store_bank_conflicts",
                          "dram_gbps", "peak_gbps", "pct_of_peak", "peak_source", "verification", "counters"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["kernel"], "naive_read");
  EXPECT_DOUBLE_EQ(j["store_sectors_per_request"].get<double>(), 32.0);
  EXPECT_EQ(j["counters"].size(), kCounterCount);
}

}  // namespace
}  // namespace xpose_cli
