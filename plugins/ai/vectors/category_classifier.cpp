#include "vectors/category_classifier.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace opbase::ai {

namespace {

// The default categories and the words that describe each (the name comes first).
struct DefaultCategory {
  const char* name;
  const char* words;
};
constexpr DefaultCategory kDefaults[] = {
    {"business",
     "company companies market corporate finance trade profit revenue industry "
     "investors sales"},
    {"technology", "software computer internet digital data devices online apps engineering"},
    {"sports", "game team players match championship league season coach"},
    {"politics", "government election president parliament party vote policy minister"},
    {"entertainment", "movie film music television celebrity actor show concert album"},
    {"health", "medical doctor disease hospital patients treatment medicine symptoms"},
    {"science", "research scientists study experiment physics biology discovery"},
    {"travel", "trip flight hotel tourism vacation destination tourists airport journey"},
    {"food", "cooking recipe restaurant meal dish eat chef ingredients dinner"},
    {"education", "school students teachers university learning classes college teaching"},
};

// Words whose SIF weight is below this (the ~75 most frequent: "the", "is", "said") are never
// named in the reasoning: they say nothing about a topic.
constexpr float kTopicalWeight = 0.5f;
constexpr size_t kReasonWords = 3;

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.empty() || b.empty()) return 0;
  double sum = 0;
  for (size_t k = 0; k < a.size(); ++k) sum += double{a[k]} * b[k];
  return sum;
}

std::string in_quotes(std::string_view word) { return "\"" + std::string(word) + "\""; }

// "a", "a and b", "a, b and c"
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

// "42%"; near the ends one decimal, rounded toward the middle, so that only 1 reads "100%"
// (and only 0 reads "0%").
std::string percent(double confidence) {
  char text[16];
  const double p = confidence * 100;
  if (p > 99.5 && p < 100) {
    std::snprintf(text, sizeof text, "%.1f%%", std::floor(p * 10) / 10);
  } else if (p > 0 && p < 0.5) {
    std::snprintf(text, sizeof text, "%.1f%%", std::ceil(p * 10) / 10);
  } else {
    std::snprintf(text, sizeof text, "%.0f%%", p);
  }
  return text;
}

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

std::string category_words(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '_' || c == '-' || c == '.' || c == '/') {
      out.push_back(' ');
      continue;
    }
    // A word starts at an upper-case letter after a lower-case one ("orderStatus"), or before
    // a lower-case one after upper-case ones ("HTTPError" -> HTTP Error).
    const bool starts = i > 0 && is_upper(c) &&
                        (is_lower(name[i - 1]) ||
                         (is_upper(name[i - 1]) && i + 1 < name.size() && is_lower(name[i + 1])));
    if (starts) out.push_back(' ');
    out.push_back(c);
  }
  return out;
}

CategoryClassifier::CategoryClassifier(std::shared_ptr<const TextEmbedder> embedder)
    : embedder_(std::move(embedder)) {
  for (const DefaultCategory& c : kDefaults) {
    defaults_.push_back({c.name, embedder_->base_vector(std::string(c.name) + " " + c.words)});
  }
}

std::vector<std::string> CategoryClassifier::default_categories() const {
  std::vector<std::string> names;
  for (const Category& c : defaults_) names.push_back(c.name);
  return names;
}

std::vector<CategoryClassifier::Category> CategoryClassifier::categories_for(
    const std::vector<std::string>& names) const {
  if (names.empty()) return defaults_;
  std::vector<Category> out;
  std::unordered_set<std::string> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) continue;
    out.push_back({name, embedder_->base_vector(category_words(name))});
  }
  return out;
}

CategoryClassifier::TextWords CategoryClassifier::text_words(std::string_view text) const {
  std::vector<TextEmbedder::KnownWord> known = embedder_->known_words(text);
  const bool any_topical = std::any_of(known.begin(), known.end(),
                                       [](const auto& w) { return w.weight >= kTopicalWeight; });
  TextWords out;
  std::unordered_map<uint32_t, size_t> at;  // word index -> position in `out`
  for (const TextEmbedder::KnownWord& w : known) {
    if (any_topical && w.weight < kTopicalWeight) continue;
    const auto [it, added] = at.emplace(w.row.index, out.words.size());
    if (added) {
      out.words.push_back(w.word);
      out.directions.push_back(embedder_->word_direction(w.row));
      out.weights.push_back(0);
    }
    out.weights[it->second] += w.weight;
  }
  return out;
}

// Each word's cosine with the category, negatives as 0, averaged with the words' weights.
double CategoryClassifier::score(const TextWords& words, const Category& category) const {
  double sum = 0, weights = 0;
  for (size_t i = 0; i < words.words.size(); ++i) {
    sum += words.weights[i] * std::max(0.0, dot(words.directions[i], category.vector));
    weights += words.weights[i];
  }
  return weights > 0 ? sum / weights : 0;
}

std::vector<double> CategoryClassifier::similarities(
    std::string_view text, const std::vector<std::string>& categories) const {
  const TextWords words = text_words(text);
  std::vector<double> out;
  for (const Category& c : categories_for(categories)) out.push_back(score(words, c));
  return out;
}

nlohmann::json CategoryClassifier::classify(const ClassifyRequest& request) const {
  const std::vector<Category> categories = categories_for(request.categories);
  const TextWords words = text_words(request.text);
  // Softmax of the scores over the temperature, shifted by the largest for exactness.
  std::vector<double> scores;
  for (const Category& c : categories) scores.push_back(score(words, c) / kTemperature);
  const double top = scores.empty() ? 0 : *std::max_element(scores.begin(), scores.end());
  double total = 0;
  for (double& s : scores) total += (s = std::exp(s - top));
  for (double& s : scores) s /= total;

  std::vector<size_t> order(categories.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scores[a] > scores[b]; });

  nlohmann::json out = nlohmann::json::object();
  out["primary_classification"] = categories.empty() ? "" : categories[order[0]].name;
  nlohmann::json secondary = nlohmann::json::array();
  for (size_t i = 1; i < order.size(); ++i) {
    if (scores[order[i]] >= request.threshold) secondary.push_back(categories[order[i]].name);
  }
  out["secondary_classifications"] = std::move(secondary);
  nlohmann::json confidences = nlohmann::json::object();
  for (size_t i = 0; i < categories.size(); ++i) confidences[categories[i].name] = scores[i];
  out["confidence_scores"] = std::move(confidences);
  out["reasoning"] = categories.empty() ? "No categories to choose from."
                                        : reasoning(words, categories[order[0]], scores[order[0]],
                                                    request.threshold);
  return out;
}

std::string CategoryClassifier::reasoning(const TextWords& words, const Category& best,
                                          double confidence, double threshold) const {
  if (words.words.empty()) {
    return "No word of the text is in the offline vocabulary, so every category scored the "
           "same and " +
           in_quotes(best.name) + ", listed first, was chosen.";
  }
  // The text's words nearest to the category first.
  std::vector<std::pair<double, std::string_view>> near;
  for (size_t i = 0; i < words.words.size(); ++i) {
    const double similarity = dot(words.directions[i], best.vector);
    if (similarity > 0) near.emplace_back(similarity, words.words[i]);
  }
  const size_t shown = std::min(kReasonWords, near.size());
  std::partial_sort(near.begin(), near.begin() + shown, near.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> named;
  for (size_t i = 0; i < shown; ++i) named.push_back(in_quotes(near[i].second));

  std::string sentence;
  if (confidence >= threshold) {
    sentence = "The text is closest to " + in_quotes(best.name) + " (" + percent(confidence) + ")";
  } else {
    sentence = "No category reached the " + percent(threshold) + " threshold; the closest is " +
               in_quotes(best.name) + " at " + percent(confidence);
  }
  if (named.empty()) return sentence + ", though none of its words is close to that category.";
  return sentence + (named.size() == 1 ? ": its word " : ": its words ") + listed(named) +
         (named.size() == 1 ? " is" : " are") + " the nearest to it.";
}

}  // namespace opbase::ai
