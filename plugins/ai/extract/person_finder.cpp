#include "extract/person_finder.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

namespace opbase::ai::extract {

namespace {

constexpr double kTitledConfidence = 0.9;
constexpr double kNamedConfidence = 0.85;
constexpr double kPlaceNameConfidence = 0.7;  // the first name is also a place ("Sydney Lee")
constexpr double kSurnameConfidence = 0.7;
constexpr size_t kMaxNameWords = 4;

// An initial: one capital letter with its dot ("F.").
bool is_initial(const Word& word) {
  return word.capitalized && word.period_after && word.end - word.begin == 1;
}

// A word that may end a person's name.
bool surname_word(const NameContext& context, size_t i, const Claims& claims) {
  const Word& word = context.words[i];
  if (!word.capitalized || word.all_caps || word.has_digit || word.dotted) return false;
  if (claims.any(word.begin, word.end)) return false;
  if (is_date_word(word.key) || is_org_suffix(word.key) || is_honorific(word.key) ||
      is_feature_word(word.key)) {
    return false;
  }
  const Place* place = context.places.find(word.key);
  return place == nullptr || place->kind == PlaceKind::kCity;
}

// The words after word `first` that continue a name: the last one's index, or nullopt.
// Initials and particles may come between, but the name must end on a surname word.
std::optional<size_t> name_tail(const NameContext& context, size_t first, const Claims& claims) {
  std::optional<size_t> last;
  for (size_t i = first + 1; i < context.words.size() && i - first <= kMaxNameWords; ++i) {
    const Word& word = context.words[i];
    const bool after_initial = is_initial(context.words[i - 1]);
    if (!word.joined && !after_initial) break;
    if (context.words[i - 1].period_after && !is_initial(context.words[i - 1]) &&
        !is_honorific(context.words[i - 1].key)) {
      break;
    }
    if (is_initial(word) || (!word.capitalized && is_name_particle(word.key))) continue;
    if (!surname_word(context, i, claims)) break;
    last = i;
  }
  return last;
}

FoundEntity person(const NameContext& context, size_t begin_word, size_t name_word,
                   size_t last_word, double confidence) {
  FoundEntity entity;
  entity.type = EntityType::kPerson;
  entity.begin = context.words[begin_word].begin;
  entity.end = context.words[last_word].end;
  entity.confidence = confidence;
  const size_t name_begin = context.words[name_word].begin;
  entity.fields["name"] = std::string(context.text.substr(name_begin, entity.end - name_begin));
  return entity;
}

// "Dr. Jane Smith", "President Macron".
std::optional<FoundEntity> titled(const NameContext& context, size_t i, const Claims& claims) {
  const Word& title = context.words[i];
  if (!title.capitalized || !is_honorific(title.key) || i + 1 >= context.words.size()) {
    return std::nullopt;
  }
  const size_t first = i + 1;
  const Word& next = context.words[first];
  if (!next.joined || !next.capitalized || claims.any(next.begin, next.end)) return std::nullopt;
  const auto last = name_tail(context, first, claims);
  if (!last && !surname_word(context, first, claims)) return std::nullopt;
  return person(context, i, first, last.value_or(first), kTitledConfidence);
}

// The gazetteer knows words i..last as one place ("Santa Clara", "Jersey City").
bool whole_place(const NameContext& context, size_t i, size_t last) {
  return context.places.find(context.key_of(i, last - i + 1)) != nullptr;
}

// "Angela Merkel", "John F. Kennedy".
std::optional<FoundEntity> named(const NameContext& context, size_t i, const Claims& claims) {
  const Word& word = context.words[i];
  if (!word.capitalized || word.all_caps || claims.any(word.begin, word.end) ||
      !context.lists.is_first_name(word.key)) {
    return std::nullopt;
  }
  const auto last = name_tail(context, i, claims);
  if (!last || whole_place(context, i, *last)) return std::nullopt;
  if (word.sentence_start && is_risky_opener(word.key) &&
      context.lists.is_common_word(context.words[i + 1].key)) {
    return std::nullopt;
  }
  const bool place_name = context.places.find(word.key) != nullptr;
  return person(context, i, i, *last, place_name ? kPlaceNameConfidence : kNamedConfidence);
}

}  // namespace

std::vector<FoundEntity> find_people(const NameContext& context, const Claims& claims) {
  std::vector<FoundEntity> found;
  Claims taken = claims;
  std::set<std::string> surnames;
  const auto& words = context.words;
  for (size_t i = 0; i < words.size(); ++i) {
    auto entity = titled(context, i, taken);
    if (!entity) entity = named(context, i, taken);
    if (!entity) continue;
    taken.take(entity->begin, entity->end);
    // The surname is the last word of the span; a lone title word ("Dr. Smith") counts too.
    while (i + 1 < words.size() && words[i + 1].begin < entity->end) ++i;
    surnames.insert(words[i].key);
    found.push_back(std::move(*entity));
  }
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& word = words[i];
    if (!word.capitalized || !surnames.contains(word.key) || taken.any(word.begin, word.end) ||
        (word.sentence_start && context.lists.is_common_word(word.key))) {
      continue;
    }
    // "in Washington": a place the gazetteer knows, after a place word, is the place.
    if (i > 0 && is_place_preposition(words[i - 1].key) && context.places.find(word.key)) {
      continue;
    }
    found.push_back(person(context, i, i, i, kSurnameConfidence));
    taken.take(word.begin, word.end);
  }
  std::sort(found.begin(), found.end(),
            [](const FoundEntity& a, const FoundEntity& b) { return a.begin < b.begin; });
  return found;
}

}  // namespace opbase::ai::extract
