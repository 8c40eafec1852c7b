// The AI ops (see ai_ops.hpp).
#include "ops/ai_ops.hpp"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "opbase/stored_settings.hpp"
#include "ops/ai_reply.hpp"
#include "ops/op_table.hpp"
#include "ops/vector_text.hpp"
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

}  // namespace

Result<Reply> AiOps::serve(TaskKind kind, const Request& request) const {
  auto task = reader_.read_task(kind, request.body);
  if (!task) return task.status();
  const auto size = static_cast<int64_t>(code_points(task->content));
  const int64_t admitted_ms = host_.now_ms();
  if (Status s = call_limits_.admit(request.project_id, request.user_id, size, admitted_ms); !s) {
    if (s.code() == code::kRateLimitExceeded) host_.count("rate_limit_refusals_total");
    if (s.code() == code::kQuotaExceeded) host_.count("quota_refusals_total");
    return s;
  }
  auto provider = choice_.choose(request.project_id, kind, admitted_ms);
  if (!provider) {
    call_limits_.refund(request.project_id, request.user_id, size, admitted_ms);
    return provider.status();
  }
  Result<Reply> reply = run_task(kind, *task, **provider);
  if (!reply) call_limits_.refund(request.project_id, request.user_id, size, admitted_ms);
  return reply;
}

Result<Reply> AiOps::run_task(TaskKind kind, const Task& task, const Provider& provider) const {
  if (kind == TaskKind::kVectorize) return vectorize(provider, task);
  const auto start = std::chrono::steady_clock::now();
  Result<TaskAnswer> answer = provider.run(task);
  const double elapsed_ms = ms_since(start);
  if (!counted(kind, answer.status(), elapsed_ms)) return answer.status();
  json meta = meta_of(task, *answer, provider.name(), elapsed_ms);
  return Reply(json{{"output", std::move(answer->output)}}).with_meta(std::move(meta));
}

// The op's metrics; false when it failed.
bool AiOps::counted(TaskKind kind, const Status& status, double elapsed_ms) const {
  host_.count(std::string(verb_of(kind)) + "_calls_total");
  if (!status) {
    host_.count(std::string(verb_of(kind)) + "_failures_total");
    return false;
  }
  host_.observe_seconds(std::string(verb_of(kind)) + "_seconds", elapsed_ms / 1000);
  return true;
}

// vectorize prints its data itself (ops/vector_text.hpp): 1536 numbers are most of its cost.
Result<Reply> AiOps::vectorize(const Provider& provider, const Task& task) const {
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

Result<json> AiOps::embed(std::string_view project, const json& input) const {
  const auto texts = input.find("texts");
  if (texts == input.end() || !texts->is_array() || texts->empty() ||
      texts->size() > kMaxEmbedTexts) {
    return Status::validation("ai.embed takes {\"texts\": [1 to " + std::to_string(kMaxEmbedTexts) +
                              " strings]}");
  }
  std::vector<std::string> list;
  for (size_t i = 0; i < texts->size(); ++i) {
    if (Status s = reader_.check_content((*texts)[i], "texts[" + std::to_string(i) + "]"); !s) {
      json details = s.details().is_object() ? s.details() : json::object();
      details["index"] = i;
      return Status(s.code(), s.message(), std::move(details));
    }
    list.push_back((*texts)[i].get<std::string>());
  }
  auto provider = choice_.choose(project, TaskKind::kVectorize, host_.now_ms());
  if (!provider) return provider.status();
  auto embeddings = (*provider)->embed(list);
  if (!embeddings) return embeddings.status();
  return json{{"vectors", std::move(embeddings->vectors)},
              {"dimensions", embeddings->dimensions},
              {"model", embeddings->model}};
}

Result<Reply> AiOps::settings(const Request& request) const {
  auto view = choice_.admin_view(request.project_id, host_.now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

Result<Reply> AiOps::change_settings(const Request& request) const {
  auto changes = StoredSettings::changes_in(request.body);
  if (!changes) return changes.status();
  auto view = choice_.change(request.project_id, *changes, host_.now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

}  // namespace opbase::ai
