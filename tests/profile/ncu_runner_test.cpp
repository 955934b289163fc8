// Finding ncu (explicit path, PATH, versioned toolkit folders) and running a child with captured output.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "ncu_runner.hpp"

namespace xpose_cli {
namespace {

// A scratch folder for this test process, removed with everything in it afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = ::testing::TempDir() + "/xpose_ncu_XXXXXX";
    path_ = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~ScratchDir() {
    if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
  }
  const std::string& path() const { return path_; }
  // Creates `rel` (and its folders) as an executable shell script.
  std::string make_executable(const std::string& rel) const {
    const std::string full = path_ + "/" + rel;
    std::system(("mkdir -p \"$(dirname '" + full + "')\"").c_str());
    std::ofstream(full) << "#!/bin/sh\nexit 0\n";
    ::chmod(full.c_str(), 0755);
    return full;
  }

 private:
  std::string path_;
};

TEST(NcuLocate, ExplicitPathMustBeAnExecutable) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  NcuSearch s;
  s.explicit_path = dir.path() + "/missing/ncu";
  s.explicit_origin = "XPOSE_NCU";
  s.path_env = "/usr/bin:/bin";
  std::string path, error;
  EXPECT_FALSE(locate_ncu(s, path, error));
  EXPECT_NE(error.find("XPOSE_NCU"), std::string::npos) << error;
  EXPECT_NE(error.find("missing/ncu"), std::string::npos) << error;

  s.explicit_path = dir.make_executable("tools/ncu");
  ASSERT_TRUE(locate_ncu(s, path, error)) << error;
  EXPECT_EQ(path, s.explicit_path);
}

TEST(NcuLocate, SearchesPathThenFallbacksNewestFirst) {
  ScratchDir dir;
  NcuSearch s;
  s.path_env = dir.path() + "/empty:" + dir.path() + "/bin";
  s.fallbacks = {dir.path() + "/nsight-compute/*/ncu"};
  std::string path, error;
  EXPECT_FALSE(locate_ncu(s, path, error));
  EXPECT_NE(error.find("XPOSE_NCU"), std::string::npos) << error;

  dir.make_executable("nsight-compute/2024.1.0/ncu");
  const std::string newest = dir.make_executable("nsight-compute/2025.3.1/ncu");
  ASSERT_TRUE(locate_ncu(s, path, error)) << error;
  EXPECT_EQ(path, newest);

  const std::string on_path = dir.make_executable("bin/ncu");
  ASSERT_TRUE(locate_ncu(s, path, error)) << error;
  EXPECT_EQ(path, on_path);
}

TEST(RunProcess, CapturesBothStreamsTheStatusAndSetsTheCLocale) {
  ProcessResult r;
  std::string error;
  ASSERT_TRUE(run_process({"/bin/sh", "-c", "echo out; echo \"$LC_ALL\" >&2; exit 3"}, r, error)) << error;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "C\n");
  EXPECT_FALSE(run_process({"/nonexistent/program"}, r, error));
  EXPECT_NE(error.find("/nonexistent/program"), std::string::npos) << error;
}

TEST(SelfExecutable, IsThisTestBinary) {
  const std::string self = self_executable();
  EXPECT_NE(self.find("xpose_profile_tests"), std::string::npos) << self;
}

}  // namespace
}  // namespace xpose_cli
