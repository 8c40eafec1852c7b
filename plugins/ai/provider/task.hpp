// Task: one AI op's work as a provider receives it, after the op layer has checked the request
// (content present and within the limit, options of the right types and values). Providers see
// only typed fields, never the raw options object, so every provider honours the same options.
//
// Thread-safety: a plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opbase::ai {

enum class TaskKind {
  kGenerate,
  kSummarize,
  kClassify,
  kSentiment,
  kExtract,
  kTranslate,
  kVectorize
};

// A translation target: the English name the spec lists ("Spanish") and its ISO 639-1 code ("es").
struct Language {
  std::string name;
  std::string code;
};

struct Task {
  TaskKind kind = TaskKind::kGenerate;
  // The text to work on: `content`, or `user_input` for generate. Never blank.
  std::string content;

  // generate, summarize
  std::optional<int64_t> content_length;  // target length in words
  std::string content_style;              // free text, e.g. "formal", "bullet points"; may be empty
  std::string custom_instructions;        // free text; may be empty

  // classify
  std::string confidence_level = "medium";  // "low", "medium" or "high"
  double confidence_threshold = 0.0;        // the level as a number, set by the op layer
  std::vector<std::string> categories;      // empty: the provider's default categories

  // sentiment
  std::string analysis_depth = "standard";  // "brief", "standard" or "detailed"
  std::vector<std::string> aspects;         // specific_aspects, trimmed, non-empty

  // extract
  std::vector<std::string> entity_types;  // as requested (each becomes an output key)

  // translate
  Language target_language;
  std::string translation_style;  // free text; may be empty

  // vectorize: none (options are reserved)
};

}  // namespace opbase::ai
