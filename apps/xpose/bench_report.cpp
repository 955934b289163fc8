// Printing and saving `xpose bench` results (text tables, JSON with a device header, CSV).
#include "bench_report.hpp"

#include <fstream>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "json_header.hpp"

namespace xpose_cli {
namespace {

constexpr int kJsonSchemaVersion = 1;
constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

void print_case_header(std::ostream& os, const BenchRecord& r) {
  const double mib = r.bytes_moved / 2.0 / kMiB;  // bytes_moved counts the read and the write
  os << "\nTesting Matrix dimensions: " << r.rows << " x " << r.cols;
  if (r.batch > 1) os << " (batch " << r.batch << ")";
  os << " (" << r.dtype << ")\n"
     << std::fixed << std::setprecision(2) << "Input size: " << mib << " MiB\n"
     << "Output size: " << mib << " MiB\n";
  os << std::left << std::setw(14) << "kernel" << std::right << std::setw(12) << "time_us" << std::setw(10)
     << "GB/s" << std::setw(10) << "% copy" << "  " << std::left << std::setw(22) << "Verification"
     << "plan\n"
     << std::right;
}

void print_case_rows(std::ostream& os, const std::vector<BenchRecord>& records, std::size_t first) {
  for (std::size_t i = first; i < records.size(); ++i) {
    const BenchRecord& r = records[i];
    os << std::left << std::setw(14) << r.kernel << std::right << std::fixed;
    if (r.verification == "SKIPPED") {
      os << "  skipped: " << r.note << "\n";
      continue;
    }
    os << std::setprecision(2) << std::setw(12) << r.time_us << std::setprecision(1) << std::setw(10) << r.gbps
       << std::setw(9) << r.pct_of_copy << "%  " << std::left << std::setw(22)
       << (r.verification == "-" ? std::string("(baseline)") : "Verification: " + r.verification) << r.plan
       << std::right << "\n";
    if (r.verification == "FAILED") os << "    " << r.note << "\n";
  }
}

void print_summary(std::ostream& os, const RunContext& ctx, const std::vector<BenchRecord>& records) {
  if (records.empty()) return;
  // The largest case is the last one measured with the most bytes.
  double largest = 0;
  for (const auto& r : records) largest = std::max(largest, r.bytes_moved);
  const BenchRecord* slowest_naive = nullptr;
  std::vector<const BenchRecord*> rows;
  for (const auto& r : records) {
    if (r.bytes_moved != largest || r.verification == "SKIPPED") continue;
    rows.push_back(&r);
    if (r.kernel == "naive_read" || r.kernel == "cpu_reference") slowest_naive = &r;
  }
  const BenchRecord& head = *rows.front();
  os << "\nPerformance Summary (" << head.rows << " x " << head.cols << " " << head.dtype << ", "
     << (ctx.have_device ? ctx.device.name : std::string("CPU")) << "):\n";
  os << std::left << std::setw(14) << "kernel" << std::right << std::setw(12) << "time_us" << std::setw(10)
     << "speedup" << std::setw(10) << "GB/s" << std::setw(10) << "% copy" << "\n";
  for (const BenchRecord* r : rows) {
    os << std::left << std::setw(14) << r->kernel << std::right << std::fixed << std::setprecision(2)
       << std::setw(12) << r->time_us << std::setw(9);
    if (slowest_naive && r->kernel != "memcpy")
      os << slowest_naive->time_us / r->time_us << "x";
    else
      os << "-" << " ";
    os << std::setprecision(1) << std::setw(10) << r->gbps << std::setw(9) << r->pct_of_copy << "%\n";
  }
  if (slowest_naive)
    os << "Speedup is over " << slowest_naive->kernel << " (the read-contiguous rung). GB/s counts bytes read + "
       << "written; % copy is against memcpy of the same bytes measured in this run.\n";
}

xpose::Status write_json(const std::string& path, const RunContext& ctx, const std::vector<BenchRecord>& records) {
  nlohmann::json j =
      result_header("xpose bench", kJsonSchemaVersion, ctx.argv, ctx.have_device ? &ctx.device : nullptr);
  j["backend"] = ctx.backend;
  j["warmup"] = ctx.warmup;
  j["iters"] = ctx.iters;
  j["statistic"] = "median per call";
  if (ctx.backend == "cuda")
    j["timer"] = "events around each run of calls on one stream, queued behind a kernel that holds the stream "
                 "until the whole run is enqueued, so the calls run back to back";
  auto& out = j["records"] = nlohmann::json::array();
  for (const auto& r : records) {
    out.push_back({{"case", r.case_label},
                   {"kernel", r.kernel},
                   {"plan", r.plan},
                   {"dtype", r.dtype},
                   {"rows", r.rows},
                   {"cols", r.cols},
                   {"batch", r.batch},
                   {"ld_in", r.ld_in},
                   {"ld_out", r.ld_out},
                   {"batch_stride_in", r.batch_stride_in},
                   {"batch_stride_out", r.batch_stride_out},
                   {"offset_in", r.offset_in},
                   {"offset_out", r.offset_out},
                   {"bytes_moved", r.bytes_moved},
                   {"time_us", r.time_us},
                   {"gbps", r.gbps},
                   {"copy_gbps", r.copy_gbps},
                   {"pct_of_copy", r.pct_of_copy},
                   {"runs", r.runs},
                   {"calls_per_run", r.calls_per_run},
                   {"verified", r.verification == "PASSED"},
                   {"verification", r.verification},
                   {"note", r.note}});
  }
  return write_json_file(path, j, "--json");
}

xpose::Status write_csv(const std::string& path, const std::vector<BenchRecord>& records) {
  std::ofstream f(path);
  if (!f) return xpose::Status(xpose::StatusCode::invalid_argument, "cannot write --csv file '" + path + "'");
  f << "kernel,dtype,rows,cols,batch,ld_in,ld_out,time_us,gbps,copy_gbps,pct_of_copy,verification,plan\n";
  for (const auto& r : records)
    f << r.kernel << ',' << r.dtype << ',' << r.rows << ',' << r.cols << ',' << r.batch << ',' << r.ld_in << ','
      << r.ld_out << ',' << r.time_us << ',' << r.gbps << ',' << r.copy_gbps << ',' << r.pct_of_copy << ','
      << r.verification << ",\"" << r.plan << "\"\n";
  return f ? xpose::Status::ok_status()
           : xpose::Status(xpose::StatusCode::invalid_argument, "failed writing --csv file '" + path + "'");
}

}  // namespace xpose_cli
