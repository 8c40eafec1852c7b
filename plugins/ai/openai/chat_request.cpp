#include "openai/chat_request.hpp"

#include "openai/output_schemas.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

// Runs of five or more '-' cut to four, so no value spells a marker line.
std::string without_markers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  int run = 0;
  for (char c : text) {
    run = c == '-' ? run + 1 : 0;
    if (run <= 4) out += c;
  }
  return out;
}

std::string one_line(std::string_view text) {
  std::string out = without_markers(text);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

// "a", "b", "c": each name quoted, so a name holding a comma stays one name.
std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += json(one_line(name)).dump();
  }
  return out;
}

}  // namespace

PromptValues prompt_values(const Task& task) {
  PromptValues values;
  if (task.content_length && *task.content_length > 0) {
    values["content_length"] = std::to_string(*task.content_length);
  }
  values["content_style"] = one_line(task.content_style);
  values["custom_instructions"] = without_markers(task.custom_instructions);
  values["translation_style"] = one_line(task.translation_style);
  values["target_language"] = one_line(
      task.target_language.name.empty() ? task.target_language.code : task.target_language.name);
  values["target_language_code"] = one_line(task.target_language.code);
  values["categories"] = quoted_list(categories_of(task));
  values["aspects"] = quoted_list(without_repeats(task.aspects));
  values["entity_types"] = quoted_list(without_repeats(task.entity_types));
  values["analysis_depth"] = one_line(task.analysis_depth);
  values["confidence_level"] = one_line(task.confidence_level);
  values["emotions"] = quoted_list(std::vector<std::string>(kEmotions.begin(), kEmotions.end()));
  return values;
}

Result<ChatRequest> chat_request(const Task& task, const OpenAiSettings& settings,
                                 const PromptLibrary& prompts) {
  auto prompt = prompts.render(task.kind, prompt_values(task));
  if (!prompt) return prompt.status();
  json body = {{"model", settings.chat_model},
               {"messages", json::array({{{"role", "system"}, {"content", prompt->system}},
                                         {{"role", "user"}, {"content", task.content}}})},
               {"stream", false}};
  if (settings.temperature) body["temperature"] = *settings.temperature;
  json format = response_format(task);
  if (!format.is_null()) body["response_format"] = std::move(format);
  return ChatRequest{std::move(body), std::move(prompt->version)};
}

}  // namespace opbase::ai
