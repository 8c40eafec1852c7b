// TaskReader: turns an AI op's request body into a checked Task (provider/task.hpp), or the
// spec's error for what is wrong with it (docs/api.md#ai-request-checks), before any provider
// is asked:
//   - content (user_input for generate): a string; missing, empty or blank is CONTENT_EMPTY;
//     longer than the limit in code points is CONTENT_TOO_LONG {max_length, provided_length};
//     another type is VALIDATION_ERROR;
//   - options: an object (or absent/null, except for translate); anything else, an option of
//     the wrong type, or a value outside its list is INVALID_OPTIONS {option, reason};
//   - target_language: an English name or an ISO 639-1 code of the spec's eight languages, else
//     INVALID_LANGUAGE {provided_language, supported_languages}.
// Options the op does not know are ignored, as the spec calls the lists illustrative.
//
// Thread-safety: immutable after construction; read_task() may run on any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "opbase/status.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

struct RequestLimits {
  int64_t max_content_length = 50'000;  // code points (ai.max_content_length)
  int64_t max_option_length = 4'000;    // code points of a free-text option
  int64_t max_list_items = 50;          // categories, aspects, entity types
  int64_t max_content_words = 10'000;   // content_length (target words)
};

// The confidence_level values as thresholds on a classification's confidence.
double confidence_threshold_of(std::string_view level);

class TaskReader {
 public:
  explicit TaskReader(RequestLimits limits) : limits_(limits) {}

  Result<Task> read_task(TaskKind kind, const nlohmann::json& body) const;
  // One text of the ai.embed service, checked as content is.
  Status check_content(const nlohmann::json& value, std::string_view field) const;

  const RequestLimits& limits() const { return limits_; }

 private:
  Status read_options(TaskKind kind, const nlohmann::json& options, Task& task) const;

  RequestLimits limits_;
};

}  // namespace opbase::ai
