#include "provider/offline_provider.hpp"

#include "translate/source_language.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

// What no offline method can do honestly: write new text.
Status needs_a_model(std::string_view op) {
  return Status(
      code::kProcessingFailed,
      std::string(op) +
          " needs a language model, which the offline provider does not have: set "
          "ai.provider." +
          std::string(op.substr(3)) +
          " = openai and the ai.openai.* keys to a model server (docs/configuration.md#ai)",
      {{"error_type", "unsupported_offline"}, {"retry_recommended", false}});
}

}  // namespace

Result<std::shared_ptr<const OfflineProvider>> OfflineProvider::load(
    const std::filesystem::path& data_dir, int dimensions) {
  Parts parts;
  auto summarizer = Summarizer::load(data_dir);
  if (!summarizer) return summarizer.status();
  auto sentiment = SentimentAnalyzer::load(data_dir);
  if (!sentiment) return sentiment.status();
  auto embedder = TextEmbedder::load(data_dir, dimensions);
  if (!embedder) return embedder.status();
  auto extractor = EntityExtractor::load(data_dir);
  if (!extractor) return extractor.status();
  parts.summarizer = std::move(*summarizer);
  parts.sentiment = std::move(*sentiment);
  parts.embedder = std::move(*embedder);
  parts.classifier = std::make_shared<const CategoryClassifier>(parts.embedder);
  parts.extractor = std::move(*extractor);
  parts.translator = std::make_shared<ApertiumTranslator>(ApertiumSettings{});
  return std::make_shared<const OfflineProvider>(std::move(parts));
}

Result<TaskAnswer> OfflineProvider::run(const Task& task) const {
  TaskAnswer answer;
  switch (task.kind) {
    case TaskKind::kGenerate:
      return needs_a_model("ai.generate");
    case TaskKind::kSummarize: {
      const SummaryAnswer summary = parts_.summarizer->summarize(
          {task.content, task.content_length, task.content_style, task.custom_instructions});
      answer.output = summary.summary;
      answer.meta = {{"model", "offline-textrank-v1"},
                     {"style_applied", summary.style_applied},
                     {"instructions_followed", !summary.instructions_ignored}};
      return answer;
    }
    case TaskKind::kClassify:
      answer.output =
          parts_.classifier->classify({task.content, task.categories, task.confidence_threshold});
      answer.meta = {{"model", parts_.embedder->model_version()},
                     {"classification_method", "embedding_similarity"}};
      return answer;
    case TaskKind::kSentiment: {
      SentimentAnswer sentiment =
          parts_.sentiment->analyze({task.content, task.analysis_depth, task.aspects});
      answer.output = std::move(sentiment.output);
      answer.meta = {{"model", "offline-vader-v1"}, {"analysis_confidence", sentiment.confidence}};
      return answer;
    }
    case TaskKind::kExtract: {
      ExtractAnswer found = parts_.extractor->extract({task.content, task.entity_types});
      answer.output = std::move(found.output);
      answer.meta = {{"model", "offline-gazetteer-v1"},
                     {"extraction_confidence", found.confidence}};
      return answer;
    }
    case TaskKind::kTranslate:
      return translate(task);
    case TaskKind::kVectorize:
      break;  // the op layer asks embed()
  }
  return Status::internal("the offline provider was asked an unknown task");
}

Result<TaskAnswer> OfflineProvider::translate(const Task& task) const {
  if (!looks_english(task.content)) return not_english_failure();
  auto translated = parts_.translator->translate(task.content, task.target_language);
  if (!translated) return translated.status();
  TaskAnswer answer;
  answer.output = translated->text;
  answer.meta = {{"model", "apertium"},
                 {"source_language", "English"},
                 {"translation_confidence", translated->confidence},
                 {"route", translated->route}};
  if (!task.translation_style.empty()) answer.meta["style_applied"] = "default";
  return answer;
}

Result<Embeddings> OfflineProvider::embed(const std::vector<std::string>& texts) const {
  Embeddings embeddings;
  embeddings.dimensions = parts_.embedder->dimensions();
  embeddings.model = parts_.embedder->model_version();
  embeddings.vectors.reserve(texts.size());
  for (const std::string& text : texts) embeddings.vectors.push_back(parts_.embedder->embed(text));
  return embeddings;
}

}  // namespace opbase::ai
