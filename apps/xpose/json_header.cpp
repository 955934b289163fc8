// The shared header of xpose result files and the JSON file writer.
#include "json_header.hpp"

#include <chrono>
#include <ctime>
#include <fstream>

#include "git_commit.inc"  // XPOSE_GIT_COMMIT, written at build time (cmake/git_commit.cmake)

namespace xpose_cli {
namespace {

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

const char* git_commit() { return XPOSE_GIT_COMMIT; }

nlohmann::json device_json(const xpose::DeviceInfo& d) {
  return {{"vendor", d.vendor},
          {"name", d.name},
          {"arch", d.arch},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"global_memory_bytes", d.global_memory_bytes},
          {"memory_bus_width_bits", d.memory_bus_width_bits},
          {"memory_clock_khz", d.memory_clock_khz},
          {"theoretical_gbps", d.theoretical_gbps},
          {"runtime_version", d.runtime_version},
          {"driver_version", d.driver_version}};
}

nlohmann::json result_header(const std::string& tool, int schema_version, const std::vector<std::string>& argv,
                             const xpose::DeviceInfo* device) {
  nlohmann::json j;
  j["schema_version"] = schema_version;
  j["tool"] = tool;
  j["git_commit"] = git_commit();
  j["timestamp_utc"] = utc_now();
  j["argv"] = argv;
  j["device"] = device != nullptr ? device_json(*device) : nlohmann::json{{"vendor", "CPU"}, {"name", "host CPU"}};
  return j;
}

xpose::Status write_json_file(const std::string& path, const nlohmann::json& j, const std::string& option) {
  std::ofstream f(path);
  if (!f) return xpose::Status(xpose::StatusCode::invalid_argument, "cannot write " + option + " file '" + path + "'");
  f << j.dump(2) << "\n";
  f.flush();
  return f ? xpose::Status::ok_status()
           : xpose::Status(xpose::StatusCode::invalid_argument, "failed writing " + option + " file '" + path + "'");
}

}  // namespace xpose_cli
