// DocumentStore: the project's document store as a plugin sees it
// (docs/plugin-guide.md#the-document-store). Each call is one host service call (`store.*`)
// carrying the request of store.hpp as JSON; the host runs it on the configured driver (sqlite or
// mongodb) inside the calling plugin's own namespace of collections. Failures are Status values:
// VALIDATION_ERROR for a bad request or change, store::kDuplicateKey for a taken `_key`,
// INTERNAL_ERROR when the store itself fails. Thread-safety: every method may be called from any
// thread, concurrently.
#pragma once

#include <string_view>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/store.hpp"

namespace opbase {

class DocumentStore {
 public:
  explicit DocumentStore(const Host& host) : host_(host) {}

  const Host& host() const { return host_; }

  // All documents or none. store.insert carries documents as text: insert_texts sends them as
  // they are, insert prints each tree first.
  Status insert_texts(std::string_view project, const store::InsertTextRequest& request) const;
  Status insert(std::string_view project, const store::InsertRequest& request) const;
  // store.find returns the page as JSON text: find_text hands it on as it came (for a caller
  // that passes the documents on unchanged), find parses it into trees.
  Result<store::FindTextAnswer> find_text(std::string_view project,
                                          const store::FindRequest& request) const;
  Result<store::FindAnswer> find(std::string_view project, const store::FindRequest& request) const;
  Result<int64_t> count(std::string_view project, const store::CountRequest& request) const;
  Result<store::UpdateAnswer> update(std::string_view project,
                                     const store::UpdateRequest& request) const;
  Result<store::UpsertAnswer> upsert(std::string_view project,
                                     const store::UpsertRequest& request) const;
  Result<store::KeysAnswer> change_state(std::string_view project,
                                         const store::StateRequest& request) const;
  Result<store::KeysAnswer> restore(std::string_view project,
                                    const store::RestoreRequest& request) const;
  Result<int64_t> purge(std::string_view project, const store::PurgeRequest& request) const;
  // Whether anything was ever inserted into the collection (it exists from then on).
  Result<bool> collection_exists(std::string_view project, std::string_view collection) const;
  // Every collection of the plugin anything was ever inserted into, by name.
  Result<std::vector<std::string>> collections(std::string_view project) const;

  // The admin side of indexes (docs/plugin-guide.md#indexes-and-query-plans), each the host's
  // answer as it came: the indexes of a collection and the fields noticed without one; adding
  // an index (the index as listed) and dropping one; how the store reads a find, or with
  // `count` the count of its match. A store that offers none of them answers VALIDATION_ERROR
  // with details.reason "unsupported".
  Result<nlohmann::json> indexes(std::string_view project, std::string_view collection) const;
  Result<nlohmann::json> add_index(std::string_view project, std::string_view collection,
                                   std::string_view field) const;
  Status drop_index(std::string_view project, std::string_view collection,
                    std::string_view field) const;
  Result<nlohmann::json> explain(std::string_view project, const store::FindRequest& request,
                                 bool count) const;

 private:
  const Host& host_;
};

}  // namespace opbase
