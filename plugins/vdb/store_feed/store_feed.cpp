#include "store_feed/store_feed.hpp"

#include "records/record_document.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {

using nlohmann::json;

template <typename Take>
Status StoreFeed::read_all(std::string_view project, RecordStore::Page page, Take take) {
  for (;;) {
    auto documents = records_.page(project, page);
    if (!documents) return documents.status();
    for (const json& stored : *documents) {
      if (Status s = take(stored); !s) return s;
    }
    if (documents->size() < static_cast<size_t>(page.limit)) return Status::ok();
    page.after_key = documents->back().value("_key", "");
  }
}

Result<StoreFeed::Loaded> StoreFeed::load(std::string_view project, int64_t now_ms,
                                          int64_t settle_ms) {
  {
    // Whatever is written while the pages are read is read again by the first refresh.
    const std::lock_guard lock(mutex_);
    refreshed_to_[std::string(project)] = now_ms - settle_ms;
  }
  Loaded loaded;
  auto collections = catalog_.all(project);
  if (!collections) return collections.status();
  for (const CollectionInfo& info : *collections) indexes_.open(project, info);
  loaded.collections = collections->size();
  Status read = read_all(project, {}, [&](const json& stored) -> Status {
    auto put_one = put(project, stored);
    if (!put_one) return put_one.status();
    ++(*put_one ? loaded.records : loaded.unreadable);
    return Status::ok();
  });
  if (!read) return read;
  return loaded;
}

Result<size_t> StoreFeed::refresh(std::string_view project, int64_t now_ms, int64_t settle_ms) {
  RecordStore::Page page;
  {
    const std::lock_guard lock(mutex_);
    page.from_ms = refreshed_to_[std::string(project)];
  }
  page.upto_ms = now_ms - settle_ms;
  if (page.upto_ms <= page.from_ms) return size_t{0};
  size_t changed = 0;
  Status added = read_all(project, page, [&](const json& stored) -> Status {
    auto put_one = put(project, stored);
    if (!put_one) return put_one.status();
    changed += *put_one ? 1 : 0;
    return Status::ok();
  });
  if (!added) return added;
  page.state = store::State::kDeleted;
  Status removed = read_all(project, page, [&](const json& stored) -> Status {
    changed += remove(project, stored) ? 1 : 0;
    return Status::ok();
  });
  if (!removed) return removed;
  const std::lock_guard lock(mutex_);
  refreshed_to_[std::string(project)] = page.upto_ms;
  return changed;
}

Result<bool> StoreFeed::put(std::string_view project, const json& stored) {
  const std::string user = stored.value("_userkey", "");
  const std::string name = stored.value("collection", "");
  const std::string key = stored.value("_key", "");
  auto collection = indexes_.find(project, user, name);
  if (!collection) {
    auto info = catalog_.find(project, user, name);
    if (!info) return info.status();
    if (!*info) return false;  // a record without its collection: not written by this plugin
    collection = indexes_.open(project, **info);
  }
  if (collection->index.contains(key)) return false;
  const auto vector = stored_vector(stored);
  if (!vector || vector->size() != collection->index.dimensions() || norm(*vector) == 0) {
    return false;
  }
  collection->index.put(key, unit(*vector), filter_fields(stored));
  return true;
}

bool StoreFeed::remove(std::string_view project, const json& stored) {
  auto collection =
      indexes_.find(project, stored.value("_userkey", ""), stored.value("collection", ""));
  return collection && collection->index.remove(stored.value("_key", ""));
}

}  // namespace opbase::vdb
