// The collection plugin: the document datastore's ops under collection.* (db.* is bound by the
// host), the statement form as collection.statement.
#include <memory>

#include "opbase/sdk.hpp"
#include "ops/collection_ops.hpp"
#include "ops/index_ops.hpp"

namespace {

using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;
using opbase::collection::CollectionOps;
using opbase::collection::IndexOps;

class CollectionPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    auto settings = opbase::collection::Settings::load(host());
    if (!settings) return settings.status();
    ops_ = std::make_unique<CollectionOps>(host(), std::move(*settings));
    using Handler = Result<Reply> (CollectionOps::*)(const Request&);
    const std::pair<const char*, Handler> user_ops[] = {
        {"collection.find", &CollectionOps::find},
        {"collection.update", &CollectionOps::update},
        {"collection.upsert", &CollectionOps::upsert},
        {"collection.count", &CollectionOps::count},
        {"collection.delete", &CollectionOps::remove},
        {"collection.archive", &CollectionOps::archive},
        {"collection.restore", &CollectionOps::restore},
        {"collection.statement", &CollectionOps::statement},
    };
    for (const auto& [name, handler] : user_ops) {
      r.op(name, Access::kUser,
           [this, handler = handler](const Request& req) { return ((*ops_).*handler)(req); });
    }
    // Anonymous insert is possible for listed collections (docs/api.md#anonymous-insert): the
    // op decides.
    r.op("collection.insert", Access::kUserOptional,
         [this](const Request& req) { return ops_->insert(req); });
    // Indexes and query plans are the administrators' (docs/api.md#indexes-and-query-plans).
    index_ops_ = std::make_unique<IndexOps>(host(), ops_->user_query());
    using IndexHandler = Result<Reply> (IndexOps::*)(const Request&);
    const std::pair<const char*, IndexHandler> admin_ops[] = {
        {"collection.index.list", &IndexOps::list},
        {"collection.index.add", &IndexOps::add},
        {"collection.index.drop", &IndexOps::drop},
        {"collection.explain", &IndexOps::explain},
    };
    for (const auto& [name, handler] : admin_ops) {
      r.op(name, Access::kAdmin,
           [this, handler = handler](const Request& req) { return ((*index_ops_).*handler)(req); });
    }
    // Every user's documents, for administrators (docs/api.md#collections-across-users).
    const std::pair<const char*, Handler> across_users[] = {
        {"collection.admin.list", &CollectionOps::list_collections},
        {"collection.admin.find", &CollectionOps::find},
        {"collection.admin.count", &CollectionOps::count},
        {"collection.admin.delete", &CollectionOps::remove},
        {"collection.admin.restore", &CollectionOps::restore},
        {"collection.admin.claim", &CollectionOps::claim},
    };
    for (const auto& [name, handler] : across_users) {
      r.op(name, Access::kAdmin,
           [this, handler = handler](const Request& req) { return ((*ops_).*handler)(req); });
    }
    return r.status();
  }

 private:
  std::unique_ptr<CollectionOps> ops_;
  std::unique_ptr<IndexOps> index_ops_;
};

}  // namespace

OPBASE_PLUGIN(CollectionPlugin, "collection", "1.0.0")
