// ProjectSecret: one random 32-byte secret per project that a plugin keeps in its own store (one
// document, `_key` given, in a collection given), made on first use and read back after a
// restart or by another daemon sharing the store, so what one daemon signed with it, every
// daemon checks. The file plugin signs its download URLs with one, the captcha plugin its
// challenges. Held in memory once read.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase {

class ProjectSecret {
 public:
  // `key` is the document's `_key`; keys are unique across the whole store, so it should name
  // the plugin ("file_url_secret").
  ProjectSecret(const DocumentStore& store, std::string collection, std::string key)
      : store_(store), collection_(std::move(collection)), key_(std::move(key)) {}

  // The raw bytes of `project`'s secret, made and stored when it has none yet.
  Result<std::string> of(std::string_view project);

 private:
  Result<std::string> load_or_make(std::string_view project) const;

  const DocumentStore& store_;
  const std::string collection_;
  const std::string key_;
  std::mutex mutex_;
  std::map<std::string, std::string, std::less<>> secrets_;
};

}  // namespace opbase
