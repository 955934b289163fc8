// The header every xpose JSON result file opens with (tool, schema, git commit, argv, device), and
// the one way the CLI writes a JSON file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "xpose/xpose.hpp"

namespace xpose_cli {

// The git commit the binary was built from ("unknown" outside a checkout).
const char* git_commit();

// Device properties as stored in result files.
nlohmann::json device_json(const xpose::DeviceInfo& device);

// {schema_version, tool, git_commit, timestamp_utc, argv, device}. `device` null: the host CPU.
nlohmann::json result_header(const std::string& tool, int schema_version, const std::vector<std::string>& argv,
                             const xpose::DeviceInfo* device);

// Writes `j` (indented) to `path`; `option` names the flag in the error message ("--json").
xpose::Status write_json_file(const std::string& path, const nlohmann::json& j, const std::string& option);

}  // namespace xpose_cli
