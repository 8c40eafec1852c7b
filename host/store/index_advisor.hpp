// When a store builds an index by itself, and when it drops one (docs/query.md, "Automatic
// indexes"). Users of a schema-free store query fields nobody declared; the store notices the
// fields that queries keep reading many documents for and indexes them, as MongoDB's
// administrators or Firestore's single-field indexes would, and drops an automatic index that
// queries stopped using. The advisor is the policy alone, the same for every driver: the driver
// reports each query's cost and builds, uses and drops the indexes.
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"

namespace opbase::host {

struct AutoIndexPolicy {
  bool enabled = true;
  // A query is costly for a field when, filtering or sorting on it with no index on it, it read
  // at least `costly_rows` documents; the field gets an index at its `after_queries`-th.
  int after_queries = 3;
  int64_t costly_rows = 1000;
  // An automatic index no query used for this long is dropped.
  int64_t drop_unused_after_s = 7 * 24 * 3600;
  // Automatic indexes per project at most (declared ones do not count); beyond it, fields are
  // noticed but not indexed.
  int max_per_project = 16;
};

// What the advisor saw of one field.
struct FieldCost {
  int64_t costly_queries = 0;
  int64_t rows_read = 0;
  int64_t elapsed_us = 0;
};

// The fields an index would serve in a query (docs/query.md, "Automatic indexes"): each path of
// an equality, range or $in condition whose operands are numbers, strings or (equality, $in)
// booleans, and the path of a sort by one field, `_key` and `_created_at` left out (the stores
// file them apart). `indexed` says which paths have an index already: those are left out too.
std::vector<std::string> index_candidates(const query::Match& match,
                                          const std::vector<query::SortKey>& sort,
                                          const std::function<bool(const std::string&)>& indexed);

class IndexAdvisor {
 public:
  explicit IndexAdvisor(AutoIndexPolicy policy) : policy_(policy) {}
  const AutoIndexPolicy& policy() const { return policy_; }

  // Notes one query of (ns, collection) that read `rows_read` documents in `elapsed_us`;
  // `fields` are the paths it filtered or sorted on that no index answered. Returns the fields
  // whose costly queries have just reached `after_queries`: each is returned once, then
  // forgotten, so a field whose index is later dropped can earn one again.
  std::vector<std::string> note(std::string_view ns, std::string_view collection,
                                const std::vector<std::string>& fields, int64_t rows_read,
                                int64_t elapsed_us);

  // The costs noted so far for the fields of (ns, collection) not yet returned by note().
  std::map<std::string, FieldCost> costs(std::string_view ns, std::string_view collection) const;
  // The same as the admin ops list them: [{"field", "costly_queries", "rows_read", "time_ms"}].
  nlohmann::json noticed(std::string_view ns, std::string_view collection) const;

 private:
  // Fields noted at most; past it the counts start again, so memory stays bounded whatever
  // the queries.
  static constexpr std::size_t kMaxFields = 4096;

  AutoIndexPolicy policy_;
  mutable std::mutex mutex_;
  std::map<std::string, FieldCost, std::less<>> fields_;  // key: ns \0 collection \0 path
};

}  // namespace opbase::host
