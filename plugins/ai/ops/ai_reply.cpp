#include "ops/ai_reply.hpp"

#include <cmath>

#include "text/unicode_text.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

double rounded(double value, double unit) { return std::round(value / unit) * unit; }

// Sets `key` unless the provider already did.
void fill(json& meta, std::string_view key, json value) {
  if (!meta.contains(key)) meta[std::string(key)] = std::move(value);
}

size_t entities_in(const json& output) {
  size_t found = 0;
  if (!output.is_object()) return 0;
  for (const auto& [type, list] : output.items()) {
    if (list.is_array()) found += list.size();
  }
  return found;
}

}  // namespace

size_t word_count(std::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

double norm_of(const json& vector) {
  double sum = 0;
  if (!vector.is_array()) return 0;
  for (const json& x : vector) {
    if (x.is_number()) sum += x.get<double>() * x.get<double>();
  }
  return std::sqrt(sum);
}

json meta_of(const Task& task, const TaskAnswer& answer, std::string_view provider,
             double elapsed_ms) {
  json meta = answer.meta.is_object() ? answer.meta : json::object();
  const double time_ms = rounded(elapsed_ms, 0.001);
  const json& output = answer.output;
  switch (task.kind) {
    case TaskKind::kGenerate: {
      const std::string text = output.is_string() ? output.get<std::string>() : "";
      fill(meta, "content_length", word_count(text));
      fill(meta, "generation_time_ms", time_ms);
      fill(meta, "style_applied", task.content_style.empty() ? "default" : task.content_style);
      break;
    }
    case TaskKind::kSummarize: {
      const size_t original = code_points(task.content);
      const size_t summary = output.is_string() ? code_points(output.get<std::string>()) : 0;
      fill(meta, "original_length", original);
      fill(meta, "summary_length", summary);
      fill(meta, "compression_ratio",
           rounded(static_cast<double>(summary) / static_cast<double>(original), 0.0001));
      break;
    }
    case TaskKind::kClassify:
      fill(meta, "classification_method", "unknown");
      fill(meta, "confidence_threshold", task.confidence_threshold);
      break;
    case TaskKind::kSentiment:
      fill(meta, "analysis_confidence", 0.0);
      break;
    case TaskKind::kExtract:
      meta["entities_found"] = entities_in(output);
      fill(meta, "extraction_confidence", 0.0);
      break;
    case TaskKind::kTranslate:
      fill(meta, "source_language", "English");
      meta["target_language"] = task.target_language.name;
      fill(meta, "translation_confidence", 0.0);
      fill(meta, "style_applied",
           task.translation_style.empty() ? "default" : task.translation_style);
      break;
    case TaskKind::kVectorize:
      fill(meta, "content_length", code_points(task.content));
      fill(meta, "vector_norm",
           norm_of(output.is_object() ? output.value("vector", json()) : json()));
      meta["vector_norm"] = rounded(meta["vector_norm"].get<double>(), 1e-6);
      break;
  }
  if (task.kind != TaskKind::kGenerate) meta["processing_time_ms"] = time_ms;
  meta["provider"] = provider;
  return meta;
}

}  // namespace opbase::ai
