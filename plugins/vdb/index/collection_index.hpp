// CollectionIndex: one user's records of one vector collection, searchable by cosine. Records
// come in through put() into a table searched by a scan (record_table.hpp). Once the collection
// holds IndexOptions::graph_from records, an indexer (index_pending(), one thread) moves them
// into an HNSW graph (hnswlib), the approximate index, a few at a time; a search asks both the
// graph and the table of records not yet in it, so every record is found from the moment put()
// returns. A record lives in memory once: in the table (its int8 and sign codes) or in the
// graph (its int8 code, vectors/vector_code.hpp). Scores are the int8 codes' cosines.
//
// Filters: the graph's nearest are tested against the filter, asking for more of them until
// `limit` pass; when the filter passes few records (fewer than one in 64 of those seen), every
// record of the graph is tested and the passing ones scored exactly, so `limit` results come
// back whenever that many records match.
//
// Thread-safety: every method may be called from any thread, but index_pending() from one at a
// time. Searches run in parallel with each other; hnswlib cannot search while its graph changes,
// so each graph insertion or deletion holds the graph alone for its moment (under a millisecond
// at 1536 dimensions), and goes before searches that come after it.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "index/record_table.hpp"
#include "index/writer_first_mutex.hpp"
#include "opbase/query.hpp"

namespace opbase::vdb {

struct IndexOptions {
  size_t graph_from = 150000;   // records at which a collection gets its graph
  size_t links = 16;            // HNSW M: neighbours per node
  size_t build_breadth = 100;   // HNSW ef_construction
  size_t search_breadth = 200;  // HNSW ef: candidates a search keeps (at least `limit`)
};

class CollectionIndex {
 public:
  CollectionIndex(size_t dimensions, IndexOptions options);
  ~CollectionIndex();

  size_t dimensions() const { return dimensions_; }
  size_t size() const;     // records
  size_t pending() const;  // records the graph does not hold yet
  bool contains(std::string_view key) const;

  // Adds the record `key`, or replaces the one of that key (see RecordTable::put).
  void put(const std::string& key, std::span<const float> unit_vector, nlohmann::json fields);
  // Removes the record `key`; false when there was none.
  bool remove(std::string_view key);

  // Moves up to `max` pending records into the graph, when the collection is large enough to
  // have one; returns how many moved.
  size_t index_pending(size_t max);

  // As RecordTable::best, over every record.
  std::vector<Hit> best(std::span<const float> unit_query, size_t limit, const query::Match* filter,
                        float min_score) const;

 private:
  struct Entry {
    std::string key;
    nlohmann::json fields;
  };
  // hnswlib's graph and its space. hnswlib's headers define variables, so only
  // collection_index.cpp may include them: the graph is known here by name only.
  struct Graph;

  void grow_graph(size_t needed);
  // `query`: the code of the unit query (vectors/vector_code.hpp).
  std::vector<Hit> graph_best(const std::byte* query, size_t limit, const query::Match* filter,
                              float min_score) const;
  std::vector<Hit> graph_scan(const std::byte* query, size_t limit, const query::Match& filter,
                              float min_score) const;

  const size_t dimensions_;
  const IndexOptions options_;
  RecordTable table_;  // records not in the graph

  // Shared by searches; exclusive for every change to the graph and the entries.
  mutable WriterFirstMutex graph_mutex_;
  std::unique_ptr<Graph> graph_;
  std::unique_ptr<Entry[]> entries_;  // by graph label; capacity: the graph's
  size_t entry_count_ = 0;

  // The maps below and every change but the indexer's insertions into the graph, which take the
  // graph lock alone (index_pending() runs on one thread at a time).
  mutable std::mutex change_mutex_;
  std::unordered_map<std::string, size_t> in_graph_;  // key -> label, live records only
  std::unordered_set<std::string> being_indexed_;     // keys the indexer is adding now
  std::unordered_set<std::string> superseded_;        // of those, put or removed meanwhile
};

}  // namespace opbase::vdb
