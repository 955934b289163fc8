// The Nsight Compute counters `xpose profile` reads (the one table of metric names) and the parser
// for what `ncu --csv --page raw` prints.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace xpose_cli {

// What the profile table needs from one kernel.
enum class Counter {
  time_s,                 // kernel duration
  dram_read_bytes,
  dram_write_bytes,
  global_load_sectors,    // 32-byte sectors that global loads touched in L1TEX ...
  global_load_requests,   // ... for this many warp-level load instructions
  global_store_sectors,
  global_store_requests,
  smem_load_conflicts,    // extra shared-memory wavefronts caused by bank conflicts
  smem_store_conflicts,
  dram_peak_bytes_per_cycle,  // the device's DRAM peak, as ncu knows it ...
  dram_cycles_per_second,     // ... times the DRAM clock while the kernel ran
};
constexpr std::size_t kCounterCount = 11;

// How the values of several launches combine (cuBLAS may launch more than one kernel per call).
enum class Combine { sum, max };

struct CounterSpec {
  Counter counter;
  const char* ncu_metric;  // the name given to `ncu --metrics` and heading its CSV column
  Combine combine;
  const char* json_key;    // the name in `xpose profile --json`
};

// THE metric table: a GPU generation that renames a counter is a one-line change here.
// Checked on sm_90 (H100/H200).
inline constexpr std::array<CounterSpec, kCounterCount> kCounterTable = {{
    {Counter::time_s, "gpu__time_duration.sum", Combine::sum, "time_s"},
    {Counter::dram_read_bytes, "dram__bytes_read.sum", Combine::sum, "dram_read_bytes"},
    {Counter::dram_write_bytes, "dram__bytes_write.sum", Combine::sum, "dram_write_bytes"},
    {Counter::global_load_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Combine::sum,
     "global_load_sectors"},
    {Counter::global_load_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Combine::sum,
     "global_load_requests"},
    {Counter::global_store_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Combine::sum,
     "global_store_sectors"},
    {Counter::global_store_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Combine::sum,
     "global_store_requests"},
    {Counter::smem_load_conflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", Combine::sum,
     "smem_load_bank_conflicts"},
    {Counter::smem_store_conflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", Combine::sum,
     "smem_store_bank_conflicts"},
    {Counter::dram_peak_bytes_per_cycle, "dram__bytes.sum.peak_sustained", Combine::max,
     "dram_peak_bytes_per_cycle"},
    {Counter::dram_cycles_per_second, "dram__cycles_elapsed.avg.per_second", Combine::max,
     "dram_cycles_per_second"},
}};

const CounterSpec& counter_spec(Counter c);
// The table's names, comma separated, for `ncu --metrics`.
std::string ncu_metric_list();

// First words of the line `xpose run-kernel` prints on stdout: "xpose run-kernel: key=value | ...".
// It travels through ncu's stdout and says what ran (kernel, shape, dtype, plan, device).
inline constexpr const char* kRunKernelMarker = "xpose run-kernel: ";
// A line `xpose profile --save-raw` writes before each kernel's ncu output: "# xpose-capture kernel=K".
inline constexpr const char* kCaptureDelimiter = "# xpose-capture kernel=";

// One profiled kernel launch: one data line of the raw page, metric values in base units
// (bytes, seconds, counts; rates per second). Metrics ncu printed as "n/a" are absent.
struct NcuLaunch {
  std::string id;
  std::string kernel_name;
  std::map<std::string, double> metrics;
};

// One run of ncu over one `xpose run-kernel` process.
struct NcuCapture {
  std::string label;                          // kernel name from the capture delimiter, or ""
  std::map<std::string, std::string> marker;  // key=value pairs from the run-kernel line, if any
  std::vector<NcuLaunch> launches;
};

// Splits one CSV line into fields: quoted ("a,b"), doubled quotes inside quotes, or bare.
std::vector<std::string> split_csv_line(const std::string& line);
// A metric value as ncu prints it ("1,048,576", "2.5e-05", "12.0"); false for "n/a" or text.
bool parse_ncu_number(const std::string& text, double& value);
// Factor that turns a value in `unit` into base units: "Kbyte" -> 1e3, "usecond" -> 1e-6,
// "cycle/nsecond" -> 1e9, "Ghz" -> 1e9, "%" and "" -> 1. False for a unit it cannot read.
bool ncu_unit_scale(const std::string& unit, double& scale);
// The key=value pairs of a run-kernel line (without the marker); empty map when `line` is not one.
std::map<std::string, std::string> parse_run_kernel_line(const std::string& line);

// Parses ncu's stdout: other lines (==PROF== notes, the program's own output) are skipped, the
// raw page's header, units line and data lines are read. A text with several captures, each after
// a kCaptureDelimiter line, gives one NcuCapture each. A capture may hold a run-kernel line and no
// table (the kernel skipped the case). False with a one-line message when there is neither a
// raw-page header nor a run-kernel line, or a value cannot be read.
bool parse_ncu_output(const std::string& text, std::vector<NcuCapture>& out, std::string& error);

// The table's counters over all launches of one capture.
struct CounterValues {
  std::array<double, kCounterCount> value{};
  std::array<bool, kCounterCount> have{};  // false: no launch reported the metric
  int launches = 0;

  bool has(Counter c) const { return have[static_cast<std::size_t>(c)]; }
  double get(Counter c) const { return value[static_cast<std::size_t>(c)]; }
};
CounterValues combine_launches(const std::vector<NcuLaunch>& launches);

}  // namespace xpose_cli
