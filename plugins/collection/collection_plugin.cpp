// The collection plugin: the document datastore's ops under collection.* (db.* is bound by the
// host), the statement form as collection.statement.
#include <memory>

#include "opbase/sdk.hpp"
#include "ops/collection_ops.hpp"
#include "ops/index_ops.hpp"
#include "ops/rules_ops.hpp"

namespace {

using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;
using opbase::collection::CollectionOps;
using opbase::collection::IndexOps;
using opbase::collection::RulesOps;

class CollectionPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    auto settings = opbase::collection::Settings::load(host());
    if (!settings) return settings.status();
    ops_ = std::make_unique<CollectionOps>(host(), std::move(*settings));
    using Handler = Result<Reply> (CollectionOps::*)(const Request&);
    // Who may call them is the collection's rules' business (docs/api.md#collection-rules):
    // a caller without a token too, where a rule says `anyone`.
    const std::pair<const char*, Handler> user_ops[] = {
        {"collection.find", &CollectionOps::find},
        {"collection.insert", &CollectionOps::insert},
        {"collection.update", &CollectionOps::update},
        {"collection.upsert", &CollectionOps::upsert},
        {"collection.count", &CollectionOps::count},
        {"collection.delete", &CollectionOps::remove},
        {"collection.archive", &CollectionOps::archive},
        {"collection.restore", &CollectionOps::restore},
        {"collection.statement", &CollectionOps::statement},
    };
    for (const auto& [name, handler] : user_ops) {
      r.op(name, Access::kUserOptional,
           [this, handler = handler](const Request& req) { return ((*ops_).*handler)(req); });
    }
    rules_ops_ = std::make_unique<RulesOps>(host(), ops_->rules());
    r.op("collection.rules.get", Access::kAdmin,
         [this](const Request& req) { return rules_ops_->get(req); });
    r.op("collection.rules.update", Access::kAdmin,
         [this](const Request& req) { return rules_ops_->update(req); });
    // Indexes and query plans are the administrators' (docs/api.md#indexes-and-query-plans).
    index_ops_ = std::make_unique<IndexOps>(host(), ops_->user_query(), ops_->rules());
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
        {"collection.admin.update", &CollectionOps::update},
        {"collection.admin.delete", &CollectionOps::remove},
        {"collection.admin.restore", &CollectionOps::restore},
        {"collection.admin.claim", &CollectionOps::claim},
    };
    for (const auto& [name, handler] : across_users) {
      r.op(name, Access::kAdmin,
           [this, handler = handler](const Request& req) { return ((*ops_).*handler)(req); });
    }
    // What a caller may read of a collection, for live queries (the realtime plugin).
    r.service("collection.read_access", [this](std::string_view project, const nlohmann::json& in) {
      return ops_->read_access(project, in);
    });
    return r.status();
  }

 private:
  std::unique_ptr<CollectionOps> ops_;
  std::unique_ptr<IndexOps> index_ops_;
  std::unique_ptr<RulesOps> rules_ops_;
};

}  // namespace

OPBASE_PLUGIN(CollectionPlugin, "collection", "1.0.0")
