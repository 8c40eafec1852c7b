#include "index/collection_index.hpp"

// hnswlib's hand-written SIMD is not needed (CodeSpace brings its own distance), and its search
// loop's prefetches read one link past the end of a full neighbour list (a 4-byte read beyond
// the allocation, which AddressSanitizer reports): without manual vectorisation neither is
// compiled.
#define NO_MANUAL_VECTORIZATION
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <shared_mutex>
#include <unordered_map>

#include "index/code_space.hpp"
#include "vectors/vector_code.hpp"

namespace opbase::vdb {
namespace {

// The graph's random levels come from this seed, so a rebuild from the same records in the same
// order gives the same graph.
constexpr size_t kGraphSeed = 100;
// A filter passing fewer than one in this many of the graph's nearest makes the search test
// every record instead of asking the graph for ever more.
constexpr size_t kSelectiveFilter = 64;

}  // namespace

// The graph and the space it measures with. The space is declared first, so it is made before
// and outlives the graph, which keeps only its distance function and parameter.
struct CollectionIndex::Graph {
  Graph(size_t dimensions, size_t capacity, const IndexOptions& options)
      : space(dimensions),
        hnsw(&space, capacity, options.links, options.build_breadth, kGraphSeed) {}
  CodeSpace space;
  hnswlib::HierarchicalNSW<float> hnsw;
};

CollectionIndex::CollectionIndex(size_t dimensions, IndexOptions options)
    : dimensions_(dimensions), options_(options), table_(dimensions) {}

CollectionIndex::~CollectionIndex() = default;

size_t CollectionIndex::size() const {
  const std::shared_lock lock(graph_mutex_);
  const size_t in_graph = graph_ ? graph_->hnsw.cur_element_count - graph_->hnsw.num_deleted_ : 0;
  return in_graph + table_.size();
}

size_t CollectionIndex::pending() const { return table_.size(); }

bool CollectionIndex::contains(std::string_view key) const {
  const std::lock_guard change(change_mutex_);
  return in_graph_.contains(std::string(key)) || table_.contains(key);
}

void CollectionIndex::put(const std::string& key, std::span<const float> unit_vector,
                          nlohmann::json fields) {
  const std::lock_guard change(change_mutex_);
  if (const auto found = in_graph_.find(key); found != in_graph_.end()) {
    const std::unique_lock lock(graph_mutex_);
    graph_->hnsw.markDelete(found->second);
    in_graph_.erase(found);
  }
  if (being_indexed_.contains(key)) superseded_.insert(key);
  table_.put(key, unit_vector, std::move(fields));
}

bool CollectionIndex::remove(std::string_view key) {
  const std::lock_guard change(change_mutex_);
  const std::string name(key);
  bool removed = false;
  if (const auto found = in_graph_.find(name); found != in_graph_.end()) {
    const std::unique_lock lock(graph_mutex_);
    graph_->hnsw.markDelete(found->second);
    in_graph_.erase(found);
    removed = true;
  }
  if (being_indexed_.contains(name)) superseded_.insert(name);
  return table_.remove(key) || removed;
}

void CollectionIndex::grow_graph(size_t needed) {
  const std::unique_lock lock(graph_mutex_);
  if (graph_ && needed <= graph_->hnsw.max_elements_) return;
  // Doubling keeps the moves (hnswlib copies its memory) rare; pages not yet used are not
  // resident.
  const size_t capacity =
      std::max(needed, graph_ ? graph_->hnsw.max_elements_ * 2 : options_.graph_from * 2);
  auto entries = std::make_unique<Entry[]>(capacity);
  std::move(entries_.get(), entries_.get() + entry_count_, entries.get());
  entries_ = std::move(entries);
  if (graph_) {
    graph_->hnsw.resizeIndex(capacity);
    return;
  }
  graph_ = std::make_unique<Graph>(dimensions_, capacity, options_);
  graph_->hnsw.setEf(options_.search_breadth);
}

size_t CollectionIndex::index_pending(size_t max) {
  std::vector<RecordTable::Record> records;
  {
    const std::lock_guard change(change_mutex_);
    if (!graph_ && table_.size() < options_.graph_from) return 0;
    records = table_.records(max);
    for (const auto& record : records) being_indexed_.insert(record.key);
    grow_graph(entry_count_ + records.size());
  }
  size_t moved = 0;
  // hnswlib's searches and changes must not overlap (it locks neither against the other): each
  // insertion holds the graph alone, one record at a time, so a search waits for one insertion at
  // most. The change lock is not held meanwhile, so puts and removes of other records (an
  // insert's, a delete's) never wait for the graph; one of this record, made meanwhile, is seen
  // after and undoes the insertion.
  for (auto& record : records) {
    {
      const std::lock_guard change(change_mutex_);
      if (superseded_.erase(record.key) > 0) {  // its table copy changed or went
        being_indexed_.erase(record.key);
        continue;
      }
    }
    size_t label = 0;
    {
      const std::unique_lock lock(graph_mutex_);
      label = entry_count_++;
      entries_[label] = Entry{record.key, std::move(record.fields)};
      graph_->hnsw.addPoint(record.code.data(), label);
    }
    const std::lock_guard change(change_mutex_);
    being_indexed_.erase(record.key);
    if (superseded_.erase(record.key) > 0) {
      const std::unique_lock lock(graph_mutex_);
      graph_->hnsw.markDelete(label);
      continue;
    }
    in_graph_.emplace(record.key, label);
    table_.remove(record.key);
    ++moved;
  }
  return moved;
}

std::vector<Hit> CollectionIndex::best(std::span<const float> unit_query, size_t limit,
                                       const query::Match* filter, float min_score) const {
  std::vector<Hit> from_table = table_.best(unit_query, limit, filter, min_score);
  std::vector<Hit> from_graph;
  std::vector<std::byte> query(code_size(dimensions_));
  encode(unit_query, query.data());
  {
    const std::shared_lock lock(graph_mutex_);
    if (graph_) from_graph = graph_best(query.data(), limit, filter, min_score);
  }
  if (from_graph.empty()) return from_table;
  // A record being moved may be in both for a moment: keep it once.
  TopHits top(limit);
  std::unordered_map<std::string_view, float> seen;
  for (const auto* hits : {&from_graph, &from_table}) {
    for (const Hit& hit : *hits) {
      if (seen.emplace(hit.key, hit.score).second) top.add(hit.key, hit.score);
    }
  }
  return top.take();
}

std::vector<Hit> CollectionIndex::graph_best(const std::byte* query, size_t limit,
                                             const query::Match* filter, float min_score) const {
  const size_t total = graph_->hnsw.cur_element_count;
  if (total == 0 || limit == 0) return {};
  for (size_t ask = std::max(limit, options_.search_breadth);; ask *= 4) {
    auto nearest = graph_->hnsw.searchKnn(query, std::min(ask, total));
    const size_t seen = nearest.size();
    TopHits top(limit);
    size_t passed = 0;
    float worst = 1;
    for (; !nearest.empty(); nearest.pop()) {
      const auto [distance, label] = nearest.top();
      const float score = 1.0f - distance;
      worst = std::min(worst, score);
      if (score < min_score) continue;
      const Entry& entry = entries_[label];
      if (filter != nullptr && !query::matches(*filter, entry.fields)) continue;
      ++passed;
      top.add(entry.key, score);
    }
    // Done when enough passed, when the graph has no more to give, or when the rest would score
    // under min_score anyway.
    if (passed >= limit || seen < ask || ask >= total || worst < min_score) return top.take();
    if (filter != nullptr && passed * kSelectiveFilter < seen) {
      return graph_scan(query, limit, *filter, min_score);
    }
  }
}

std::vector<Hit> CollectionIndex::graph_scan(const std::byte* query, size_t limit,
                                             const query::Match& filter, float min_score) const {
  TopHits top(limit);
  const size_t total = graph_->hnsw.cur_element_count;
  for (hnswlib::tableint id = 0; id < total; ++id) {
    if (graph_->hnsw.isMarkedDeleted(id)) continue;
    const Entry& entry = entries_[graph_->hnsw.getExternalLabel(id)];
    if (!query::matches(filter, entry.fields)) continue;
    const auto* code = reinterpret_cast<const std::byte*>(graph_->hnsw.getDataByInternalId(id));
    const float score = code_dot(query, code, dimensions_);
    if (score >= min_score) top.add(entry.key, score);
  }
  return top.take();
}

}  // namespace opbase::vdb
