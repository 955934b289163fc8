// `xpose profile`: options, one ncu run per kernel over `xpose run-kernel`, the table and its JSON.
#include "profile_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include "bench_options.hpp"
#include "json_header.hpp"
#include "ncu_metrics.hpp"
#include "ncu_runner.hpp"
#include "profile_run.hpp"
#include "profile_table.hpp"
#include "xpose/xpose.hpp"

namespace xpose_cli {
namespace {

constexpr int kProfileSchemaVersion = 1;

const std::vector<std::string> kLadder = {"copy", "naive_read", "naive_write", "tiled", "tiled_padded"};

int fail(const std::string& message) {
  std::cerr << "xpose profile: error: " << message << "\n";
  return 2;
}

// A comma list of GPU kernel names, "auto" (the planner's choice) and the groups "ladder" (the five
// rungs) and "all" (ladder + geam + auto, as in bench).
bool resolve_kernels(const std::string& spec, std::vector<std::string>& out, std::string& error) {
  std::stringstream ss(spec);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name == "ladder" || name == "all") {
      out.insert(out.end(), kLadder.begin(), kLadder.end());
      if (name == "all") out.insert(out.end(), {"geam", "auto"});
      continue;
    }
    xpose::Algorithm a;
    if (!xpose::parse_algorithm(name, a) || xpose::algorithm_backend(a) == xpose::Backend::cpu) {
      error = "--kernels: '" + name + "' is not a GPU kernel (ladder, all, auto, or names such as copy, " +
              "naive_read, naive_write, tiled, tiled_padded, geam)";
      return false;
    }
    out.push_back(xpose::algorithm_name(a));
  }
  // Each kernel once, in the order first named.
  std::vector<std::string> unique;
  for (const std::string& k : out)
    if (std::find(unique.begin(), unique.end(), k) == unique.end()) unique.push_back(k);
  out = std::move(unique);
  if (out.empty()) {
    error = "--kernels: empty list";
    return false;
  }
  return true;
}

bool read_file(const std::string& path, std::string& text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  text = ss.str();
  return true;
}

std::string shape_text(const Shape& s) { return std::to_string(s.rows) + "x" + std::to_string(s.cols); }

// Keeps a failed run's full output for the user to read; returns its path ("" when not written).
std::string keep_log(const std::string& kernel, const ProcessResult& pr) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/xpose-profile-" +
                           kernel + "-" + std::to_string(::getpid()) + ".log";
  std::ofstream f(path);
  if (!f) return "";
  f << "== stdout ==\n" << pr.out << "\n== stderr ==\n" << pr.err;
  return path;
}

struct Table {
  std::vector<ProfileRecord> records;
  Shape shape;
  std::string dtype;
};

void print_heading(std::ostream& os, const Table& t, const std::string& device_line, const std::string& source) {
  os << "xpose profile: " << t.shape.rows << " x " << t.shape.cols << " " << t.dtype
     << ", each kernel's one execute() counted by Nsight Compute (" << source << ")\n";
  if (!device_line.empty()) os << device_line << "\n";
  os << "\n";
}

nlohmann::json table_json(const Table& t, const std::vector<std::string>& argv, const xpose::DeviceInfo* device) {
  nlohmann::json j = result_header("xpose profile", kProfileSchemaVersion, argv, device);
  j["rows"] = t.shape.rows;
  j["cols"] = t.shape.cols;
  j["dtype"] = t.dtype;
  j["metrics"] = nlohmann::json::array();
  for (const CounterSpec& s : kCounterTable) j["metrics"].push_back({{"key", s.json_key}, {"ncu", s.ncu_metric}});
  auto& records = j["records"] = nlohmann::json::array();
  for (const ProfileRecord& r : t.records) records.push_back(profile_record_json(r));
  return j;
}

int exit_code_of(const Table& t) {
  for (const ProfileRecord& r : t.records)
    if (r.verification == "FAILED") {
      std::cerr << "xpose profile: " << r.kernel << ": the profiled result FAILED verification\n";
      return 1;
    }
  return 0;
}

// --from-csv: the table of a saved capture; shape, dtype and plan come from the run-kernel lines in it.
int profile_from_file(const ProfileArgs& args, const Shape& shape, xpose::DType dtype,
                      const std::vector<std::string>& argv) {
  std::string text, error;
  if (!read_file(args.from_csv_path, text)) return fail("--from-csv: cannot read '" + args.from_csv_path + "'");
  std::vector<NcuCapture> captures;
  if (!parse_ncu_output(text, captures, error)) return fail("--from-csv '" + args.from_csv_path + "': " + error);

  Table t;
  t.shape = shape;
  t.dtype = xpose::dtype_name(dtype);
  std::string device_name;
  for (std::size_t i = 0; i < captures.size(); ++i) {
    const NcuCapture& c = captures[i];
    const auto get = [&](const char* key) {
      const auto it = c.marker.find(key);
      return it == c.marker.end() ? std::string() : it->second;
    };
    Shape s = shape;
    if (!get("shape").empty() && !parse_shape(get("shape"), s, error))
      return fail("--from-csv: capture " + std::to_string(i + 1) + ": " + error);
    xpose::DType dt = dtype;
    if (!get("dtype").empty() && !xpose::parse_dtype(get("dtype"), dt))
      return fail("--from-csv: capture " + std::to_string(i + 1) + ": unknown dtype '" + get("dtype") + "'");
    if (i == 0) {
      t.shape = s;
      t.dtype = xpose::dtype_name(dt);
    }
    if (device_name.empty()) device_name = get("device");
    std::string label = !c.label.empty() ? c.label : get("kernel");
    if (label.empty()) label = c.launches.empty() ? "kernel" : c.launches.front().kernel_name;
    if (c.launches.empty()) {
      const std::string why = get("skipped").empty() ? "no profiled kernel launch in the capture" : get("skipped");
      t.records.push_back(
          skipped_profile_record(label, xpose::dtype_name(dt), s.rows, s.cols, xpose::dtype_size(dt), why));
      continue;
    }
    ProfileInput in;
    in.kernel = label;
    in.plan = get("plan");
    in.dtype = xpose::dtype_name(dt);
    in.rows = s.rows;
    in.cols = s.cols;
    in.element_bytes = xpose::dtype_size(dt);
    in.verification = get("verification").empty() ? "-" : get("verification");
    in.counters = combine_launches(c.launches);
    t.records.push_back(build_profile_record(in));
  }
  if (t.records.empty()) return fail("--from-csv '" + args.from_csv_path + "': no captures");

  print_heading(std::cout, t, device_name.empty() ? "" : "Device: " + device_name,
                "recorded in " + args.from_csv_path);
  print_profile_table(std::cout, t.records);
  if (!args.json_path.empty()) {
    xpose::DeviceInfo device;
    device.vendor = "unknown";
    device.name = device_name.empty() ? "unknown" : device_name;
    nlohmann::json j = table_json(t, argv, &device);
    j["source"] = {{"from_csv", args.from_csv_path}};
    if (const xpose::Status s = write_json_file(args.json_path, j, "--json"); !s.ok()) return fail(s.message());
  }
  return exit_code_of(t);
}

}  // namespace

CLI::App* add_profile_command(CLI::App& app, ProfileArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "profile", "Run each kernel once under Nsight Compute (ncu) and explain its throughput");
  cmd->add_option("--shape", a.shape, "ROWSxCOLS (default 8192x8192)");
  cmd->add_option("--dtype", a.dtype, "Element type: " + xpose::dtype_names() + " (default f64)");
  cmd->add_option("--kernels", a.kernels,
                  "Comma list of GPU kernel names, auto, ladder (the 5 rungs) or all (ladder + geam + auto); "
                  "default ladder,geam");
  cmd->add_option("--json", a.json_path, "Write the table as JSON to this file");
  cmd->add_option("--ncu", a.ncu_path, "Path of ncu (default: $XPOSE_NCU, PATH, then the CUDA toolkit)");
  cmd->add_option("--save-raw", a.save_raw_path, "Also store ncu's own output per kernel in this file");
  cmd->add_option("--from-csv", a.from_csv_path,
                  "Build the table from a --save-raw file instead of running ncu (no GPU needed)");
  cmd->add_option("--seed", a.seed, "Seed of the random input");
  return cmd;
}

int run_profile(const ProfileArgs& args, const std::vector<std::string>& argv) {
  Shape shape;
  std::string error;
  if (!parse_shape(args.shape, shape, error)) return fail(error);
  xpose::DType dtype;
  if (!parse_dtype_option(args.dtype, dtype, error)) return fail(error);
  std::vector<std::string> kernels;
  if (!resolve_kernels(args.kernels, kernels, error)) return fail(error);
  if (!args.from_csv_path.empty() && !args.save_raw_path.empty())
    return fail("--save-raw stores a live ncu run; it cannot be combined with --from-csv");
  // Profiling takes minutes: find an unwritable output now, not at the end.
  for (const auto& [path, option] :
       {std::pair{args.json_path, "--json"}, std::pair{args.save_raw_path, "--save-raw"}})
    if (!path.empty() && !std::ofstream(path, std::ios::app))
      return fail(std::string("cannot write ") + option + " file '" + path + "'");
  if (!args.from_csv_path.empty()) return profile_from_file(args, shape, dtype, argv);

  std::string ncu;
  if (!locate_ncu(default_ncu_search(args.ncu_path), ncu, error)) return fail(error);
  if (xpose::device_count() == 0)
    return fail(xpose::gpu_backend_built() ? "no GPU device found (profile runs the kernels under ncu)"
                                           : "this build of xpose has no GPU backend");
  xpose::DeviceInfo device;
  if (const xpose::Status s = xpose::device_info(device); !s.ok()) return fail(s.message());
  const std::string self = self_executable();
  if (self.empty()) return fail("cannot find this program's own path (/proc/self/exe)");

  std::string ncu_version = "unknown";
  ProcessResult version;
  if (run_process({ncu, "--version"}, version, error) && version.exit_code == 0) {
    std::istringstream lines(version.out);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) ncu_version = line;
  }

  // Caches are flushed before each pass (ncu's default); clocks stay as the GPU runs them.
  const std::vector<std::string> ncu_args = {"--clock-control", "none", "--profile-from-start", "off", "--csv",
                                             "--page", "raw", "--print-units", "base", "--metrics",
                                             ncu_metric_list()};
  Table t;
  t.shape = shape;
  t.dtype = xpose::dtype_name(dtype);
  std::ostringstream device_line;
  device_line << "Device: " << device.name << " (" << device.arch << ", " << device.sm_count << " SMs, "
              << device.l2_bytes / (1 << 20) << " MiB L2); " << ncu << ": " << ncu_version;
  print_heading(std::cout, t, device_line.str(), "ncu --clock-control none, caches flushed before each pass");

  std::ostringstream raw;
  raw << "# xpose profile --save-raw: ncu's stdout for each kernel, after a '" << kCaptureDelimiter << "K' line\n"
      << "# ncu: " << ncu_version << "\n# device: " << device.name << "\n# shape " << shape_text(shape) << " dtype "
      << t.dtype << "\n";
  ProfileCase pcase;
  pcase.dtype = t.dtype;
  pcase.rows = shape.rows;
  pcase.cols = shape.cols;
  pcase.element_bytes = xpose::dtype_size(dtype);
  pcase.fallback_peak_gbps = device.theoretical_gbps;
  const auto save_capture = [&](const std::string& kernel, const std::string& out) {
    raw << kCaptureDelimiter << kernel << "\n" << out << (out.empty() || out.back() == '\n' ? "" : "\n");
  };
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string& k = kernels[i];
    std::cout << "[" << i + 1 << "/" << kernels.size() << "] " << k << " ..." << std::flush;
    // This process only launches ncu: the child plans, runs and checks, and says on its
    // run-kernel line when the kernel cannot serve the case.
    std::vector<std::string> cmd = {ncu};
    cmd.insert(cmd.end(), ncu_args.begin(), ncu_args.end());
    cmd.insert(cmd.end(), {self, "run-kernel", "--kernel", k, "--shape", shape_text(shape), "--dtype", t.dtype,
                           "--seed", std::to_string(args.seed)});
    ProcessResult pr;
    if (!run_process(cmd, pr, error)) return fail(error);
    const RunOutcome o = interpret_ncu_run(k, pr, pcase);
    if (o.kind == RunOutcome::Kind::failed) {
      std::cout << " failed\n";
      const std::string log = keep_log(k, pr);
      return fail("ncu on kernel " + k + ": " + o.error + (log.empty() ? "" : " (full output: " + log + ")"));
    }
    save_capture(k, pr.out);
    t.records.push_back(o.record);
    if (o.kind == RunOutcome::Kind::skipped)
      std::cout << " skipped: " << o.record.note << "\n";
    else
      std::cout << " " << o.launches << (o.launches == 1 ? " launch" : " launches") << ", verification "
                << o.record.verification << "\n";
  }
  std::cout << "\n";
  print_profile_table(std::cout, t.records);

  if (!args.save_raw_path.empty()) {
    std::ofstream f(args.save_raw_path, std::ios::binary);
    if (!f || !(f << raw.str()) || !f.flush()) return fail("cannot write --save-raw file '" + args.save_raw_path + "'");
  }
  if (!args.json_path.empty()) {
    nlohmann::json j = table_json(t, argv, &device);
    std::vector<std::string> command = {ncu};
    command.insert(command.end(), ncu_args.begin(), ncu_args.end());
    command.insert(command.end(), {"xpose", "run-kernel", "--kernel", "<kernel>", "--shape", shape_text(shape),
                                   "--dtype", t.dtype, "--seed", std::to_string(args.seed)});
    j["source"] = {{"ncu", {{"path", ncu}, {"version", ncu_version}, {"command", command}}}};
    if (const xpose::Status s = write_json_file(args.json_path, j, "--json"); !s.ok()) return fail(s.message());
  }
  return exit_code_of(t);
}

}  // namespace xpose_cli
