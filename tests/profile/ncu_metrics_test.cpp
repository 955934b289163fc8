// The ncu raw-page parser: CSV fields, numbers, units, captures, launch sums, on inline text and the fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ncu_metrics.hpp"

#ifndef XPOSE_FIXTURE_DIR
#error "XPOSE_FIXTURE_DIR must name tests/fixtures"
#endif

namespace xpose_cli {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream f(std::string(XPOSE_FIXTURE_DIR) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\"\n";
const char* kLaunchPrefix =
    "\"1\",\"2\",\"xpose\",\"h\",\"k<int, 1>(int *, int)\",\"1\",\"7\",\"(32, 8, 1)\",\"(4, 4, 1)\",\"0\",\"9.0\",";

TEST(NcuCsv, SplitsQuotedFieldsWithCommasAndQuotes) {
  const auto f = split_csv_line("\"a,b\",\"\",plain,\"say \"\"hi\"\"\",\"1,024\"\r");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0], "a,b");
  EXPECT_EQ(f[1], "");
  EXPECT_EQ(f[2], "plain");
  EXPECT_EQ(f[3], "say \"hi\"");
  EXPECT_EQ(f[4], "1,024");
  EXPECT_EQ(split_csv_line("").size(), 1u);
}

TEST(NcuCsv, ReadsNumbersAsNcuPrintsThem) {
  double v = 0;
  ASSERT_TRUE(parse_ncu_number("1,048,576", v));
  EXPECT_EQ(v, 1048576.0);
  ASSERT_TRUE(parse_ncu_number("2.5e-05", v));
  EXPECT_DOUBLE_EQ(v, 2.5e-5);
  ASSERT_TRUE(parse_ncu_number(" 12.0 ", v));
  EXPECT_EQ(v, 12.0);
  EXPECT_FALSE(parse_ncu_number("n/a", v));
  EXPECT_FALSE(parse_ncu_number("", v));
  EXPECT_FALSE(parse_ncu_number("12 cycles", v));
}

TEST(NcuCsv, ScalesUnitsToBase) {
  const std::pair<const char*, double> cases[] = {
      {"", 1},           {"%", 1},       {"byte", 1},           {"Kbyte", 1e3},       {"Mbyte", 1e6},
      {"Gbyte", 1e9},    {"sector", 1},  {"Ksector", 1e3},      {"request", 1},       {"nsecond", 1e-9},
      {"usecond", 1e-6}, {"msecond", 1e-3}, {"second", 1},      {"ns", 1e-9},         {"cycle/nsecond", 1e9},
      {"cycle/second", 1}, {"byte/cycle", 1}, {"Gbyte/second", 1e9}, {"Tbyte/second", 1e12}, {"Ghz", 1e9},
      {"Mhz", 1e6},
  };
  for (const auto& [unit, want] : cases) {
    double scale = 0;
    ASSERT_TRUE(ncu_unit_scale(unit, scale)) << unit;
    EXPECT_DOUBLE_EQ(scale, want) << unit;
  }
  double scale = 0;
  EXPECT_FALSE(ncu_unit_scale("Widgets!", scale));
  EXPECT_FALSE(ncu_unit_scale("byte/Widgets!", scale));
}

TEST(NcuCsv, ReadsTheRunKernelLine) {
  const auto kv = parse_run_kernel_line(std::string(kRunKernelMarker) +
                                        "kernel=tiled | shape=64x32 | plan=tiled<32x32,pad0,vec8B> block=(32,8) "
                                        "grid=(1,2,1) | device=NVIDIA H100 80GB HBM3 | verification=PASSED");
  EXPECT_EQ(kv.at("kernel"), "tiled");
  EXPECT_EQ(kv.at("shape"), "64x32");
  EXPECT_EQ(kv.at("plan"), "tiled<32x32,pad0,vec8B> block=(32,8) grid=(1,2,1)");
  EXPECT_EQ(kv.at("device"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(kv.at("verification"), "PASSED");
  EXPECT_TRUE(parse_run_kernel_line("xpose bench: something else").empty());
}

TEST(NcuMetricTable, OneEntryPerCounterInEnumOrderWithDistinctNames) {
  std::set<std::string> names, keys;
  for (std::size_t i = 0; i < kCounterCount; ++i) {
    const Counter c = static_cast<Counter>(i);
    EXPECT_EQ(counter_spec(c).counter, c);
    EXPECT_NE(std::string(counter_spec(c).ncu_metric).find("__"), std::string::npos);
    names.insert(counter_spec(c).ncu_metric);
    keys.insert(counter_spec(c).json_key);
  }
  EXPECT_EQ(names.size(), kCounterCount);
  EXPECT_EQ(keys.size(), kCounterCount);
  const std::string list = ncu_metric_list();
  EXPECT_EQ(std::count(list.begin(), list.end(), ','), static_cast<long>(kCounterCount - 1));
  EXPECT_NE(list.find("dram__bytes_read.sum"), std::string::npos);
  EXPECT_NE(list.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), std::string::npos);
}

TEST(NcuOutput, PlainNcuOutputIsOneCaptureAndSkipsOtherLines) {
  const std::string text = std::string("==PROF== Connected to process 2 (xpose)\nsome program output\n") + kHeader +
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\"\r\n" +
                           kLaunchPrefix + "\"1.5\",\"2,000\"\r\n" + "==PROF== Disconnected from process 2\n";
  std::vector<NcuCapture> caps;
  std::string error;
  ASSERT_TRUE(parse_ncu_output(text, caps, error)) << error;
  ASSERT_EQ(caps.size(), 1u);
  EXPECT_EQ(caps[0].label, "");
  ASSERT_EQ(caps[0].launches.size(), 1u);
  const NcuLaunch& l = caps[0].launches[0];
  EXPECT_EQ(l.id, "1");
  EXPECT_EQ(l.kernel_name, "k<int, 1>(int *, int)");
  EXPECT_DOUBLE_EQ(l.metrics.at("dram__bytes_read.sum"), 1.5e6);
  EXPECT_DOUBLE_EQ(l.metrics.at("gpu__time_duration.sum"), 2e-3);
}

TEST(NcuOutput, NotAvailableMetricsAreAbsentAndUnitsLineIsOptional) {
  const std::string text = std::string(kHeader) + kLaunchPrefix + "\"n/a\",\"100\"\n";
  std::vector<NcuCapture> caps;
  std::string error;
  ASSERT_TRUE(parse_ncu_output(text, caps, error)) << error;
  ASSERT_EQ(caps.size(), 1u);
  ASSERT_EQ(caps[0].launches.size(), 1u);
  EXPECT_EQ(caps[0].launches[0].metrics.count("dram__bytes_read.sum"), 0u);
  EXPECT_EQ(caps[0].launches[0].metrics.at("gpu__time_duration.sum"), 100.0);
}

TEST(NcuOutput, NoHeaderIsAnError) {
  std::vector<NcuCapture> caps;
  std::string error;
  EXPECT_FALSE(parse_ncu_output("==PROF== Connected\n==WARNING== No kernels were profiled.\n", caps, error));
  EXPECT_NE(error.find("ID"), std::string::npos) << error;
}

TEST(NcuOutput, UnknownUnitIsAnError) {
  const std::string text = std::string(kHeader) +
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"furlong!\",\"nsecond\"\n" +
                           kLaunchPrefix + "\"1\",\"2\"\n";
  std::vector<NcuCapture> caps;
  std::string error;
  EXPECT_FALSE(parse_ncu_output(text, caps, error));
  EXPECT_NE(error.find("furlong!"), std::string::npos) << error;
}

TEST(NcuOutput, CombinesLaunchesBySumOrMax) {
  NcuLaunch a, b;
  a.metrics = {{"dram__bytes_read.sum", 100}, {"gpu__time_duration.sum", 1e-6}, {"dram__bytes.sum.peak_sustained", 64}};
  b.metrics = {{"dram__bytes_read.sum", 50}, {"gpu__time_duration.sum", 2e-6}, {"dram__bytes.sum.peak_sustained", 32}};
  const CounterValues cv = combine_launches({a, b});
  EXPECT_EQ(cv.launches, 2);
  EXPECT_EQ(cv.get(Counter::dram_read_bytes), 150.0);
  EXPECT_DOUBLE_EQ(cv.get(Counter::time_s), 3e-6);
  EXPECT_EQ(cv.get(Counter::dram_peak_bytes_per_cycle), 64.0);
  EXPECT_FALSE(cv.has(Counter::dram_write_bytes));
  EXPECT_FALSE(combine_launches({}).has(Counter::time_s));
}

// The committed hand-made fixture, in the layout `xpose profile --save-raw` writes.
TEST(NcuFixture, SyntheticCaptureParses) {
  const std::string text = fixture("ncu_raw_synthetic.csv");
  ASSERT_FALSE(text.empty()) << "missing fixture ncu_raw_synthetic.csv";
  std::vector<NcuCapture> caps;
  std::string error;
  ASSERT_TRUE(parse_ncu_output(text, caps, error)) << error;
  const std::vector<std::string> labels = {"copy", "naive_read", "naive_write", "tiled", "tiled_padded", "geam"};
  ASSERT_EQ(caps.size(), labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    EXPECT_EQ(caps[i].label, labels[i]);
    EXPECT_EQ(caps[i].marker.at("kernel"), labels[i]);
    EXPECT_EQ(caps[i].marker.at("shape"), "1024x1024");
    EXPECT_EQ(caps[i].launches.size(), labels[i] == "geam" ? 2u : 1u) << labels[i];
    for (const NcuLaunch& l : caps[i].launches)
      for (const CounterSpec& s : kCounterTable) EXPECT_EQ(l.metrics.count(s.ncu_metric), 1u) << s.ncu_metric;
  }
  EXPECT_EQ(caps[0].launches[0].metrics.at("dram__bytes_read.sum"), 8392704.0);
  EXPECT_DOUBLE_EQ(caps[0].launches[0].metrics.at("gpu__time_duration.sum"), 9184e-9);
  EXPECT_EQ(caps[3].launches[0].kernel_name,
            "void xpose::gpu::tiled_kernel<unsigned long, 0>(const T1 *, T1 *, xpose::gpu::MatrixGeometry)");
  const CounterValues geam = combine_launches(caps[5].launches);
  EXPECT_EQ(geam.get(Counter::dram_write_bytes), 8388608.0);
  EXPECT_DOUBLE_EQ(geam.get(Counter::time_s), (5120 + 5056) * 1e-9);
  EXPECT_EQ(geam.get(Counter::dram_peak_bytes_per_cycle), 2048.0);
}

// A real recording, when one is committed (scripts/capture_ncu_fixture.sh): it must parse and hold
// every counter of the table for every kernel.
TEST(NcuFixture, RecordedCapturesParseWhenPresent) {
  int found = 0;
  for (const auto& entry : std::filesystem::directory_iterator(XPOSE_FIXTURE_DIR)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("ncu_raw_", 0) != 0 || name == "ncu_raw_synthetic.csv") continue;
    const std::string text = fixture(name);
    ++found;
    std::vector<NcuCapture> caps;
    std::string error;
    ASSERT_TRUE(parse_ncu_output(text, caps, error)) << name << ": " << error;
    ASSERT_FALSE(caps.empty()) << name;
    for (const NcuCapture& c : caps) {
      ASSERT_FALSE(c.launches.empty()) << name << " " << c.label;
      const CounterValues cv = combine_launches(c.launches);
      for (std::size_t k = 0; k < kCounterCount; ++k)
        EXPECT_TRUE(cv.have[k]) << name << " " << c.label << ": " << kCounterTable[k].ncu_metric;
    }
  }
  if (found == 0) GTEST_SKIP() << "no recorded ncu_raw_<gpu>.csv committed yet";
}

}  // namespace
}  // namespace xpose_cli
