#include "openai/output_schemas.hpp"

#include <set>

namespace opbase::ai {
namespace {

using nlohmann::json;

json string_schema() { return {{"type", "string"}}; }
json number_schema() { return {{"type", "number"}}; }

json label_schema() {
  return {
      {"type", "string"},
      {"enum", json(std::vector<std::string>(kSentimentLabels.begin(), kSentimentLabels.end()))}};
}

// A closed object whose every property is required (what strict mode asks for).
json object_schema(json properties) {
  json required = json::array();
  for (const auto& item : properties.items()) required.push_back(item.key());
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", std::move(required)},
          {"additionalProperties", false}};
}

// One number property per name.
json scores_schema(const std::vector<std::string>& names) {
  json properties = json::object();
  for (const std::string& name : names) properties[name] = number_schema();
  return object_schema(std::move(properties));
}

json format(std::string_view name, json schema) {
  return {{"type", "json_schema"},
          {"json_schema", {{"name", name}, {"strict", true}, {"schema", std::move(schema)}}}};
}

}  // namespace

const std::vector<std::string>& default_categories() {
  static const std::vector<std::string> categories = {
      "business",  "technology",  "science", "health",    "politics", "sports", "entertainment",
      "education", "environment", "finance", "lifestyle", "travel",   "other"};
  return categories;
}

std::vector<std::string> without_repeats(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  std::set<std::string_view> seen;
  for (const std::string& item : items) {
    if (seen.insert(item).second) out.push_back(item);
  }
  return out;
}

std::vector<std::string> categories_of(const Task& task) {
  return task.categories.empty() ? default_categories() : without_repeats(task.categories);
}

json classification_schema(const std::vector<std::string>& categories) {
  const json names(categories);
  return object_schema({
      {"primary_classification", {{"type", "string"}, {"enum", names}}},
      {"secondary_classifications",
       {{"type", "array"}, {"items", {{"type", "string"}, {"enum", names}}}}},
      {"confidence_scores", scores_schema(categories)},
      {"reasoning", string_schema()},
  });
}

json sentiment_schema(const std::vector<std::string>& aspects) {
  json aspect_properties = json::object();
  for (const std::string& aspect : aspects) {
    aspect_properties[aspect] =
        object_schema({{"sentiment", label_schema()}, {"score", number_schema()}});
  }
  return object_schema({
      {"overall_sentiment", label_schema()},
      {"sentiment_score", number_schema()},
      {"emotional_indicators",
       scores_schema(std::vector<std::string>(kEmotions.begin(), kEmotions.end()))},
      {"aspect_sentiments", object_schema(std::move(aspect_properties))},
      {"key_phrases", {{"type", "array"}, {"items", string_schema()}}},
      {"tone_analysis", string_schema()},
      {"confidence", number_schema()},
  });
}

json extraction_schema(const std::vector<std::string>& entity_types) {
  const json entity = object_schema({{"text", string_schema()},
                                     {"normalized", string_schema()},
                                     {"confidence", number_schema()}});
  json properties = json::object();
  for (const std::string& type : entity_types) {
    properties[type] = {{"type", "array"}, {"items", entity}};
  }
  return object_schema(std::move(properties));
}

json translation_schema() {
  return object_schema({{"translation", string_schema()},
                        {"source_language", string_schema()},
                        {"confidence", number_schema()}});
}

json response_format(const Task& task) {
  switch (task.kind) {
    case TaskKind::kClassify:
      return format("classification", classification_schema(categories_of(task)));
    case TaskKind::kSentiment:
      return format("sentiment_analysis", sentiment_schema(without_repeats(task.aspects)));
    case TaskKind::kExtract:
      return format("entity_extraction", extraction_schema(without_repeats(task.entity_types)));
    case TaskKind::kTranslate:
      return format("translation", translation_schema());
    case TaskKind::kGenerate:
    case TaskKind::kSummarize:
    case TaskKind::kVectorize:
      break;
  }
  return nullptr;
}

}  // namespace opbase::ai
