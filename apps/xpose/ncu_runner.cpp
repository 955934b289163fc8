// Locating ncu and running it as a child process whose stdout and stderr land in temporary files.
#include "ncu_runner.hpp"

#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace xpose_cli {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A temporary file for one captured stream; removed when this goes out of scope.
class TempFile {
 public:
  bool create(std::string& error) {
    std::string dir = env_or_empty("TMPDIR");
    if (dir.empty()) dir = "/tmp";
    std::string pattern = dir + "/xpose-profile-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) {
      error = "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
      return false;
    }
    ::close(fd);
    path_ = buf.data();
    return true;
  }
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

NcuSearch default_ncu_search(const std::string& option_path) {
  NcuSearch s;
  if (!option_path.empty()) {
    s.explicit_path = option_path;
    s.explicit_origin = "--ncu";
  } else if (!env_or_empty("XPOSE_NCU").empty()) {
    s.explicit_path = env_or_empty("XPOSE_NCU");
    s.explicit_origin = "XPOSE_NCU";
  }
  s.path_env = env_or_empty("PATH");
  const std::string cuda_home = env_or_empty("CUDA_HOME");
  if (!cuda_home.empty() && cuda_home != "/usr/local/cuda") s.fallbacks.push_back(cuda_home + "/bin/ncu");
  s.fallbacks.push_back("/usr/local/cuda/bin/ncu");
  s.fallbacks.push_back("/usr/local/cuda-*/bin/ncu");
  s.fallbacks.push_back("/opt/nvidia/nsight-compute/*/ncu");
  return s;
}

bool locate_ncu(const NcuSearch& search, std::string& path, std::string& error) {
  if (!search.explicit_path.empty()) {
    if (is_executable_file(search.explicit_path)) {
      path = search.explicit_path;
      return true;
    }
    if (search.explicit_path.find('/') == std::string::npos) {  // a bare name: look it up in PATH
      std::stringstream dirs(search.path_env);
      std::string dir;
      while (std::getline(dirs, dir, ':'))
        if (is_executable_file(dir + "/" + search.explicit_path)) {
          path = dir + "/" + search.explicit_path;
          return true;
        }
    }
    error = "Nsight Compute not found: " + search.explicit_origin + " '" + search.explicit_path +
            "' is not an executable file";
    return false;
  }
  std::stringstream dirs(search.path_env);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/ncu";
    if (is_executable_file(candidate)) {
      path = candidate;
      return true;
    }
  }
  for (const std::string& pattern : search.fallbacks) {
    glob_t g{};
    if (::glob(pattern.c_str(), 0, nullptr, &g) == 0) {
      // glob sorts its matches: walk back from the last (the highest version) to an executable one.
      for (std::size_t i = g.gl_pathc; i-- > 0;)
        if (is_executable_file(g.gl_pathv[i])) {
          path = g.gl_pathv[i];
          ::globfree(&g);
          return true;
        }
    }
    ::globfree(&g);
  }
  std::string looked = "PATH";
  for (const std::string& pattern : search.fallbacks) looked += ", " + pattern;
  error = "Nsight Compute (ncu) not found (looked in " + looked + "); install it or set XPOSE_NCU=/path/to/ncu";
  return false;
}

bool run_process(const std::vector<std::string>& argv, ProcessResult& result, std::string& error) {
  if (argv.empty()) {
    error = "run_process: no program";
    return false;
  }
  TempFile out, err;
  if (!out.create(error) || !err.create(error)) return false;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path().c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path().c_str(), O_WRONLY | O_TRUNC, 0);

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The parent's environment with LC_ALL=C: ncu formats numbers by the locale.
  std::vector<std::string> env_strings;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (std::strncmp(*e, "LC_ALL=", 7) != 0) env_strings.emplace_back(*e);
  env_strings.emplace_back("LC_ALL=C");
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return false;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      error = "waiting for " + argv[0] + ": " + std::strerror(errno);
      return false;
    }
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out.path());
  result.err = slurp(err.path());
  return true;
}

std::string self_executable() {
  std::vector<char> buf(4096);
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return "";
  return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace xpose_cli
