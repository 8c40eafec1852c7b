// LocalFolder: the local backend's bytes, one file per record under <storage.path>/files:
// <project>/<last two digits of the key>/<key> (the last digits are random, so files spread
// evenly over 256 folders; the first ones are the time).
//
// An upload is written to <project>/.partial/<key>.<random> while its SHA-256 is computed (the
// disk is asked to start writing every few MiB, so the final fsync has little left), then
// fsynced, renamed into place and its folder fsynced: a file at its final path is always whole
// and survives a crash once commit() returned. Partial files a crash left behind are removed at
// start (prepare), when no upload can be running.
//
// Thread-safety: every method may be called from any thread; a Partial belongs to one upload.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/crypto.hpp"
#include "opbase/status.hpp"

namespace opbase::file {

class LocalFolder {
 public:
  explicit LocalFolder(std::string root) : root_(std::move(root)) {}

  // Makes the folder and removes what interrupted uploads left. Before the first upload.
  Status prepare() const;

  std::string path_of(std::string_view project, std::string_view key) const;

  // One upload being written.
  class Partial {
   public:
    ~Partial();  // removes the partial file unless committed
    Partial(const Partial&) = delete;
    Partial& operator=(const Partial&) = delete;

    Status write(std::string_view bytes);
    int64_t size() const { return size_; }
    // Lowercase hex SHA-256 of everything written; once, before commit.
    std::string sha256_hex();
    // fsync, rename to the final path, fsync its folder.
    Status commit();

   private:
    friend class LocalFolder;
    Partial(int fd, std::string temp_path, std::string final_path, Sha256 digest);

    int fd_;
    std::string temp_path_;
    std::string final_path_;
    Sha256 digest_;
    int64_t size_ = 0;
    int64_t flushed_ = 0;  // bytes whose writeback was started (sync_file_range)
    bool committed_ = false;
  };

  Result<std::unique_ptr<Partial>> begin(std::string_view project, std::string_view key) const;

  // The size of the stored file, or nullopt when there is none.
  Result<std::optional<int64_t>> size_of(std::string_view project, std::string_view key) const;

  // Removes the stored file; OK when there is none.
  Status remove(std::string_view project, std::string_view key) const;

 private:
  std::string root_;
};

}  // namespace opbase::file
