// UrlSecrets: each project's key for the local backend's signed URLs (urls/signed_url.hpp), 32
// random bytes made on the project's first upload and kept in its store (collection `file_keys`,
// one document `_key` = "file_url_secret"), like the project's token signing keys, so the URLs
// a daemon signed still hold after a restart. Held in memory once read.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::file {

class UrlSecrets {
 public:
  explicit UrlSecrets(const DocumentStore& store) : store_(store) {}

  // The raw bytes of `project`'s secret, made and stored when it has none yet.
  Result<std::string> of(std::string_view project);

 private:
  Result<std::string> load_or_make(std::string_view project);

  const DocumentStore& store_;
  std::mutex mutex_;
  std::map<std::string, std::string, std::less<>> secrets_;
};

}  // namespace opbase::file
