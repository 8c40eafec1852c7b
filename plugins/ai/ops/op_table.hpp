// The AI ops: each op name (docs/api.md#ai-text-operations) and the task it asks of a provider. The
// baseai.* names (docs/api.md#aliases) are bound by the host as aliases of these, so they appear
// nowhere here.
#pragma once

#include <optional>
#include <string_view>

#include "provider/task.hpp"

namespace opbase::ai {

struct OpRow {
  std::string_view op;    // "ai.summarize"
  std::string_view verb;  // "summarize": the name in configuration keys (ai.provider.<verb>)
  TaskKind kind;
};

inline constexpr OpRow kOps[] = {
    {"ai.generate", "generate", TaskKind::kGenerate},
    {"ai.summarize", "summarize", TaskKind::kSummarize},
    {"ai.classify", "classify", TaskKind::kClassify},
    {"ai.sentiment", "sentiment", TaskKind::kSentiment},
    {"ai.extract", "extract", TaskKind::kExtract},
    {"ai.translate", "translate", TaskKind::kTranslate},
    {"ai.vectorize", "vectorize", TaskKind::kVectorize},
};

constexpr std::string_view verb_of(TaskKind kind) {
  for (const OpRow& row : kOps) {
    if (row.kind == kind) return row.verb;
  }
  return "";
}

}  // namespace opbase::ai
