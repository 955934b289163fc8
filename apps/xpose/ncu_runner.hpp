// Finding Nsight Compute (ncu) and running a child process with its output captured (POSIX).
#pragma once

#include <string>
#include <vector>

namespace xpose_cli {

// Where to look for ncu, in order: an explicit path (--ncu or $XPOSE_NCU; when given it is the
// only candidate), each directory of `path_env`, then the `fallbacks` (glob patterns; the last
// match of a pattern wins, so the newest versioned install is preferred).
struct NcuSearch {
  std::string explicit_path;
  std::string explicit_origin;  // "--ncu" or "XPOSE_NCU", for the error message
  std::string path_env;
  std::vector<std::string> fallbacks;
};

// The search this process would make: --ncu (if non-empty), else $XPOSE_NCU, $PATH, then
// $CUDA_HOME/bin, /usr/local/cuda/bin, /usr/local/cuda-*/bin and /opt/nvidia/nsight-compute/*.
NcuSearch default_ncu_search(const std::string& option_path);

// True with the path of an executable ncu; false with a one-line message.
bool locate_ncu(const NcuSearch& search, std::string& path, std::string& error);

struct ProcessResult {
  int exit_code = -1;  // -1: ended by a signal
  std::string out, err;
};

// Runs argv[0] (a path) with `argv`, LC_ALL=C in its environment (so numbers print the same
// everywhere), stdout and stderr captured. False with a message when it could not be started.
bool run_process(const std::vector<std::string>& argv, ProcessResult& result, std::string& error);

// Absolute path of the running executable ("" when unknown).
std::string self_executable();

}  // namespace xpose_cli
