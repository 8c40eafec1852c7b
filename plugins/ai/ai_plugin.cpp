// The ai plugin: the seven AI ops (docs/api.md#ai-text-operations) (ai.* and, bound by the host,
// their baseai.* names) and the ai.embed service the vdb area calls. Every op needs a signed-in
// user and runs on the plugin's lane (abi.h register_lane_op), so a slow model server never holds
// the HTTP workers, and passes the caller's rate limit and daily quota (limits/call_limits.hpp)
// before a provider sees it (ops/ai_ops.hpp). Which provider answers is configuration
// (provider/provider_set.hpp, provider/provider_router.hpp): the built-in offline one by
// default, or an OpenAI-compatible model server; a project's administrators may choose another
// (ai.settings.get / .update, provider/provider_choice.hpp).
#include <memory>

#include "limits/call_limits.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host_services.hpp"
#include "opbase/sdk.hpp"
#include "ops/ai_ops.hpp"
#include "ops/op_table.hpp"
#include "provider/provider_choice.hpp"
#include "provider/provider_set.hpp"
#include "settings.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

class AiPlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    if (Status s = build(); !s) return s;
    if (Status s = r.size_lane(settings_.lane_threads, settings_.lane_queue); !s) return s;
    for (const OpRow& row : kOps) {
      const TaskKind kind = row.kind;
      r.lane_op(row.op, Access::kUser,
                [this, kind](const Request& request) { return ops_->serve(kind, request); });
    }
    r.service("ai.embed", [this](std::string_view project, const json& input) {
      return ops_->embed(project, input);
    });
    r.op("ai.settings.get", Access::kAdmin,
         [this](const Request& request) { return ops_->settings(request); });
    r.op("ai.settings.update", Access::kAdmin,
         [this](const Request& request) { return ops_->change_settings(request); });
    return r.status();
  }

  void shutdown() override {
    if (providers_.offline) providers_.offline->shutdown();
  }

 private:
  Status build() {
    auto settings = AiSettings::from(host());
    if (!settings) return settings.status();
    settings_ = std::move(*settings);
    auto projects = list_projects(host());
    if (!projects) return projects.status();
    auto providers = build_provider_set(host(), settings_, *projects);
    if (!providers) return providers.status();
    providers_ = std::move(*providers);
    store_ = std::make_unique<DocumentStore>(host());
    choice_ = std::make_unique<ProviderChoice>(*store_, *providers_.router);
    auto config = [this](std::string_view key) { return host().config(key); };
    auto rules = UsageRulesByProject::build(*projects, config);
    if (!rules) return rules.status();
    limits_ = std::make_unique<CallLimits>(host(), std::move(*rules));
    ops_ = std::make_unique<AiOps>(host(), settings_.limits, *choice_, *limits_);
    return Status::ok();
  }

  AiSettings settings_;
  ProviderSet providers_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<ProviderChoice> choice_;
  std::unique_ptr<CallLimits> limits_;
  std::unique_ptr<AiOps> ops_;
};

}  // namespace
}  // namespace opbase::ai

OPBASE_PLUGIN(opbase::ai::AiPlugin, "ai", "0.1.0")
