// CollectionCatalog: each user's vector collections in the project's store, one document each
// ({_key: "<user>:<name>", _userkey, name, dimensions, model_version, _created_at}). A collection
// exists for a user from their first insert into it, and takes the dimensions of that insert's
// vectors and the model of its first embedded record (docs/api.md#vector-collections); several
// daemons agree on both because the first one to store the document wins.
//
// Thread-safety: every method may be called from any thread (DocumentStore calls).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

struct CollectionInfo {
  std::string user;
  std::string name;
  size_t dimensions = 0;
  std::optional<std::string> model_version;  // none until a record is embedded
  std::string created_at;                    // ISO 8601, when the first insert made it
};

struct CatalogPage {
  std::vector<CollectionInfo> collections;
  int64_t total = 0;  // the collections matching, beyond the page
};

class CollectionCatalog {
 public:
  explicit CollectionCatalog(const DocumentStore& store) : store_(store) {}

  // The user's collection `name`, or nullopt when they never wrote to it.
  Result<std::optional<CollectionInfo>> find(std::string_view project, std::string_view user,
                                             std::string_view name) const;

  // The collection records of an insert will go to: created with `dimensions` and `model` when
  // new, else checked against them (`model` none: vectors given as they are, which have no
  // model). A mismatch is VALIDATION_ERROR with both values in details (reason "dimensions" or
  // "model_version").
  Result<CollectionInfo> claim(std::string_view project, std::string_view user,
                               std::string_view name, size_t dimensions,
                               const std::optional<std::string>& model, int64_t now_ms) const;

  // Every collection of the project (loading at start).
  Result<std::vector<CollectionInfo>> all(std::string_view project) const;

  // One page of the project's collections, newest first; `user` empty: every user's.
  Result<CatalogPage> page(std::string_view project, std::string_view user, int64_t limit,
                           int64_t offset) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::vdb
