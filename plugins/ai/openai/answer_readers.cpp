#include "openai/answer_readers.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "openai/model_failure.hpp"
#include "openai/output_schemas.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

constexpr std::string_view kBlank = " \t\r\n";

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(kBlank);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kBlank) - first + 1);
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The JSON a model wrote, without a leading <think>...</think> block (reasoning models served by
// Ollama or llama.cpp) and without a ```json fence around it.
std::string_view unwrapped(std::string_view content) {
  std::string_view text = trimmed(content);
  if (text.starts_with("<think>")) {
    const size_t end = text.find("</think>");
    if (end != std::string_view::npos) text = trimmed(text.substr(end + 8));
  }
  if (text.starts_with("```")) {
    const size_t line_end = text.find('\n');
    text = line_end == std::string_view::npos ? std::string_view() : text.substr(line_end + 1);
    text = trimmed(text);
    if (text.ends_with("```")) text = trimmed(text.substr(0, text.size() - 3));
  }
  return text;
}

Result<json> parse_object(std::string_view text, std::string_view what) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return bad_answer("the model server's " + std::string(what) + " is not valid JSON");
  }
  if (!value.is_object()) {
    return bad_answer("the model server's " + std::string(what) + " is not a JSON object");
  }
  return value;
}

// The model's answer as a JSON object.
Result<json> model_object(std::string_view content) {
  return parse_object(unwrapped(content), "answer");
}

// The member called `name`, matched exactly or else in any ASCII case; null when absent.
const json* member(const json& object, std::string_view name) {
  if (!object.is_object()) return nullptr;
  const auto exact = object.find(name);
  if (exact != object.end()) return &*exact;
  const std::string wanted = lower(name);
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (lower(it.key()) == wanted) return &*it;
  }
  return nullptr;
}

std::optional<double> finite_number(const json* value) {
  if (value == nullptr || !value->is_number()) return std::nullopt;
  const double number = value->get<double>();
  if (!std::isfinite(number)) return std::nullopt;
  return number;
}

Status missing(std::string_view field, std::string_view kind) {
  return bad_answer("the model's answer lacks " + std::string(kind) + " " + std::string(field));
}

Result<std::string> required_string(const json& object, std::string_view field) {
  const json* value = member(object, field);
  if (value == nullptr || !value->is_string()) return missing(field, "the string");
  return value->get<std::string>();
}

Result<double> required_number(const json& object, std::string_view field) {
  const auto number = finite_number(member(object, field));
  if (!number) return missing(field, "the number");
  return *number;
}

// A model's own confidence in [0, 1]; kDefaultConfidence when it gave none.
double confidence_in(const json& object) {
  const auto number = finite_number(member(object, "confidence"));
  return number ? std::clamp(*number, 0.0, 1.0) : kDefaultConfidence;
}

Result<std::vector<std::string>> string_list(const json& object, std::string_view field) {
  const json* value = member(object, field);
  if (value == nullptr || !value->is_array()) return missing(field, "the list");
  std::vector<std::string> out;
  for (const json& item : *value) {
    if (!item.is_string()) {
      return bad_answer("the model's " + std::string(field) + " holds a non-string");
    }
    const std::string_view text = trimmed(item.get_ref<const std::string&>());
    if (!text.empty()) out.emplace_back(text);
  }
  return out;
}

// "positive", "negative", "neutral" or "mixed" in any case, as lower case.
Result<std::string> sentiment_label(const json& object, std::string_view field) {
  auto text = required_string(object, field);
  if (!text) return text.status();
  std::string label = lower(trimmed(*text));
  for (std::string_view known : kSentimentLabels) {
    if (label == known) return label;
  }
  return bad_answer("the model's " + std::string(field) + " is not a known sentiment");
}

// confidence_scores for every category: non-negative, summing to 1.
Result<std::vector<double>> category_scores(const json& answer,
                                            const std::vector<std::string>& categories) {
  const json* scores = member(answer, "confidence_scores");
  if (scores == nullptr || !scores->is_object()) return missing("confidence_scores", "the object");
  std::vector<double> out;
  double sum = 0;
  for (const std::string& category : categories) {
    const json* value = member(*scores, category);
    const auto number = finite_number(value);
    if (value != nullptr && !number) {
      return bad_answer("the model's score of a category is not a number");
    }
    out.push_back(std::max(0.0, number.value_or(0.0)));
    sum += out.back();
  }
  if (!std::isfinite(sum)) return bad_answer("the model's category scores are too large");
  for (double& score : out) score = sum > 0 ? score / sum : 0.0;
  return out;
}

// The index of the category the model named, or -1.
int named_category(const std::string& name, const std::vector<std::string>& categories) {
  for (size_t i = 0; i < categories.size(); ++i) {
    if (categories[i] == name) return static_cast<int>(i);
  }
  const std::string wanted = lower(trimmed(name));
  for (size_t i = 0; i < categories.size(); ++i) {
    if (lower(categories[i]) == wanted) return static_cast<int>(i);
  }
  return -1;
}

Result<json> aspect_sentiments(const json& answer, const std::vector<std::string>& aspects) {
  const json* given = member(answer, "aspect_sentiments");
  if (given == nullptr || !given->is_object()) return missing("aspect_sentiments", "the object");
  json out = json::object();
  for (const std::string& aspect : aspects) {
    const json* value = member(*given, aspect);
    if (value == nullptr || !value->is_object()) return missing("aspect " + aspect, "the");
    auto label = sentiment_label(*value, "sentiment");
    auto score = required_number(*value, "score");
    if (!label) return label.status();
    if (!score) return score.status();
    out[aspect] = {{"sentiment", *label}, {"score", std::clamp(*score, -1.0, 1.0)}};
  }
  return out;
}

Result<json> emotions(const json& answer) {
  const json* given = member(answer, "emotional_indicators");
  if (given == nullptr || !given->is_object()) return missing("emotional_indicators", "the object");
  json out = json::object();
  for (std::string_view emotion : kEmotions) {
    const json* value = member(*given, emotion);
    const auto number = finite_number(value);
    if (value != nullptr && !number) return bad_answer("the model's emotion score is not a number");
    out[std::string(emotion)] = std::clamp(number.value_or(0.0), 0.0, 1.0);
  }
  return out;
}

// One type's entities: {text, normalized, confidence}, repeats dropped. Adds each confidence to
// `confidences`.
Result<json> entities_of(const json& list, std::vector<double>* confidences) {
  json out = json::array();
  std::vector<std::string> seen;
  for (const json& item : list) {
    auto text = required_string(item, "text");
    if (!text) return text.status();
    const std::string value(trimmed(*text));
    if (value.empty() || std::find(seen.begin(), seen.end(), value) != seen.end()) continue;
    seen.push_back(value);
    const json* normalized = member(item, "normalized");
    const bool has_normal = normalized != nullptr && normalized->is_string() &&
                            !trimmed(normalized->get_ref<const std::string&>()).empty();
    const double confidence = confidence_in(item);
    confidences->push_back(confidence);
    out.push_back(
        {{"text", value},
         {"normalized",
          has_normal ? std::string(trimmed(normalized->get_ref<const std::string&>())) : value},
         {"confidence", confidence}});
  }
  return out;
}

// An ISO 639 code in lower case ("EN" -> "en"); any other name as the model wrote it.
std::string language_of(std::string_view text) {
  const bool code =
      text.size() >= 2 && text.size() <= 3 && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      });
  return code ? lower(text) : std::string(text);
}

}  // namespace

Result<ChatReply> read_chat_reply(std::string_view body) {
  auto answer = parse_object(body, "chat completion");
  if (!answer) return answer.status();
  const json* choices = member(*answer, "choices");
  if (choices == nullptr || !choices->is_array() || choices->empty()) {
    return bad_answer("the chat completion has no choices");
  }
  const json& choice = choices->front();
  const json* message = member(choice, "message");
  if (message == nullptr || !message->is_object()) {
    return bad_answer("the chat completion's first choice has no message");
  }
  ChatReply reply;
  const json* finish = member(choice, "finish_reason");
  if (finish != nullptr && finish->is_string()) reply.finish_reason = finish->get<std::string>();
  const json* refusal = member(*message, "refusal");
  if (refusal != nullptr && refusal->is_string() &&
      !refusal->get_ref<const std::string&>().empty()) {
    return model_failure(model_error::kBadAnswer, false,
                         "the model refused: " + shorten(refusal->get<std::string>()));
  }
  if (reply.finish_reason == "content_filter") {
    return model_failure(model_error::kBadAnswer, false,
                         "the model server's content filter stopped the answer");
  }
  const json* content = member(*message, "content");
  if (content == nullptr || !content->is_string()) {
    return bad_answer("the chat completion's message has no text content");
  }
  reply.content = content->get<std::string>();
  const json* model = member(*answer, "model");
  if (model != nullptr && model->is_string()) reply.model = model->get<std::string>();
  return reply;
}

Result<TaskAnswer> read_text_answer(std::string_view content) {
  std::string_view text = trimmed(content);
  if (text.starts_with("<think>")) {
    const size_t end = text.find("</think>");
    if (end != std::string_view::npos) text = trimmed(text.substr(end + 8));
  }
  if (text.empty()) return bad_answer("the model answered with no text");
  return TaskAnswer{json(std::string(text))};
}

Result<TaskAnswer> read_classification(std::string_view content,
                                       const std::vector<std::string>& categories,
                                       double threshold) {
  if (categories.empty()) return bad_answer("no categories to classify into");
  auto answer = model_object(content);
  if (!answer) return answer.status();
  auto primary = required_string(*answer, "primary_classification");
  auto secondary = string_list(*answer, "secondary_classifications");
  auto reasoning = required_string(*answer, "reasoning");
  auto scores = category_scores(*answer, categories);
  if (!primary) return primary.status();
  if (!secondary) return secondary.status();
  if (!reasoning) return reasoning.status();
  if (!scores) return scores.status();
  // The best score wins; the model's own choice breaks a tie (and wins when all scores are 0).
  int best = named_category(*primary, categories);
  if (best < 0) best = 0;
  for (size_t i = 0; i < scores->size(); ++i) {
    if ((*scores)[i] > (*scores)[best]) best = static_cast<int>(i);
  }
  if ((*scores)[best] == 0) (*scores)[best] = 1;
  std::vector<size_t> order;
  for (size_t i = 0; i < categories.size(); ++i) {
    if (static_cast<int>(i) != best && (*scores)[i] > 0 && (*scores)[i] >= threshold) {
      order.push_back(i);
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return (*scores)[a] > (*scores)[b]; });
  json output = {{"primary_classification", categories[best]},
                 {"secondary_classifications", json::array()},
                 {"confidence_scores", json::object()},
                 {"reasoning", std::string(trimmed(*reasoning))}};
  for (size_t i : order) output["secondary_classifications"].push_back(categories[i]);
  for (size_t i = 0; i < categories.size(); ++i) {
    output["confidence_scores"][categories[i]] = (*scores)[i];
  }
  return TaskAnswer{std::move(output), {{"classification_method", "llm"}}};
}

Result<TaskAnswer> read_sentiment(std::string_view content,
                                  const std::vector<std::string>& aspects) {
  auto answer = model_object(content);
  if (!answer) return answer.status();
  auto overall = sentiment_label(*answer, "overall_sentiment");
  auto score = required_number(*answer, "sentiment_score");
  auto emotion_scores = emotions(*answer);
  auto by_aspect = aspect_sentiments(*answer, aspects);
  auto phrases = string_list(*answer, "key_phrases");
  auto tone = required_string(*answer, "tone_analysis");
  for (const Status& st : {overall.status(), score.status(), emotion_scores.status(),
                           by_aspect.status(), phrases.status(), tone.status()}) {
    if (!st) return st;
  }
  json output = {{"overall_sentiment", *overall},
                 {"sentiment_score", std::clamp(*score, -1.0, 1.0)},
                 {"emotional_indicators", std::move(*emotion_scores)},
                 {"aspect_sentiments", std::move(*by_aspect)},
                 {"key_phrases", *phrases},
                 {"tone_analysis", std::string(trimmed(*tone))}};
  return TaskAnswer{std::move(output), {{"analysis_confidence", confidence_in(*answer)}}};
}

Result<TaskAnswer> read_extraction(std::string_view content,
                                   const std::vector<std::string>& entity_types) {
  auto answer = model_object(content);
  if (!answer) return answer.status();
  json output = json::object();
  std::vector<double> confidences;
  for (const std::string& type : entity_types) {
    const json* list = member(*answer, type);
    if (list == nullptr || !list->is_array()) return missing("entity type " + type, "the list of");
    auto entities = entities_of(*list, &confidences);
    if (!entities) return entities.status();
    output[type] = std::move(*entities);
  }
  double mean = kDefaultConfidence;
  if (!confidences.empty()) {
    double sum = 0;
    for (double c : confidences) sum += c;
    mean = sum / static_cast<double>(confidences.size());
  }
  return TaskAnswer{std::move(output),
                    {{"entities_found", confidences.size()}, {"extraction_confidence", mean}}};
}

Result<TaskAnswer> read_translation(std::string_view content) {
  auto answer = model_object(content);
  if (!answer) return answer.status();
  auto translation = required_string(*answer, "translation");
  auto source = required_string(*answer, "source_language");
  if (!translation) return translation.status();
  if (!source) return source.status();
  const std::string_view text = trimmed(*translation);
  const std::string_view language = trimmed(*source);
  if (text.empty()) return bad_answer("the model's translation is empty");
  if (language.empty()) return bad_answer("the model's source_language is empty");
  return TaskAnswer{json(std::string(text)),
                    {{"source_language", language_of(language)},
                     {"translation_confidence", confidence_in(*answer)}}};
}

Result<TaskAnswer> read_task_answer(const Task& task, std::string_view content) {
  switch (task.kind) {
    case TaskKind::kGenerate:
    case TaskKind::kSummarize:
      return read_text_answer(content);
    case TaskKind::kClassify:
      return read_classification(content, categories_of(task), task.confidence_threshold);
    case TaskKind::kSentiment:
      return read_sentiment(content, without_repeats(task.aspects));
    case TaskKind::kExtract:
      return read_extraction(content, without_repeats(task.entity_types));
    case TaskKind::kTranslate:
      return read_translation(content);
    case TaskKind::kVectorize:
      break;
  }
  return Status::internal("vectorize is not a chat task");
}

Result<Embeddings> read_embeddings(std::string_view body, size_t count) {
  auto answer = parse_object(body, "embeddings answer");
  if (!answer) return answer.status();
  const json* data = member(*answer, "data");
  if (data == nullptr || !data->is_array()) return bad_answer("the embeddings answer has no data");
  if (data->size() != count) {
    return bad_answer("the embeddings answer has " + std::to_string(data->size()) +
                      " vectors for " + std::to_string(count) + " texts");
  }
  Embeddings out;
  out.vectors.resize(count);
  std::vector<bool> filled(count, false);
  for (size_t position = 0; position < count; ++position) {
    const json& item = (*data)[position];
    const json* index = member(item, "index");
    size_t at = position;
    if (index != nullptr) {
      if (!index->is_number_unsigned() || index->get<uint64_t>() >= count) {
        return bad_answer("an embedding's index is out of range");
      }
      at = static_cast<size_t>(index->get<uint64_t>());
    }
    if (filled[at]) return bad_answer("two embeddings have index " + std::to_string(at));
    filled[at] = true;
    const json* vector = member(item, "embedding");
    if (vector == nullptr || !vector->is_array() || vector->empty()) {
      return bad_answer("an embedding is not a list of numbers");
    }
    std::vector<float>& into = out.vectors[at];
    into.reserve(vector->size());
    for (const json& number : *vector) {
      const auto value = finite_number(&number);
      if (!value || std::abs(*value) > 3.0e38) return bad_answer("an embedding holds a non-number");
      into.push_back(static_cast<float>(*value));
    }
  }
  out.dimensions = out.vectors.empty() ? 0 : static_cast<int>(out.vectors.front().size());
  for (const auto& vector : out.vectors) {
    if (static_cast<int>(vector.size()) != out.dimensions) {
      return bad_answer("the embeddings have different lengths");
    }
  }
  const json* model = member(*answer, "model");
  if (model != nullptr && model->is_string()) out.model = model->get<std::string>();
  return out;
}

std::string read_error_message(std::string_view body) {
  const json answer = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded()) {
    const std::string_view text = trimmed(body);
    return text.starts_with('<') ? std::string() : std::string(text);
  }
  const json* error = member(answer, "error");
  if (error != nullptr && error->is_string()) return error->get<std::string>();
  if (error != nullptr) {
    const json* message = member(*error, "message");
    if (message != nullptr && message->is_string()) return message->get<std::string>();
  }
  for (std::string_view field : {"message", "detail"}) {
    const json* message = member(answer, field);
    if (message != nullptr && message->is_string()) return message->get<std::string>();
  }
  return {};
}

std::string read_error_code(std::string_view body) {
  const json answer = json::parse(body, nullptr, /*allow_exceptions=*/false);
  const json* error = member(answer, "error");
  const json* code = error == nullptr ? nullptr : member(*error, "code");
  return code != nullptr && code->is_string() ? code->get<std::string>() : std::string();
}

}  // namespace opbase::ai
