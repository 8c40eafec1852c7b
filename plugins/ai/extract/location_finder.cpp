#include "extract/location_finder.hpp"

#include <algorithm>
#include <string>

namespace opbase::ai::extract {

namespace {

constexpr uint64_t kWellKnownPopulation = 1'000'000;

double confidence_of(const Place& place, bool needed_evidence) {
  if (needed_evidence) return 0.65;
  switch (place.kind) {
    case PlaceKind::kCountry:
      return 0.95;
    case PlaceKind::kRegion:
      return 0.85;
    case PlaceKind::kCity:
      return place.population >= 100'000 || place.alias ? 0.85 : 0.75;
  }
  return 0.75;
}

// Words i..i+n-1 are written as a place name: capitalised at both ends, in capitals when the
// place is an abbreviation, and not in capitals otherwise.
bool written_as_place(const NameContext& context, size_t i, size_t n, const Place& place) {
  const Word& first = context.words[i];
  const Word& last = context.words[i + n - 1];
  if (!first.capitalized || !last.capitalized) return false;
  for (size_t k = i; k < i + n; ++k) {
    const Word& word = context.words[k];
    const bool capitals = word.all_caps || (word.dotted && word.capitalized);
    if (place.upper_only && !capitals) return false;
    if (!place.upper_only && word.all_caps && word.end - word.begin > 1) return false;
  }
  return place.upper_only || first.key.size() >= 3 || n > 1;
}

// "in Reading", "Austin, Texas".
bool has_evidence(const NameContext& context, size_t i) {
  const Word& word = context.words[i];
  if (i > 0 && !word.sentence_start && is_place_preposition(context.words[i - 1].key)) {
    return true;
  }
  if (i + 1 < context.words.size() && context.gap_before(i + 1) == ", ") {
    const Place* next = context.places.find(context.words[i + 1].key);
    return next != nullptr && next->kind != PlaceKind::kCity && !next->common_word;
  }
  return false;
}

bool needs_evidence(const NameContext& context, size_t i, size_t n, const Place& place) {
  if (n > 1 || place.alias || place.kind == PlaceKind::kCountry ||
      place.population >= kWellKnownPopulation) {
    return false;
  }
  const std::string& key = context.words[i].key;
  return place.common_word || context.lists.is_first_name(key) ||
         (context.words[i].sentence_start && context.lists.is_common_word(key));
}

FoundEntity location(const NameContext& context, size_t i, size_t n, const Place& place,
                     double confidence) {
  FoundEntity entity;
  entity.type = EntityType::kLocation;
  entity.begin = context.words[i].begin;
  entity.end = context.words[i + n - 1].end;
  entity.confidence = confidence;
  entity.fields["name"] = place.name;
  entity.fields["kind"] = std::string(place_kind_name(place.kind));
  entity.fields["country_code"] = place.country;
  return entity;
}

}  // namespace

std::vector<FoundEntity> find_locations(const NameContext& context, const Claims& claims) {
  std::vector<FoundEntity> found;
  const auto& words = context.words;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!words[i].capitalized) continue;
    for (size_t n = std::min(context.places.max_words(), words.size() - i); n >= 1; --n) {
      const Place* place = context.places.find(context.key_of(i, n));
      if (place == nullptr || !written_as_place(context, i, n, *place) ||
          claims.any(words[i].begin, words[i + n - 1].end)) {
        continue;
      }
      const bool evidence_needed = needs_evidence(context, i, n, *place);
      if (evidence_needed && !has_evidence(context, i)) continue;
      found.push_back(location(context, i, n, *place, confidence_of(*place, evidence_needed)));
      i += n - 1;
      break;
    }
  }
  return found;
}

}  // namespace opbase::ai::extract
