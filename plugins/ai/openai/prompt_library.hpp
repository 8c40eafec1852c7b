// PromptLibrary: the system prompts of the chat tasks, one versioned file per op in a folder
// (the build installs plugins/ai/prompts/*.txt into <data_dir>/prompts/). The version is part of
// the file name ("summarize.v1.txt") and is reported in meta.prompt_version ("summarize.v1"), so
// an answer can be traced to the words that asked for it; a new wording is a new file.
//
// Loaded once at start; a missing, unreadable or malformed file is a Status naming it.
// The placeholders a file may use are the names in kPromptValueNames (prompt_template.hpp says
// how they are written).
//
// Thread-safety: immutable once loaded; share one instance between threads.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "openai/prompt_template.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

// Every placeholder name a prompt file may use.
inline constexpr std::array<std::string_view, 12> kPromptValueNames = {
    "content_length",  "content_style",        "custom_instructions", "translation_style",
    "target_language", "target_language_code", "categories",          "aspects",
    "entity_types",    "analysis_depth",       "confidence_level",    "emotions"};

// "summarize.v1": the file's name without ".txt"; empty for a kind without a prompt (vectorize).
std::string_view prompt_name(TaskKind kind);

struct RenderedPrompt {
  std::string system;   // the system message
  std::string version;  // for meta.prompt_version
};

class PromptLibrary {
 public:
  // Reads <folder>/<prompt_name>.txt for every chat task.
  static Result<std::shared_ptr<const PromptLibrary>> load(const std::string& folder);

  // From texts already read (name as prompt_name() gives it -> file text); `source` names their
  // origin in messages. Every chat task needs one.
  static Result<std::shared_ptr<const PromptLibrary>> from_texts(
      const std::map<std::string, std::string, std::less<>>& texts, std::string_view source);

  // The system prompt of `kind` with `values` filled in; an error for vectorize.
  Result<RenderedPrompt> render(TaskKind kind, const PromptValues& values) const;

 private:
  std::map<TaskKind, PromptTemplate> templates_;
};

}  // namespace opbase::ai
