// Reading `ncu --csv --page raw` output: CSV fields, numbers, units, captures, and launch sums.
#include "ncu_metrics.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace xpose_cli {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The raw page opens with this column; nothing else ncu or our program prints does.
bool is_raw_header(const std::vector<std::string>& fields) {
  return fields.size() > 1 && fields[0] == "ID" && fields[1] == "Process ID";
}

// Metric columns are the ones with ncu's "unit__counter" names; the rest describe the launch.
// Only the counters of kCounterTable are read: ncu's raw page also carries device__/launch__
// attributes with units of their own ("SM", "block", ...) that the table never uses.
bool is_metric_column(const std::string& name) {
  for (const CounterSpec& spec : kCounterTable)
    if (name == spec.ncu_metric) return true;
  return false;
}

struct CaptureBuilder {
  NcuCapture capture;
  bool touched = false;  // a delimiter, a marker or a header was seen for it
  std::vector<std::string> columns, units;
  bool expect_units = false;
};

// counter_spec() indexes the table by the enum: keep them in the same order.
constexpr bool table_follows_enum() {
  for (std::size_t i = 0; i < kCounterCount; ++i)
    if (static_cast<std::size_t>(kCounterTable[i].counter) != i) return false;
  return true;
}
static_assert(table_follows_enum(), "kCounterTable must list the counters in the order of enum Counter");

}  // namespace

const CounterSpec& counter_spec(Counter c) { return kCounterTable[static_cast<std::size_t>(c)]; }

std::string ncu_metric_list() {
  std::string list;
  for (const CounterSpec& s : kCounterTable) {
    if (!list.empty()) list += ',';
    list += s.ncu_metric;
  }
  return list;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.push_back(field);
      field.clear();
    } else if (ch != '\r' && ch != '\n') {
      field += ch;
    }
  }
  fields.push_back(field);
  return fields;
}

bool parse_ncu_number(const std::string& text, double& value) {
  std::string digits;
  for (char ch : trim(text))
    if (ch != ',') digits += ch;  // ncu groups thousands with commas inside the quoted field
  if (digits.empty()) return false;
  const char* begin = digits.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (end == begin || *end != '\0') return false;  // "n/a", text
  value = v;
  return true;
}

bool ncu_unit_scale(const std::string& raw_unit, double& scale) {
  const std::string unit = trim(raw_unit);
  if (unit.empty() || unit == "%") {
    scale = 1.0;
    return true;
  }
  const auto slash = unit.find('/');
  if (slash != std::string::npos) {  // a rate: byte/second, cycle/nsecond, byte/cycle
    double num = 0, den = 0;
    if (!ncu_unit_scale(unit.substr(0, slash), num) || !ncu_unit_scale(unit.substr(slash + 1), den) || den == 0)
      return false;
    scale = num / den;
    return true;
  }
  std::string lower = unit;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::pair<const char*, double> kFixed[] = {
      {"nsecond", 1e-9}, {"usecond", 1e-6}, {"msecond", 1e-3}, {"second", 1.0}, {"ns", 1e-9}, {"us", 1e-6},
      {"ms", 1e-3},      {"s", 1.0},        {"hz", 1.0},       {"khz", 1e3},    {"mhz", 1e6}, {"ghz", 1e9},
  };
  for (const auto& f : kFixed)
    if (lower == f.first) {
      scale = f.second;
      return true;
    }
  // Decimal prefixes on a counted unit: Kbyte, Msector, Grequest (ncu scales these by 1000).
  static const std::string kPrefixes = "KMGTP";
  const auto p = kPrefixes.find(unit[0]);
  if (p != std::string::npos && unit.size() > 1 && std::islower(static_cast<unsigned char>(unit[1]))) {
    double rest = 0;
    if (!ncu_unit_scale(unit.substr(1), rest)) return false;
    scale = rest;
    for (std::size_t k = 0; k <= p; ++k) scale *= 1e3;
    return true;
  }
  // A bare counted unit: byte, sector, request, cycle, inst, warp ...
  if (std::all_of(unit.begin(), unit.end(), [](unsigned char c) { return std::islower(c) || c == '_'; })) {
    scale = 1.0;
    return true;
  }
  return false;
}

std::map<std::string, std::string> parse_run_kernel_line(const std::string& line) {
  std::map<std::string, std::string> kv;
  if (!starts_with(line, kRunKernelMarker)) return kv;
  std::string rest = line.substr(std::char_traits<char>::length(kRunKernelMarker));
  std::size_t at = 0;
  while (at <= rest.size()) {
    auto bar = rest.find(" | ", at);
    if (bar == std::string::npos) bar = rest.size();
    const std::string item = rest.substr(at, bar - at);
    const auto eq = item.find('=');
    if (eq != std::string::npos) kv[trim(item.substr(0, eq))] = trim(item.substr(eq + 1));
    at = bar + 3;
  }
  return kv;
}

bool parse_ncu_output(const std::string& text, std::vector<NcuCapture>& out, std::string& error) {
  std::vector<NcuCapture> captures;
  CaptureBuilder cur;
  bool header_seen = false, marker_seen = false;
  const auto flush = [&] {
    if (cur.touched || !cur.capture.launches.empty()) captures.push_back(std::move(cur.capture));
    cur = CaptureBuilder{};
  };

  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (starts_with(line, kCaptureDelimiter)) {
      flush();
      const std::string rest = trim(line.substr(std::char_traits<char>::length(kCaptureDelimiter)));
      cur.capture.label = rest.substr(0, rest.find(' '));
      cur.touched = true;
      continue;
    }
    if (starts_with(line, kRunKernelMarker)) {
      cur.capture.marker = parse_run_kernel_line(line);
      cur.touched = marker_seen = true;
      continue;
    }
    if (line.empty() || line[0] != '"') continue;  // ==PROF== notes, program output, comments
    std::vector<std::string> fields = split_csv_line(line);
    if (is_raw_header(fields)) {
      cur.columns = std::move(fields);
      cur.units.assign(cur.columns.size(), "");
      cur.expect_units = true;
      cur.touched = header_seen = true;
      continue;
    }
    if (cur.columns.empty() || fields.size() != cur.columns.size()) continue;
    if (cur.expect_units) {
      cur.expect_units = false;
      if (fields[0].empty()) {  // the units line: empty under the launch columns
        cur.units = std::move(fields);
        continue;
      }
    }
    NcuLaunch launch;
    for (std::size_t i = 0; i < cur.columns.size(); ++i) {
      const std::string& name = cur.columns[i];
      if (name == "ID") launch.id = fields[i];
      if (name == "Kernel Name") launch.kernel_name = fields[i];
      if (!is_metric_column(name)) continue;
      double v = 0;
      if (!parse_ncu_number(fields[i], v)) continue;  // "n/a": the metric does not exist here
      double scale = 1;
      if (!ncu_unit_scale(cur.units[i], scale)) {
        error = "ncu output line " + std::to_string(line_no) + ": unknown unit '" + cur.units[i] + "' of " + name;
        return false;
      }
      launch.metrics[name] = v * scale;
    }
    cur.capture.launches.push_back(std::move(launch));
  }
  flush();
  if (!header_seen && !marker_seen) {
    error = "no raw-page table in the ncu output (expected a CSV header starting \"ID\",\"Process ID\")";
    return false;
  }
  out = std::move(captures);
  return true;
}

CounterValues combine_launches(const std::vector<NcuLaunch>& launches) {
  CounterValues cv;
  cv.launches = static_cast<int>(launches.size());
  for (std::size_t k = 0; k < kCounterCount; ++k) {
    const CounterSpec& spec = kCounterTable[k];
    for (const NcuLaunch& l : launches) {
      const auto it = l.metrics.find(spec.ncu_metric);
      if (it == l.metrics.end()) continue;
      if (!cv.have[k]) cv.value[k] = it->second;
      else if (spec.combine == Combine::sum) cv.value[k] += it->second;
      else cv.value[k] = std::max(cv.value[k], it->second);
      cv.have[k] = true;
    }
  }
  return cv;
}

}  // namespace xpose_cli
