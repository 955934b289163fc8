// Building, printing and serialising the rows of the `xpose profile` table.
#include "profile_table.hpp"

#include <iomanip>
#include <iterator>
#include <ostream>
#include <sstream>

namespace xpose_cli {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::optional<double> counter(const CounterValues& cv, Counter c) {
  if (!cv.has(c)) return std::nullopt;
  return cv.get(c);
}

std::optional<double> ratio(const std::optional<double>& num, const std::optional<double>& den) {
  if (!num || !den || *den <= 0) return std::nullopt;
  return *num / *den;
}

std::string cell(const std::optional<double>& v, int precision, double scale = 1.0) {
  if (!v) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(precision) << *v * scale;
  return os.str();
}

nlohmann::json opt_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

struct Column {
  const char* title;
  int width;
};

// Widths fit the largest values expected at 8192x8192 (tens of millions of bank conflicts).
constexpr Column kColumns[] = {{"kernel", 14},     {"time_us", 10},   {"rd_MiB", 9},    {"wr_MiB", 9},
                               {"rd/ideal", 9},    {"wr/ideal", 9},   {"ld_sec/req", 11}, {"st_sec/req", 11},
                               {"smem_ld_cf", 12}, {"smem_st_cf", 12}, {"DRAM_GB/s", 10}, {"%peak", 7}};

}  // namespace

ProfileRecord build_profile_record(const ProfileInput& in) {
  ProfileRecord r;
  r.kernel = in.kernel;
  r.plan = in.plan;
  r.dtype = in.dtype;
  r.verification = in.verification;
  r.rows = in.rows;
  r.cols = in.cols;
  r.element_bytes = in.element_bytes;
  r.counters = in.counters;
  r.launches = in.counters.launches;
  // The ideal transpose reads every input byte once and writes every output byte once.
  r.ideal_read_bytes = static_cast<double>(in.rows) * static_cast<double>(in.cols) * in.element_bytes;
  r.ideal_write_bytes = r.ideal_read_bytes;

  const CounterValues& cv = in.counters;
  if (const auto t = counter(cv, Counter::time_s)) r.time_us = *t * 1e6;
  r.dram_read_bytes = counter(cv, Counter::dram_read_bytes);
  r.dram_write_bytes = counter(cv, Counter::dram_write_bytes);
  r.read_ratio = ratio(r.dram_read_bytes, r.ideal_read_bytes);
  r.write_ratio = ratio(r.dram_write_bytes, r.ideal_write_bytes);
  r.load_sectors_per_request =
      ratio(counter(cv, Counter::global_load_sectors), counter(cv, Counter::global_load_requests));
  r.store_sectors_per_request =
      ratio(counter(cv, Counter::global_store_sectors), counter(cv, Counter::global_store_requests));
  r.smem_load_conflicts = counter(cv, Counter::smem_load_conflicts);
  r.smem_store_conflicts = counter(cv, Counter::smem_store_conflicts);
  if (r.dram_read_bytes && r.dram_write_bytes && r.time_us && *r.time_us > 0)
    r.dram_gbps = (*r.dram_read_bytes + *r.dram_write_bytes) / (*r.time_us * 1e3);

  const auto per_cycle = counter(cv, Counter::dram_peak_bytes_per_cycle);
  const auto cycles = counter(cv, Counter::dram_cycles_per_second);
  if (per_cycle && cycles && *per_cycle > 0 && *cycles > 0) {
    r.peak_gbps = *per_cycle * *cycles / 1e9;
    r.peak_source = "ncu";
  } else if (in.fallback_peak_gbps > 0) {
    r.peak_gbps = in.fallback_peak_gbps;
    r.peak_source = "device";
  }
  if (r.dram_gbps && r.peak_gbps) r.pct_of_peak = 100.0 * *r.dram_gbps / *r.peak_gbps;
  return r;
}

ProfileRecord skipped_profile_record(const std::string& kernel, const std::string& dtype, std::int64_t rows,
                                     std::int64_t cols, std::size_t element_bytes, const std::string& note) {
  ProfileRecord r;
  r.kernel = kernel;
  r.dtype = dtype;
  r.rows = rows;
  r.cols = cols;
  r.element_bytes = element_bytes;
  r.ideal_read_bytes = r.ideal_write_bytes = static_cast<double>(rows) * static_cast<double>(cols) * element_bytes;
  r.skipped = true;
  r.note = note;
  r.verification = "SKIPPED";
  return r;
}

void print_profile_table(std::ostream& os, const std::vector<ProfileRecord>& records) {
  os << std::left << std::setw(kColumns[0].width) << kColumns[0].title << std::right;
  for (std::size_t i = 1; i < std::size(kColumns); ++i) os << std::setw(kColumns[i].width) << kColumns[i].title;
  os << "  plan\n";
  bool geam_multi = false;
  for (const ProfileRecord& r : records) {
    os << std::left << std::setw(kColumns[0].width) << r.kernel << std::right;
    if (r.skipped) {
      os << "  skipped: " << r.note << "\n";
      continue;
    }
    const std::string cells[] = {cell(r.time_us, 2),
                                 cell(r.dram_read_bytes, 1, 1.0 / kMiB),
                                 cell(r.dram_write_bytes, 1, 1.0 / kMiB),
                                 cell(r.read_ratio, 2),
                                 cell(r.write_ratio, 2),
                                 cell(r.load_sectors_per_request, 2),
                                 cell(r.store_sectors_per_request, 2),
                                 cell(r.smem_load_conflicts, 0),
                                 cell(r.smem_store_conflicts, 0),
                                 cell(r.dram_gbps, 1),
                                 cell(r.pct_of_peak, 1)};
    for (std::size_t i = 0; i < std::size(cells); ++i) os << std::setw(kColumns[i + 1].width) << cells[i];
    os << "  " << (r.plan.empty() ? "-" : r.plan);
    if (r.launches > 1) {
      os << " [" << r.launches << " launches, summed]";
      geam_multi = true;
    }
    if (r.verification == "FAILED") os << " VERIFICATION FAILED";
    os << "\n";
  }
  if (records.empty()) return;
  const ProfileRecord& head = records.front();
  const std::size_t e = head.element_bytes;
  os << "\nrd/ideal, wr/ideal: DRAM bytes over " << std::fixed << std::setprecision(1)
     << head.ideal_read_bytes / kMiB << " MiB (each input byte read once, each output byte written once).\n"
     << "ld/st_sec/req: 32-byte sectors per warp-wide global access; " << e << "-byte elements: " << e
     << " when a warp's " << e << "-byte accesses are contiguous, 32 when each thread touches its own sector.\n"
     << "smem_ld/st_cf: shared-memory bank conflicts (extra wavefronts), loads and stores.\n"
     << "DRAM_GB/s: (read + write) / time; %peak: of the DRAM peak";
  std::string source;
  for (const ProfileRecord& r : records)
    if (!r.peak_source.empty()) {
      source = r.peak_source;
      os << " " << std::setprecision(0) << *r.peak_gbps << " GB/s";
      break;
    }
  os << (source == "ncu"      ? " (ncu: dram__bytes.sum.peak_sustained x DRAM clock).\n"
         : source == "device" ? " (from the device's bus width and memory clock).\n"
                              : " (unknown).\n");
  if (geam_multi) os << "Kernels that launch several GPU kernels per call show their sum.\n";
}

nlohmann::json profile_record_json(const ProfileRecord& r) {
  nlohmann::json counters = nlohmann::json::object();
  for (std::size_t k = 0; k < kCounterCount; ++k) {
    const CounterSpec& s = kCounterTable[k];
    counters[s.json_key] = r.counters.have[k] ? nlohmann::json(r.counters.value[k]) : nlohmann::json(nullptr);
  }
  return {{"kernel", r.kernel},
          {"plan", r.plan},
          {"dtype", r.dtype},
          {"rows", r.rows},
          {"cols", r.cols},
          {"element_bytes", r.element_bytes},
          {"skipped", r.skipped},
          {"note", r.note},
          {"verification", r.verification},
          {"launches", r.launches},
          {"ideal_read_bytes", r.ideal_read_bytes},
          {"ideal_write_bytes", r.ideal_write_bytes},
          {"time_us", opt_json(r.time_us)},
          {"dram_read_bytes", opt_json(r.dram_read_bytes)},
          {"dram_write_bytes", opt_json(r.dram_write_bytes)},
          {"read_ratio", opt_json(r.read_ratio)},
          {"write_ratio", opt_json(r.write_ratio)},
          {"load_sectors_per_request", opt_json(r.load_sectors_per_request)},
          {"store_sectors_per_request", opt_json(r.store_sectors_per_request)},
          {"smem_load_bank_conflicts", opt_json(r.smem_load_conflicts)},
          {"smem_store_bank_conflicts", opt_json(r.smem_store_conflicts)},
          {"dram_gbps", opt_json(r.dram_gbps)},
          {"peak_gbps", opt_json(r.peak_gbps)},
          {"peak_source", r.peak_source},
          {"pct_of_peak", opt_json(r.pct_of_peak)},
          {"counters", counters}};
}

}  // namespace xpose_cli
