// OpenAiProvider: answers every AI task through an OpenAI-compatible server (OpenAI, Azure-style
// deployments, Ollama, vLLM, the llama.cpp server, LM Studio): generate, summarize, classify,
// sentiment, extract and translate through POST {base_url}/chat/completions, vectorize and
// embed() through POST {base_url}/embeddings.
//
//   auto settings = from_config(lookup);             // openai_settings.hpp
//   auto prompts = PromptLibrary::load(data_dir + "/prompts");
//   OpenAiProvider provider(*settings, *prompts, [&](std::string_view line) { log(line); });
//   Result<TaskAnswer> answer = provider.run(task);
//
// meta of every chat task: model (as the server named it) and prompt_version ("classify.v1");
// classify adds classification_method "llm"; sentiment analysis_confidence; extract
// entities_found and extraction_confidence; translate source_language and
// translation_confidence (answer_readers.hpp says where each comes from). vectorize answers
// {vector, dimensions, model_version} with meta model and vector_norm (the server's vector as it
// came: OpenAI's are of norm 1, other servers' need not be).
//
// Failures are PROCESSING_FAILED with details.error_type and details.retry_recommended
// (model_failure.hpp); an empty chat_model or embedding_model makes those tasks "unsupported".
//
// Thread-safety: run() and embed() may be called from any number of threads at once; at most
// max_concurrency of them talk to the server at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "openai/model_client.hpp"
#include "openai/openai_settings.hpp"
#include "openai/prompt_library.hpp"
#include "provider/provider.hpp"

namespace opbase::ai {

class OpenAiProvider final : public Provider {
 public:
  // `prompts` is shared and must not be null; `log` may be empty.
  OpenAiProvider(OpenAiSettings settings, std::shared_ptr<const PromptLibrary> prompts,
                 ModelLog log = {});

  std::string_view name() const override { return "openai"; }
  Result<TaskAnswer> run(const Task& task) const override;
  Result<Embeddings> embed(const std::vector<std::string>& texts) const override;

 private:
  Result<TaskAnswer> chat(const Task& task) const;
  Result<TaskAnswer> vectorize(const Task& task) const;
  Result<Embeddings> embeddings(const std::vector<std::string>& texts) const;

  std::shared_ptr<const PromptLibrary> prompts_;
  ModelClient client_;
};

}  // namespace opbase::ai
