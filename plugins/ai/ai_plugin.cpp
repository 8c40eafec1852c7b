// The ai plugin: the seven AI ops (docs/api.md#ai-text-operations) (ai.* and, bound by the host,
// their baseai.* names) and the ai.embed service the vdb area calls. Every op needs a signed-in
// user and runs on the plugin's lane (abi.h register_lane_op), so a slow model server never holds
// the HTTP workers, and passes the caller's rate limit and daily quota (limits/call_limits.hpp)
// before a provider sees it. Which provider answers is configuration
// (provider/provider_router.hpp): the built-in offline one by default, or an OpenAI-compatible
// model server; a project's administrators may choose another (ai.settings.get / .update,
// provider/provider_choice.hpp).
#include <chrono>
#include <map>
#include <memory>

#include "limits/call_limits.hpp"
#include "opbase/host_services.hpp"
#include "opbase/sdk.hpp"
#include "openai/openai_provider.hpp"
#include "ops/ai_reply.hpp"
#include "ops/op_table.hpp"
#include "ops/task_reader.hpp"
#include "ops/vector_text.hpp"
#include "provider/offline_provider.hpp"
#include "provider/provider_choice.hpp"
#include "provider/provider_router.hpp"
#include "settings.hpp"
#include "text/unicode_text.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

// The most texts one ai.embed call takes.
constexpr size_t kMaxEmbedTexts = 256;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

class AiPlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto settings = AiSettings::from(host());
    if (!settings) return settings.status();
    settings_ = std::move(*settings);
    reader_ = std::make_unique<TaskReader>(settings_.limits);
    if (Status s = build_providers(); !s) return s;

    if (Status s = r.size_lane(settings_.lane_threads, settings_.lane_queue); !s) return s;
    for (const OpRow& row : kOps) {
      const TaskKind kind = row.kind;
      r.lane_op(row.op, Access::kUser,
                [this, kind](const Request& request) { return serve(kind, request); });
    }
    r.service("ai.embed", [this](std::string_view project, const json& input) {
      return embed_service(project, input);
    });
    r.op("ai.settings.get", Access::kAdmin, [this](const Request& request) -> Result<Reply> {
      auto view = choice_->admin_view(request.project_id, host().now_ms());
      if (!view) return view.status();
      return Reply(std::move(*view));
    });
    r.op("ai.settings.update", Access::kAdmin, [this](const Request& request) -> Result<Reply> {
      auto changes = StoredSettings::changes_in(request.body);
      if (!changes) return changes.status();
      auto view = choice_->change(request.project_id, *changes, host().now_ms());
      if (!view) return view.status();
      return Reply(std::move(*view));
    });
    return r.status();
  }

  void shutdown() override {
    if (offline_) offline_->shutdown();
  }

 private:
  Status build_providers() {
    std::map<std::string, std::shared_ptr<const Provider>, std::less<>> providers;
    auto offline = OfflineProvider::load(settings_.data_dir, settings_.dimensions);
    if (!offline) return offline.status();
    offline_ = *offline;
    providers.emplace("offline", std::move(*offline));
    auto prompts = PromptLibrary::load((settings_.data_dir / "prompts").string());
    if (!prompts) return prompts.status();
    auto openai = openai_provider("", *prompts);
    if (!openai) return openai.status();
    providers.emplace("openai", std::move(*openai));
    auto projects = list_projects(host());
    if (!projects) return projects.status();
    const std::vector<std::string>& ids = *projects;
    std::map<std::string, ProviderRouter::Providers, std::less<>> own;
    for (const std::string& id : ids) {
      auto project_openai = openai_provider(id, *prompts);
      if (!project_openai) return project_openai.status();
      if (*project_openai) own[id].emplace("openai", std::move(*project_openai));
    }
    auto config = [this](std::string_view key) { return host().config(key); };
    auto router = ProviderRouter::build(providers, ids, config, own);
    if (!router) return router.status();
    router_ = std::make_unique<ProviderRouter>(std::move(*router));
    store_ = std::make_unique<DocumentStore>(host());
    choice_ = std::make_unique<ProviderChoice>(*store_, *router_);
    auto rules = UsageRulesByProject::build(ids, config);
    if (!rules) return rules.status();
    limits_ = std::make_unique<CallLimits>(host(), std::move(*rules));
    return Status::ok();
  }

  // The model provider of ai.openai.* (project empty), or of a project that sets any
  // projects.<id>.ai.openai.* key (each key it does not set is the daemon-wide one); null for a
  // project without such keys.
  Result<std::shared_ptr<const Provider>> openai_provider(
      const std::string& project, const std::shared_ptr<const PromptLibrary>& prompts) const {
    const std::string own_prefix = project.empty() ? "" : "projects." + project + ".ai.openai.";
    bool has_own = false;
    std::map<std::string, std::string, std::less<>> read_from;  // key -> the full key that held it
    auto settings = from_config([&](std::string_view key) {
      for (const std::string& prefix : {own_prefix, std::string("ai.openai.")}) {
        if (prefix.empty()) continue;
        if (auto value = host().config(prefix + std::string(key))) {
          has_own = has_own || prefix == own_prefix;
          read_from[std::string(key)] = prefix + std::string(key);
          return value;
        }
      }
      return std::optional<std::string>();
    });
    if (!settings) {  // the message starts with the short key: name the full one
      const std::string key = settings.status().details().value("key", "");
      const auto full = read_from.find(key);
      if (full == read_from.end()) return settings.status();
      return Status(settings.status().code(),
                    full->second + settings.status().message().substr(key.size()),
                    {{"key", full->second}});
    }
    if (!project.empty() && !has_own) return std::shared_ptr<const Provider>();
    return std::shared_ptr<const Provider>(std::make_shared<OpenAiProvider>(
        std::move(*settings), prompts, [this](std::string_view line) { host().info(line); }));
  }

  Result<Reply> serve(TaskKind kind, const Request& request) const {
    auto task = reader_->read_task(kind, request.body);
    if (!task) return task.status();
    const auto size = static_cast<int64_t>(code_points(task->content));
    const int64_t admitted_ms = host().now_ms();
    if (Status s = limits_->admit(request.project_id, request.user_id, size, admitted_ms); !s) {
      if (s.code() == code::kRateLimitExceeded) host().count("rate_limit_refusals_total");
      if (s.code() == code::kQuotaExceeded) host().count("quota_refusals_total");
      return s;
    }
    auto provider = choice_->choose(request.project_id, kind, admitted_ms);
    if (!provider) {
      limits_->refund(request.project_id, request.user_id, size, admitted_ms);
      return provider.status();
    }
    Result<Reply> reply = run_task(kind, *task, **provider);
    if (!reply) limits_->refund(request.project_id, request.user_id, size, admitted_ms);
    return reply;
  }

  Result<Reply> run_task(TaskKind kind, const Task& task, const Provider& provider) const {
    if (kind == TaskKind::kVectorize) return vectorize(provider, task);
    const auto start = std::chrono::steady_clock::now();
    Result<TaskAnswer> answer = provider.run(task);
    const double elapsed_ms = ms_since(start);
    if (!counted(kind, answer.status(), elapsed_ms)) return answer.status();
    json meta = meta_of(task, *answer, provider.name(), elapsed_ms);
    return Reply(json{{"output", std::move(answer->output)}}).with_meta(std::move(meta));
  }

  // The op's metrics; false when it failed.
  bool counted(TaskKind kind, const Status& status, double elapsed_ms) const {
    host().count(std::string(verb_of(kind)) + "_calls_total");
    if (!status) {
      host().count(std::string(verb_of(kind)) + "_failures_total");
      return false;
    }
    host().observe_seconds(std::string(verb_of(kind)) + "_seconds", elapsed_ms / 1000);
    return true;
  }

  // vectorize prints its data itself (ops/vector_text.hpp): 1536 numbers are most of its cost.
  Result<Reply> vectorize(const Provider& provider, const Task& task) const {
    const auto start = std::chrono::steady_clock::now();
    auto embeddings = provider.embed({task.content});
    const double elapsed_ms = ms_since(start);
    if (!counted(TaskKind::kVectorize, embeddings.status(), elapsed_ms)) {
      return embeddings.status();
    }
    const std::vector<float>& vector = embeddings->vectors.front();
    TaskAnswer answer;
    answer.output = json::object();
    answer.meta = {{"model", embeddings->model}, {"vector_norm", vector_norm(vector)}};
    json meta = meta_of(task, answer, provider.name(), elapsed_ms);
    Reply reply = Reply::from_text("{\"output\":{\"vector\":" + vector_json(vector) +
                                   ",\"dimensions\":" + std::to_string(embeddings->dimensions) +
                                   ",\"model_version\":" + json(embeddings->model).dump() + "}}");
    return reply.with_meta(std::move(meta));
  }

  // ai.embed: {"texts": [...]} -> {"vectors": [...], "dimensions", "model"}, each text checked
  // as an op's content is (details.index names a refused one), with the project's vectorize
  // provider.
  Result<json> embed_service(std::string_view project, const json& input) const {
    const auto texts = input.find("texts");
    if (texts == input.end() || !texts->is_array() || texts->empty() ||
        texts->size() > kMaxEmbedTexts) {
      return Status::validation("ai.embed takes {\"texts\": [1 to " +
                                std::to_string(kMaxEmbedTexts) + " strings]}");
    }
    std::vector<std::string> list;
    for (size_t i = 0; i < texts->size(); ++i) {
      if (Status s = reader_->check_content((*texts)[i], "texts[" + std::to_string(i) + "]"); !s) {
        json details = s.details().is_object() ? s.details() : json::object();
        details["index"] = i;
        return Status(s.code(), s.message(), std::move(details));
      }
      list.push_back((*texts)[i].get<std::string>());
    }
    auto provider = choice_->choose(project, TaskKind::kVectorize, host().now_ms());
    if (!provider) return provider.status();
    auto embeddings = (*provider)->embed(list);
    if (!embeddings) return embeddings.status();
    return json{{"vectors", std::move(embeddings->vectors)},
                {"dimensions", embeddings->dimensions},
                {"model", embeddings->model}};
  }

  AiSettings settings_;
  std::shared_ptr<const OfflineProvider> offline_;
  std::unique_ptr<TaskReader> reader_;
  std::unique_ptr<ProviderRouter> router_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<ProviderChoice> choice_;
  std::unique_ptr<CallLimits> limits_;
};

}  // namespace
}  // namespace opbase::ai

OPBASE_PLUGIN(opbase::ai::AiPlugin, "ai", "0.1.0")
