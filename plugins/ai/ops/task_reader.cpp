#include "ops/task_reader.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "extract/entity_type.hpp"
#include "opbase/field_error.hpp"
#include "text/unicode_text.hpp"
#include "translate/languages.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

Status invalid_option(std::string_view option, std::string reason) {
  std::string message = "options." + std::string(option) + ": " + reason;
  return Status(code::kInvalidOptions, std::move(message),
                {{"option", std::string(option)}, {"reason", std::move(reason)}});
}

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A free-text option: a string of at most `max` code points; absent or null is "".
Result<std::string> text_option(const json& options, std::string_view name, int64_t max) {
  const auto found = options.find(name);
  if (found == options.end() || found->is_null()) return std::string();
  if (!found->is_string()) return invalid_option(name, "must be a string");
  const std::string& text = found->get_ref<const std::string&>();
  if (static_cast<int64_t>(code_points(text)) > max) {
    return invalid_option(name, "is longer than " + std::to_string(max) + " characters");
  }
  return text;
}

// One of `allowed` (case-insensitive), or `fallback` when absent or null.
Result<std::string> choice_option(const json& options, std::string_view name,
                                  const std::vector<std::string_view>& allowed,
                                  std::string_view fallback) {
  auto text = text_option(options, name, 64);
  if (!text) return text.status();
  if (text->empty()) return std::string(fallback);
  const std::string value = lower(trimmed(*text));
  for (std::string_view a : allowed) {
    if (value == a) return value;
  }
  std::string list;
  for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  return invalid_option(name, "must be one of " + list);
}

// A comma-separated list: items trimmed, empty ones and repeats dropped, at most `max` items.
Result<std::vector<std::string>> list_option(const json& options, std::string_view name,
                                             int64_t max_items, int64_t max_length) {
  auto text = text_option(options, name, max_length);
  if (!text) return text.status();
  std::vector<std::string> items;
  std::string_view rest = *text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    if (std::find(items.begin(), items.end(), item) != items.end()) continue;
    items.emplace_back(item);
  }
  if (static_cast<int64_t>(items.size()) > max_items) {
    return invalid_option(name, "names more than " + std::to_string(max_items) + " items");
  }
  return items;
}

Result<std::optional<int64_t>> words_option(const json& options, std::string_view name,
                                            int64_t max) {
  const auto found = options.find(name);
  if (found == options.end() || found->is_null()) return std::optional<int64_t>();
  if (!found->is_number_integer()) return invalid_option(name, "must be an integer");
  const int64_t words = found->get<int64_t>();
  if (words < 1 || words > max) {
    return invalid_option(name, "must be between 1 and " + std::to_string(max));
  }
  return std::optional<int64_t>(words);
}

Status invalid_language(std::string_view provided) {
  const json names = supported_language_names();
  return Status(code::kInvalidLanguage,
                "target_language '" + std::string(provided.substr(0, 64)) +
                    "' is not supported; use one of the supported_languages (name or ISO 639-1 "
                    "code)",
                {{"provided_language", std::string(provided.substr(0, 256))},
                 {"supported_languages", std::move(names)}});
}

Status read_entity_types(const json& options, const RequestLimits& limits, Task& task) {
  auto types = list_option(options, "entity_types", limits.max_list_items, 4'000);
  if (!types) return types.status();
  std::vector<std::string> unknown;
  for (const std::string& type : *types) {
    if (!entity_type_from_name(type)) unknown.push_back(type);
  }
  if (!unknown.empty()) {
    json known = json::array();
    for (std::string_view name : canonical_entity_names()) known.push_back(name);
    return Status(code::kInvalidOptions,
                  "options.entity_types: unknown type '" + unknown.front() +
                      "'; the supported ones are in details.supported",
                  {{"option", "entity_types"},
                   {"reason", "unknown entity type"},
                   {"unknown", unknown},
                   {"supported", std::move(known)}});
  }
  task.entity_types = types->empty() ? std::vector<std::string>(canonical_entity_names().begin(),
                                                                canonical_entity_names().end())
                                     : std::move(*types);
  return Status::ok();
}

}  // namespace

double confidence_threshold_of(std::string_view level) {
  if (level == "low") return 0.1;
  if (level == "high") return 0.5;
  return 0.3;
}

Status TaskReader::check_content(const json& value, std::string_view field) const {
  if (value.is_null()) {
    return field_error(std::string(field), "'" + std::string(field) + "' is required", {},
                       code::kContentEmpty);
  }
  if (!value.is_string()) {
    return field_error(std::string(field), "'" + std::string(field) + "' must be a string");
  }
  const std::string& text = value.get_ref<const std::string&>();
  if (is_blank(text)) {
    return field_error(std::string(field), "'" + std::string(field) + "' is empty", {},
                       code::kContentEmpty);
  }
  const auto length = static_cast<int64_t>(code_points(text));
  if (length > limits_.max_content_length) {
    return Status(code::kContentTooLong,
                  "'" + std::string(field) + "' holds " + std::to_string(length) +
                      " characters; at most " + std::to_string(limits_.max_content_length) +
                      " are allowed",
                  {{"max_length", limits_.max_content_length}, {"provided_length", length}});
  }
  return Status::ok();
}

Result<Task> TaskReader::read_task(TaskKind kind, const json& body) const {
  Task task;
  task.kind = kind;
  const std::string_view field = kind == TaskKind::kGenerate ? "user_input" : "content";
  const auto content = body.find(field);
  const json& value = content == body.end() ? json() : *content;
  if (Status s = check_content(value, field); !s) return s;
  task.content = value.get<std::string>();

  const auto options = body.find("options");
  const bool absent = options == body.end() || options->is_null();
  if (absent && kind == TaskKind::kTranslate) {
    return Status(code::kInvalidOptions, "options with target_language is required for translate",
                  {{"option", "target_language"}, {"reason", "required"}});
  }
  if (!absent && !options->is_object()) {
    return Status(code::kInvalidOptions, "options must be an object",
                  {{"option", nullptr}, {"reason", "must be an object"}});
  }
  if (Status s = read_options(kind, absent ? json::object() : *options, task); !s) return s;
  return task;
}

Status TaskReader::read_options(TaskKind kind, const json& options, Task& task) const {
  const int64_t max_text = limits_.max_option_length;
  switch (kind) {
    case TaskKind::kGenerate:
    case TaskKind::kSummarize: {
      auto words = words_option(options, "content_length", limits_.max_content_words);
      auto style = text_option(options, "content_style", max_text);
      auto instructions = text_option(options, "custom_instructions", max_text);
      for (const Status& s : {words.status(), style.status(), instructions.status()}) {
        if (!s) return s;
      }
      task.content_length = *words;
      task.content_style = *style;
      task.custom_instructions = *instructions;
      return Status::ok();
    }
    case TaskKind::kClassify: {
      auto level = choice_option(options, "confidence_level", {"low", "medium", "high"}, "medium");
      auto categories =
          list_option(options, "classification_categories", limits_.max_list_items, max_text);
      for (const Status& s : {level.status(), categories.status()}) {
        if (!s) return s;
      }
      task.confidence_level = *level;
      task.confidence_threshold = confidence_threshold_of(*level);
      task.categories = std::move(*categories);
      return Status::ok();
    }
    case TaskKind::kSentiment: {
      auto depth =
          choice_option(options, "analysis_depth", {"brief", "standard", "detailed"}, "standard");
      auto aspects = list_option(options, "specific_aspects", limits_.max_list_items, max_text);
      for (const Status& s : {depth.status(), aspects.status()}) {
        if (!s) return s;
      }
      task.analysis_depth = *depth;
      task.aspects = std::move(*aspects);
      return Status::ok();
    }
    case TaskKind::kExtract:
      return read_entity_types(options, limits_, task);
    case TaskKind::kTranslate: {
      const auto target = options.find("target_language");
      if (target == options.end() || target->is_null()) {
        return invalid_option("target_language", "is required");
      }
      if (!target->is_string()) return invalid_option("target_language", "must be a string");
      const std::string& provided = target->get_ref<const std::string&>();
      const std::optional<Language> language = language_from(provided);
      if (!language) return invalid_language(provided);
      auto style = text_option(options, "translation_style", max_text);
      if (!style) return style.status();
      task.target_language = *language;
      task.translation_style = *style;
      return Status::ok();
    }
    case TaskKind::kVectorize:
      return Status::ok();  // options are reserved (docs/api.md#ai-request-checks)
  }
  return Status::ok();
}

}  // namespace opbase::ai
