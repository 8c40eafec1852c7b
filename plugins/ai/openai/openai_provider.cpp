#include "openai/openai_provider.hpp"

#include <cmath>
#include <exception>

#include "openai/answer_readers.hpp"
#include "openai/chat_request.hpp"
#include "openai/model_failure.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

// A request body as JSON text; bytes that are not UTF-8 become U+FFFD instead of an exception.
std::string text_of(const json& body) {
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

Status unsupported(std::string_view what, std::string_view key) {
  return model_failure(model_error::kUnsupported, false,
                       "this model server is set up for no " + std::string(what) + " (" +
                           std::string(key) + " is empty)");
}

}  // namespace

OpenAiProvider::OpenAiProvider(OpenAiSettings settings,
                               std::shared_ptr<const PromptLibrary> prompts, ModelLog log)
    : prompts_(std::move(prompts)), client_(std::move(settings), std::move(log)) {}

Result<TaskAnswer> OpenAiProvider::run(const Task& task) const {
  // Nothing may throw past the provider: a surprise becomes an internal error.
  try {
    return task.kind == TaskKind::kVectorize ? vectorize(task) : chat(task);
  } catch (const std::exception& e) {
    return Status::internal(std::string("the openai provider failed: ") + e.what());
  }
}

Result<Embeddings> OpenAiProvider::embed(const std::vector<std::string>& texts) const {
  try {
    return embeddings(texts);
  } catch (const std::exception& e) {
    return Status::internal(std::string("the openai provider failed: ") + e.what());
  }
}

Result<TaskAnswer> OpenAiProvider::chat(const Task& task) const {
  const OpenAiSettings& settings = client_.settings();
  if (settings.chat_model.empty()) return unsupported("chat tasks", "chat_model");
  if (prompts_ == nullptr) return Status::internal("the openai provider has no prompts");
  auto request = chat_request(task, settings, *prompts_);
  if (!request) return request.status();
  auto body = client_.post("/chat/completions", text_of(request->body));
  if (!body) return body.status();
  auto reply = read_chat_reply(*body);
  if (!reply) return reply.status();
  auto answer = read_task_answer(task, reply->content);
  if (!answer) return answer.status();
  answer->meta["model"] = reply->model.empty() ? settings.chat_model : reply->model;
  answer->meta["prompt_version"] = request->prompt_version;
  return answer;
}

Result<TaskAnswer> OpenAiProvider::vectorize(const Task& task) const {
  auto found = embeddings({task.content});
  if (!found) return found.status();
  const std::vector<float>& vector = found->vectors.front();
  double squares = 0;
  for (float x : vector) squares += static_cast<double>(x) * x;
  TaskAnswer answer;
  answer.output = {
      {"vector", vector}, {"dimensions", found->dimensions}, {"model_version", found->model}};
  answer.meta = {{"model", found->model}, {"vector_norm", std::sqrt(squares)}};
  return answer;
}

Result<Embeddings> OpenAiProvider::embeddings(const std::vector<std::string>& texts) const {
  const OpenAiSettings& settings = client_.settings();
  if (settings.embedding_model.empty()) return unsupported("embeddings", "embedding_model");
  if (texts.empty()) return Embeddings{{}, 0, settings.embedding_model};
  json request = {{"model", settings.embedding_model}, {"input", texts}};
  if (settings.dimensions) request["dimensions"] = *settings.dimensions;
  auto body = client_.post("/embeddings", text_of(request));
  if (!body) return body.status();
  auto found = read_embeddings(*body, texts.size());
  if (!found) return found.status();
  if (found->model.empty()) found->model = settings.embedding_model;
  return found;
}

}  // namespace opbase::ai
