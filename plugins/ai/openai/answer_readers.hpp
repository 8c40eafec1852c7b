// Readers of a model server's answers: text in, a value or a failure out. They trust nothing
// they read (any bytes must come back as a value or a bad_answer Status, never a crash or an
// exception: tests/fuzz/openai_answer_fuzz.cpp holds them to it) and turn the model's JSON into
// the spec's output shape (docs/api.md#ai-answers): scores clamped to their ranges, classification
// confidences normalised to sum to 1, maps filled for exactly the names that were asked for.
//
// The model's JSON is read a little more leniently than strict mode would write it, for servers
// that do not enforce the schema: a ```json fence or a leading <think>...</think> block is
// skipped, a key matches its name in any ASCII case, and a missing "confidence" defaults to
// kDefaultConfidence. A missing field of the output shape or a wrong type is still a bad_answer.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "provider/provider.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

// The confidence reported when the model gives none (meta.analysis_confidence,
// meta.translation_confidence, an entity's confidence): "probably right", not a measurement.
inline constexpr double kDefaultConfidence = 0.8;

// The first choice of a chat completion answer.
struct ChatReply {
  std::string content;        // choices[0].message.content
  std::string model;          // the answer's "model", or "" when it has none
  std::string finish_reason;  // "stop", "length", ... or ""
};

// A chat completion ({"choices": [{"message": {"content": ...}}], "model"}). A refusal or a
// content filter stop is a bad_answer that recommends no retry.
Result<ChatReply> read_chat_reply(std::string_view body);

// generate, summarize: the text, trimmed; blank is a bad_answer.
Result<TaskAnswer> read_text_answer(std::string_view content);

// classify: {primary_classification, secondary_classifications, confidence_scores, reasoning}.
// The primary is the category with the highest normalised score (the model's own choice on a
// tie); the secondary ones are the others scoring at least `threshold` (and above 0), best first.
Result<TaskAnswer> read_classification(std::string_view content,
                                       const std::vector<std::string>& categories,
                                       double threshold);

// sentiment: the spec's shape; meta.analysis_confidence from the model's "confidence".
Result<TaskAnswer> read_sentiment(std::string_view content,
                                  const std::vector<std::string>& aspects);

// extract: one array per requested type of {text, normalized, confidence}; meta.entities_found
// and meta.extraction_confidence (the entities' mean confidence; kDefaultConfidence with none).
Result<TaskAnswer> read_extraction(std::string_view content,
                                   const std::vector<std::string>& entity_types);

// translate: {translation, source_language, confidence} -> the translation as output, meta
// source_language (an ISO 639-1 code in lower case when the model gave a code) and
// translation_confidence.
Result<TaskAnswer> read_translation(std::string_view content);

// The reader for `task`'s kind (vectorize has none: a failure).
Result<TaskAnswer> read_task_answer(const Task& task, std::string_view content);

// An embeddings answer ({"data": [{"embedding": [...], "index"}], "model"}) for `count` inputs:
// vectors in input order (by "index"), all of one length.
Result<Embeddings> read_embeddings(std::string_view body, size_t count);

// What an error answer says: error.message, error (a string), message or detail; else the body
// itself unless it looks like HTML; "" when there is nothing to quote. Not shortened.
std::string read_error_message(std::string_view body);

// error.code (OpenAI: "insufficient_quota", "model_not_found", ...) or "".
std::string read_error_code(std::string_view body);

}  // namespace opbase::ai
