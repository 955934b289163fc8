// The benchmark suite: the shapes every release is measured on, and the table that sums them up.
#include "bench_suite.hpp"

#include "bench_runner.hpp"

#include <iomanip>
#include <map>
#include <ostream>

namespace xpose_cli {

std::vector<SuiteCase> suite_cases() {
  struct Shape {
    const char* name;
    std::int64_t batch, rows, cols, ld;
    bool small;
  };
  const Shape shapes[] = {
      {"8192x8192", 1, 8192, 8192, 0, false},        {"16384x16384", 1, 16384, 16384, 0, false},
      {"8191x8193", 1, 8191, 8193, 0, false},        {"1048576x32", 1, 1048576, 32, 0, false},
      {"32x1048576", 1, 32, 1048576, 0, false},      {"1048576x3", 1, 1048576, 3, 0, false},
      {"3x1048576", 1, 3, 1048576, 0, false},        {"64x2048x2048", 64, 2048, 2048, 0, false},
      {"64x1000x1000", 64, 1000, 1000, 0, false},    {"8192x8192 ld 8200", 1, 8192, 8192, 8200, false},
      {"256x256", 1, 256, 256, 0, true},             {"1024x1024", 1, 1024, 1024, 0, true},
  };
  const xpose::DType dtypes[] = {xpose::DType::f64, xpose::DType::f32, xpose::DType::bf16, xpose::DType::u8,
                                 xpose::DType::c128};
  std::vector<SuiteCase> cases;
  for (xpose::DType t : dtypes)
    for (const Shape& s : shapes) {
      SuiteCase c;
      c.label = std::string(xpose::dtype_name(t)) + " " + s.name;
      c.desc = xpose::TransposeDesc{t, s.rows, s.cols, s.batch, s.ld, s.ld};
      c.small = s.small;
      cases.push_back(c);
    }
  return cases;
}

void print_suite_table(std::ostream& os, const std::string& device_name, const std::vector<BenchRecord>& records) {
  // Per case: the memcpy baseline, the automatic plan, geam, and the measured plan where it ran.
  std::map<std::string, const BenchRecord*> copy, fast, geam, tuned;
  std::vector<std::string> order;
  for (const auto& r : records) {
    if (r.kernel == "memcpy") {
      copy[r.case_label] = &r;
      order.push_back(r.case_label);
    } else if (r.kernel == "geam") {
      geam[r.case_label] = &r;
    } else if (r.kernel == kMeasuredKernel) {
      tuned[r.case_label] = &r;
    } else {
      fast[r.case_label] = &r;
    }
  }
  os << "\nSuite on " << device_name
     << ": xpose automatic plan; GB/s = (bytes read + written) / median time; x memcpy = against a\n"
        "device-to-device copy of the same bytes in this run; x geam = xpose time / cuBLAS geam time inverted\n"
        "(> 1 means xpose is faster), where cuBLAS has the type"
     << (tuned.empty() ? "" : "; tuned = the measured plan's time x memcpy") << "\n";
  os << std::left << std::setw(26) << "case" << std::setw(46) << "plan" << std::right << std::setw(10) << "GB/s"
     << std::setw(10) << "x memcpy" << std::setw(9) << "x geam" << (tuned.empty() ? "" : "    tuned")
     << "  verified\n";
  for (const auto& label : order) {
    const BenchRecord* f = fast.count(label) ? fast[label] : nullptr;
    os << std::left << std::setw(26) << label;
    if (f == nullptr || f->verification == "SKIPPED") {
      os << "skipped" << (f ? ": " + f->note : std::string()) << "\n";
      continue;
    }
    std::string plan = f->plan.substr(0, f->plan.find(" block"));
    os << std::setw(46) << plan << std::right << std::fixed << std::setprecision(1) << std::setw(10) << f->gbps
       << std::setprecision(3) << std::setw(10) << f->pct_of_copy / 100.0;
    const BenchRecord* g = geam.count(label) ? geam[label] : nullptr;
    if (g != nullptr && g->verification != "SKIPPED")
      os << std::setw(9) << g->time_us / f->time_us;
    else
      os << std::setw(9) << "-";
    const BenchRecord* t = tuned.count(label) ? tuned[label] : nullptr;
    if (!tuned.empty()) {
      if (t != nullptr && t->verification != "SKIPPED") os << std::setw(9) << t->pct_of_copy / 100.0;
      else os << std::setw(9) << "-";
    }
    os << "  " << f->verification << (g && g->verification == "FAILED" ? " (geam FAILED)" : "")
       << (t && t->verification == "FAILED" ? " (tuned FAILED)" : "") << "\n";
  }
}

}  // namespace xpose_cli
