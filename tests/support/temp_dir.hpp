// TempDir: a fresh directory under the system temp folder, removed with everything in it when the
// object goes. path() is empty when it could not be made.
#pragma once

#include <string>
#include <string_view>

namespace opbase::test {

class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "opbase-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace opbase::test
