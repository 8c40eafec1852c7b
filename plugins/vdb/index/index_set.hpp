// IndexSet: every vector collection this daemon holds in memory, one OpenCollection per user and
// collection of each project, made when the collection is first loaded, written or searched.
// index_some() is the indexer's step: it moves records of collections big enough into their
// graphs (collection_index.hpp), a few at a time across all collections.
//
// Thread-safety: every method may be called from any thread; index_some() from one at a time.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "index/collection_index.hpp"
#include "records/collection_catalog.hpp"

namespace opbase::vdb {

class OpenCollection {
 public:
  OpenCollection(const CollectionInfo& info, IndexOptions options)
      : index(info.dimensions, options), model_(info.model_version) {}

  CollectionIndex index;
  // Held by a write across its store change and its index change, so a delete never passes an
  // insert of the same records between the two.
  std::mutex write_mutex;

  std::optional<std::string> model_version() const {
    const std::lock_guard lock(model_mutex_);
    return model_;
  }
  void set_model_version(const std::optional<std::string>& model) {
    const std::lock_guard lock(model_mutex_);
    if (model) model_ = model;
  }

 private:
  mutable std::mutex model_mutex_;
  std::optional<std::string> model_;
};

class IndexSet {
 public:
  explicit IndexSet(IndexOptions options) : options_(options) {}

  // The collection, or null when this daemon does not hold it.
  std::shared_ptr<OpenCollection> find(std::string_view project, std::string_view user,
                                       std::string_view name) const;
  // The collection, made empty from `info` when this daemon does not hold it yet.
  std::shared_ptr<OpenCollection> open(std::string_view project, const CollectionInfo& info);

  // The records of all of a user's collections.
  size_t user_records(std::string_view project, std::string_view user) const;

  // Moves up to `max` records in all into graphs; answers how many moved.
  size_t index_some(size_t max);

  struct Totals {
    size_t collections = 0;
    size_t records = 0;
    size_t pending = 0;  // records of collections with a graph that it does not hold yet
  };
  Totals totals() const;

 private:
  static std::string key_of(std::string_view project, std::string_view user, std::string_view name);
  std::vector<std::shared_ptr<OpenCollection>> snapshot() const;

  const IndexOptions options_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<OpenCollection>, std::less<>> collections_;
};

}  // namespace opbase::vdb
