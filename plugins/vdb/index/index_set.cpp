#include "index/index_set.hpp"

namespace opbase::vdb {

// A separator no project id, user key or collection name holds, so a user's collections are
// one range of the map.
constexpr char kSeparator = '\x1f';

std::string IndexSet::key_of(std::string_view project, std::string_view user,
                             std::string_view name) {
  std::string key;
  key.reserve(project.size() + user.size() + name.size() + 2);
  key.append(project).push_back(kSeparator);
  key.append(user).push_back(kSeparator);
  key.append(name);
  return key;
}

std::shared_ptr<OpenCollection> IndexSet::find(std::string_view project, std::string_view user,
                                               std::string_view name) const {
  const std::shared_lock lock(mutex_);
  const auto found = collections_.find(key_of(project, user, name));
  return found == collections_.end() ? nullptr : found->second;
}

std::shared_ptr<OpenCollection> IndexSet::open(std::string_view project,
                                               const CollectionInfo& info) {
  const std::string key = key_of(project, info.user, info.name);
  {
    const std::shared_lock lock(mutex_);
    if (const auto found = collections_.find(key); found != collections_.end()) {
      found->second->set_model_version(info.model_version);
      return found->second;
    }
  }
  const std::unique_lock lock(mutex_);
  auto& slot = collections_[key];
  if (!slot) slot = std::make_shared<OpenCollection>(info, options_);
  return slot;
}

size_t IndexSet::user_records(std::string_view project, std::string_view user) const {
  std::string prefix = key_of(project, user, "");
  const std::shared_lock lock(mutex_);
  size_t records = 0;
  for (auto it = collections_.lower_bound(prefix);
       it != collections_.end() && it->first.starts_with(prefix); ++it) {
    records += it->second->index.size();
  }
  return records;
}

std::vector<std::shared_ptr<OpenCollection>> IndexSet::snapshot() const {
  const std::shared_lock lock(mutex_);
  std::vector<std::shared_ptr<OpenCollection>> all;
  all.reserve(collections_.size());
  for (const auto& [key, collection] : collections_) all.push_back(collection);
  return all;
}

size_t IndexSet::index_some(size_t max) {
  size_t moved = 0;
  for (const auto& collection : snapshot()) {
    if (moved >= max) break;
    moved += collection->index.index_pending(max - moved);
  }
  return moved;
}

IndexSet::Totals IndexSet::totals() const {
  Totals totals;
  for (const auto& collection : snapshot()) {
    ++totals.collections;
    const size_t size = collection->index.size();
    totals.records += size;
    if (size >= options_.graph_from) totals.pending += collection->index.pending();
  }
  return totals;
}

}  // namespace opbase::vdb
