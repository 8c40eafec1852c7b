// The automatic index policy (index_advisor.hpp, docs/query.md#automatic-indexes) on MongoDB.
// A path gets a MongoDB index {ns, collection, owner, state, doc.<path>} named "auto_<path>",
// the shape of a declared one, so it serves every collection that queries the path. MongoDB
// reports no documents read per query, so a query counts as costly for a field when the scope
// it reads without an index (the caller's documents of the collection in that state) holds at
// least costly_rows documents: the server's count of it, kept for a minute. The indexes made are
// found again by their names when the store opens; their last use is kept in memory, so after a
// restart an index is dropped only once unused for the whole policy time again.
// Thread-safety: every method may be called from any thread; the creation and the drops run on the
// indexer's own thread, so no request waits for an index build.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "store/index_advisor.hpp"
#include "store/project_store.hpp"

namespace opbase::host::mongo {

class ClientPool;

class AutoIndexer {
 public:
  AutoIndexer(std::shared_ptr<ClientPool> pool, std::string database, AutoIndexPolicy policy,
              const std::vector<IndexSpec>& declared);
  ~AutoIndexer();  // stops the thread (a command under way finishes first)
  AutoIndexer(const AutoIndexer&) = delete;
  AutoIndexer& operator=(const AutoIndexer&) = delete;

  // Reads the names of the automatic indexes the database has, then starts the thread.
  Status start();

  // After a find or count that succeeded: marks the automatic indexes its conditions could use,
  // and notes for the advisor the fields it filtered or sorted on without an index.
  void note(std::string_view ns, std::string_view collection, const store::Scope& scope,
            store::State state, const query::Match& match, const std::vector<query::SortKey>& sort,
            std::chrono::steady_clock::time_point started);

  // The admin side (ProjectStore::indexes, add_index, drop_index) in MongoDB's terms. A path
  // index serves every collection, so each collection lists the automatic and administrators'
  // ones beside its declared ones; each is "ready" (MongoDB answers createIndexes once built)
  // and `multikey` is null (MongoDB keeps it to itself). An administrator's index is named
  // "admin_<path>", built before add answers, and never dropped by the policy.
  nlohmann::json list(std::string_view ns, std::string_view collection) const;
  Result<nlohmann::json> add(std::string_view ns, std::string_view collection,
                             const query::FieldPath& path);
  Status drop(std::string_view ns, std::string_view collection, std::string_view path);

 private:
  void loop();
  void create(const std::string& ns, const std::string& collection, const std::string& path);
  void drop_unused(int64_t now_ms);
  int64_t scope_size(std::string_view ns, std::string_view collection, const store::Scope& scope,
                     store::State state);

  std::shared_ptr<ClientPool> pool_;
  std::string database_;
  IndexAdvisor advisor_;
  std::set<std::string> declared_;  // paths with a declared index
  std::vector<IndexSpec> declared_specs_;

  mutable std::mutex mutex_;
  std::map<std::string, int64_t> last_used_ms_;  // automatic index name -> last use
  std::map<std::string, std::string> paths_;     // automatic or admin index name -> its path
  std::set<std::string> admin_names_;
  std::map<std::string, std::pair<int64_t, int64_t>> sizes_;  // scope -> (size, when ms)
  std::vector<std::tuple<std::string, std::string, std::string>> requested_;  // ns, coll, path
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace opbase::host::mongo
