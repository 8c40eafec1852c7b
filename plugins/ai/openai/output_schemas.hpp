// The JSON shapes a chat model is asked to answer in (OpenAI "structured outputs": response_format
// json_schema with strict true). Each is the spec's data.output for its op
// (docs/api.md#ai-answers), plus a "confidence" the model gives for its own answer where the op
// reports one in meta. Strict mode needs every object closed and every property required, so the
// open maps of the spec are closed over names known before the call: the categories, the eight
// emotions, the requested aspects and entity types.
//
// Thread-safety: pure functions and constants.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "provider/task.hpp"

namespace opbase::ai {

// The keys of emotional_indicators: Plutchik's eight basic emotions.
inline constexpr std::array<std::string_view, 8> kEmotions = {
    "joy", "trust", "fear", "surprise", "sadness", "disgust", "anger", "anticipation"};

// The values of overall_sentiment and of each aspect's sentiment.
inline constexpr std::array<std::string_view, 4> kSentimentLabels = {"positive", "negative",
                                                                     "neutral", "mixed"};

// The categories classify uses when the request names none.
const std::vector<std::string>& default_categories();

// `items` without repeats, in their first order.
std::vector<std::string> without_repeats(const std::vector<std::string>& items);

// What a task is classified into: its categories without repeats, or default_categories().
std::vector<std::string> categories_of(const Task& task);

nlohmann::json classification_schema(const std::vector<std::string>& categories);
nlohmann::json sentiment_schema(const std::vector<std::string>& aspects);
nlohmann::json extraction_schema(const std::vector<std::string>& entity_types);
nlohmann::json translation_schema();

// The request's response_format for `task`: {"type": "json_schema", "json_schema": {"name",
// "strict": true, "schema"}} for classify, sentiment, extract and translate; null (plain text) for
// generate and summarize.
nlohmann::json response_format(const Task& task);

}  // namespace opbase::ai
