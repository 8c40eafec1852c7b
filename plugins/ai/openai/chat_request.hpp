// The chat completion request for a task: the op's system prompt (from the PromptLibrary, with
// the task's options filled in), the task's text as the user message, "stream": false, and for
// classify, sentiment, extract and translate a response_format holding the answer's JSON schema
// (output_schemas.hpp).
//
// Option values are put into the system prompt made harmless: single-line values lose their
// line breaks, and no value can hold the "-----" of the markers that fence custom_instructions
// off from the op's own rules.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "opbase/status.hpp"
#include "openai/openai_settings.hpp"
#include "openai/prompt_library.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

struct ChatRequest {
  nlohmann::json body;
  std::string prompt_version;
};

// The placeholder values of `task` (prompt_library.hpp lists the names).
PromptValues prompt_values(const Task& task);

Result<ChatRequest> chat_request(const Task& task, const OpenAiSettings& settings,
                                 const PromptLibrary& prompts);

}  // namespace opbase::ai
