// OfflineProvider: the built-in provider, the default (docs/api.md#the-offline-provider). It needs
// no network and no model: classical methods over data installed with the plugin
// (docs/api.md#the-offline-provider says what each op does and how well):
//   summarize  extractive TextRank (summary/)            sentiment  VADER (sentiment/)
//   classify   word-vector similarity (vectors/)         extract    scanners and gazetteers
//   vectorize  GloVe 6B 100d, SIF, 1536 dims (vectors/)  translate  Apertium (translate/), from
//   generate   PROCESSING_FAILED: a language model is               English to es, fr, pt, it
//              needed, and no fake text is made
//
// Thread-safety: immutable after load(); run() and embed() from any number of threads.
#pragma once

#include <filesystem>
#include <memory>

#include "extract/entity_extractor.hpp"
#include "provider/provider.hpp"
#include "sentiment/sentiment_analyzer.hpp"
#include "summary/summarizer.hpp"
#include "translate/apertium_translator.hpp"
#include "vectors/category_classifier.hpp"
#include "vectors/text_embedder.hpp"

namespace opbase::ai {

class OfflineProvider final : public Provider {
 public:
  // Loads every part's data from `data_dir` (a Status naming the missing file otherwise);
  // vectors have `dimensions` components. Apertium starts on first use.
  static Result<std::shared_ptr<const OfflineProvider>> load(const std::filesystem::path& data_dir,
                                                             int dimensions);

  std::string_view name() const override { return "offline"; }
  Result<TaskAnswer> run(const Task& task) const override;
  Result<Embeddings> embed(const std::vector<std::string>& texts) const override;
  // Stops the Apertium processes (at plugin shutdown; translations fail afterwards).
  void shutdown() const { parts_.translator->shutdown(); }

  struct Parts {
    std::shared_ptr<const Summarizer> summarizer;
    std::shared_ptr<const SentimentAnalyzer> sentiment;
    std::shared_ptr<const TextEmbedder> embedder;
    std::shared_ptr<const CategoryClassifier> classifier;
    std::shared_ptr<const EntityExtractor> extractor;
    std::shared_ptr<ApertiumTranslator> translator;
  };
  explicit OfflineProvider(Parts parts) : parts_(std::move(parts)) {}

 private:
  Result<TaskAnswer> translate(const Task& task) const;

  Parts parts_;
};

}  // namespace opbase::ai
