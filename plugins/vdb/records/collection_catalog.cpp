#include "records/collection_catalog.hpp"

#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

constexpr std::string_view kCatalogCollection = "collections";

std::string catalog_key(std::string_view user, std::string_view name) {
  return std::string(user) + ":" + std::string(name);
}

CollectionInfo info_of(const json& doc) {
  CollectionInfo info;
  info.user = doc.value("_userkey", "");
  info.name = doc.value("name", "");
  info.dimensions = doc.value("dimensions", size_t{0});
  info.created_at = doc.value("_created_at", "");
  if (const auto model = doc.find("model_version"); model != doc.end() && model->is_string()) {
    info.model_version = model->get<std::string>();
  }
  return info;
}

Status mismatch(std::string_view reason, const json& expected, const json& provided) {
  const std::string what = reason == "dimensions" ? "dimensions" : "embedding model";
  return Status::validation(
      "the collection's records have " + what + " " + expected.dump() + ", not " + provided.dump(),
      {{"reason", reason},
       {"expected_" + std::string(reason), expected},
       {"provided_" + std::string(reason), provided}});
}

}  // namespace

Result<std::optional<CollectionInfo>> CollectionCatalog::find(std::string_view project,
                                                              std::string_view user,
                                                              std::string_view name) const {
  auto found = find_by_key(store_, project, kCatalogCollection, catalog_key(user, name));
  if (!found) return found.status();
  if (!*found) return std::optional<CollectionInfo>();
  return std::optional<CollectionInfo>(info_of(**found));
}

Result<CollectionInfo> CollectionCatalog::claim(std::string_view project, std::string_view user,
                                                std::string_view name, size_t dimensions,
                                                const std::optional<std::string>& model,
                                                int64_t now_ms) const {
  const std::string key = catalog_key(user, name);
  auto known = find(project, user, name);
  if (!known) return known.status();
  if (!*known) {
    json doc = {{"_key", key},
                {"_userkey", user},
                {"_created_at", iso_time(now_ms)},
                {"name", name},
                {"dimensions", dimensions},
                {"model_version", model ? json(*model) : json()}};
    Status inserted = store_.insert(project, {std::string(kCatalogCollection), {doc}});
    if (inserted) return info_of(doc);
    if (inserted.code() != store::kDuplicateKey) return inserted;
    known = find(project, user, name);  // another call made it first
    if (!known) return known.status();
    if (!*known) return Status::internal("vdb: a collection's record vanished while claimed");
  }
  CollectionInfo info = **known;
  if (info.dimensions != dimensions) return mismatch("dimensions", info.dimensions, dimensions);
  if (!model) return info;
  if (info.model_version) {
    if (*info.model_version != *model)
      return mismatch("model_version", *info.model_version, *model);
    return info;
  }
  // The first embedded records of a collection that held given vectors only: the model is set
  // once, by whichever call gets there first.
  auto set = update_matched(store_, project, kCatalogCollection,
                            {{"_key", key}, {"model_version", nullptr}},
                            set_fields({{"model_version", *model}}));
  if (!set) return set.status();
  if (*set) {
    info.model_version = model;
    return info;
  }
  return claim(project, user, name, dimensions, model, now_ms);  // someone else set it: check
}

Result<std::vector<CollectionInfo>> CollectionCatalog::all(std::string_view project) const {
  std::vector<CollectionInfo> out;
  store::FindRequest find;
  find.collection = std::string(kCatalogCollection);
  find.scope = store::Scope::everyone();
  find.sort = {{{"_key", {"_key"}}, false}};
  find.limit = 1000;
  for (;;) {
    find.offset = static_cast<int64_t>(out.size());
    auto page = store_.find(project, find);
    if (!page) return page.status();
    for (const json& doc : page->documents) out.push_back(info_of(doc));
    if (page->documents.size() < static_cast<size_t>(find.limit)) return out;
  }
}

Result<CatalogPage> CollectionCatalog::page(std::string_view project, std::string_view user,
                                            int64_t limit, int64_t offset) const {
  store::FindRequest find;
  find.collection = std::string(kCatalogCollection);
  find.scope = store::Scope::everyone();
  if (!user.empty()) find.match = match_of({{"_userkey", user}});
  find.sort = {{{"_created_at", {"_created_at"}}, true}};
  find.limit = limit;
  find.offset = offset;
  find.with_total = true;
  auto found = store_.find(project, find);
  if (!found) return found.status();
  CatalogPage page;
  for (const json& doc : found->documents) page.collections.push_back(info_of(doc));
  page.total = found->total;
  return page;
}

}  // namespace opbase::vdb
