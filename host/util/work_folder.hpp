// WorkFolder: a fresh folder made with mkdtemp(3) for the files of one command (the backup and
// restore commands), removed with everything in it when the object goes, however the command
// ends but by a kill. Thread-safety: one owner.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace opbase::host {

class WorkFolder {
 public:
  // `pattern` ends in "XXXXXX", which mkdtemp replaces; path() is empty when it failed (errno
  // says why).
  explicit WorkFolder(std::string pattern) : path_(std::move(pattern)) {
    if (::mkdtemp(path_.data()) == nullptr) path_.clear();
  }
  ~WorkFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace opbase::host
