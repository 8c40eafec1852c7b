#include "extract/gazetteer.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <vector>

#include "extract/words.hpp"

namespace opbase::ai::extract {

namespace {

struct Alias {
  std::string_view written;
  std::string_view name;
  PlaceKind kind;
  std::string_view country;
};

constexpr PlaceKind kCountry = PlaceKind::kCountry;
constexpr PlaceKind kRegion = PlaceKind::kRegion;
constexpr PlaceKind kCity = PlaceKind::kCity;

// Everyday names that ISO 3166 and GeoNames spell otherwise, or that lose to a namesake there.
constexpr std::array<Alias, 52> kAliases = {{
    {"USA", "United States", kCountry, "US"},
    {"U.S.A.", "United States", kCountry, "US"},
    {"US", "United States", kCountry, "US"},
    {"U.S.", "United States", kCountry, "US"},
    {"United States of America", "United States", kCountry, "US"},
    {"America", "United States", kCountry, "US"},
    {"UK", "United Kingdom", kCountry, "GB"},
    {"U.K.", "United Kingdom", kCountry, "GB"},
    {"Britain", "United Kingdom", kCountry, "GB"},
    {"Great Britain", "United Kingdom", kCountry, "GB"},
    {"UAE", "United Arab Emirates", kCountry, "AE"},
    {"Russia", "Russian Federation", kCountry, "RU"},
    {"Turkey", "Türkiye", kCountry, "TR"},
    {"Czech Republic", "Czechia", kCountry, "CZ"},
    {"Holland", "Netherlands", kCountry, "NL"},
    {"Ivory Coast", "Côte d'Ivoire", kCountry, "CI"},
    {"Burma", "Myanmar", kCountry, "MM"},
    {"Macedonia", "North Macedonia", kCountry, "MK"},
    {"Swaziland", "Eswatini", kCountry, "SZ"},
    {"East Timor", "Timor-Leste", kCountry, "TL"},
    {"Cape Verde", "Cabo Verde", kCountry, "CV"},
    {"Palestine", "Palestine", kCountry, "PS"},
    {"Vatican", "Holy See", kCountry, "VA"},
    {"Vatican City", "Holy See", kCountry, "VA"},
    {"DRC", "Democratic Republic of the Congo", kCountry, "CD"},
    {"DR Congo", "Democratic Republic of the Congo", kCountry, "CD"},
    {"Democratic Republic of the Congo", "Democratic Republic of the Congo", kCountry, "CD"},
    {"England", "England", kRegion, "GB"},
    {"Scotland", "Scotland", kRegion, "GB"},
    {"Wales", "Wales", kRegion, "GB"},
    {"Northern Ireland", "Northern Ireland", kRegion, "GB"},
    {"Bavaria", "Bayern", kRegion, "DE"},
    {"Catalonia", "Catalunya", kRegion, "ES"},
    {"Andalusia", "Andalucía", kRegion, "ES"},
    {"Lombardy", "Lombardia", kRegion, "IT"},
    {"Tuscany", "Toscana", kRegion, "IT"},
    {"Sicily", "Sicilia", kRegion, "IT"},
    {"Silicon Valley", "Silicon Valley", kRegion, "US"},
    {"New York", "New York City", kCity, "US"},
    {"NYC", "New York City", kCity, "US"},
    {"Washington", "Washington, D.C.", kCity, "US"},
    {"Washington DC", "Washington, D.C.", kCity, "US"},
    {"Washington D.C.", "Washington, D.C.", kCity, "US"},
    {"Frankfurt", "Frankfurt am Main", kCity, "DE"},
    {"Cologne", "Köln", kCity, "DE"},
    {"Geneva", "Genève", kCity, "CH"},
    {"Kiev", "Kyiv", kCity, "UA"},
    {"Bangalore", "Bengaluru", kCity, "IN"},
    {"Bombay", "Mumbai", kCity, "IN"},
    {"Peking", "Beijing", kCity, "CN"},
    {"Hong Kong", "Hong Kong", kCountry, "HK"},
    {"Macau", "Macao", kCountry, "MO"},
}};

// Words that name a month or a weekday are dates' (the date scanner reads them), never places:
// GeoNames has a March in England and a Friday nowhere, but the rule is simpler than the list.
constexpr std::array<std::string_view, 19> kNeverPlaces = {
    "january",   "february",  "march",   "april",    "may",      "june",   "july",
    "august",    "september", "october", "november", "december", "monday", "tuesday",
    "wednesday", "thursday",  "friday",  "saturday", "sunday"};

bool never_a_place(const std::string& key) {
  for (const auto word : kNeverPlaces) {
    if (key == word) return true;
  }
  return false;
}

// A city of this size is what its name means more often than a region of the same name
// (Zürich, Québec, São Paulo).
constexpr uint64_t kCityOverRegion = 250'000;

int rank(const Place& place) {
  if (place.alias) return 5;
  if (place.kind == PlaceKind::kCountry) return 4;
  if (place.kind == PlaceKind::kCity && place.population >= kCityOverRegion) return 3;
  if (place.kind == PlaceKind::kRegion) return 2;
  return 1;
}

// True when `candidate` should replace `current` under the same key.
bool better(const Place& candidate, const Place& current) {
  if (rank(candidate) != rank(current)) return rank(candidate) > rank(current);
  return candidate.population > current.population;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  return fields;
}

PlaceKind kind_of(const std::string& text) {
  if (text == "country") return PlaceKind::kCountry;
  if (text == "region") return PlaceKind::kRegion;
  return PlaceKind::kCity;
}

bool all_upper_ascii(std::string_view text) {
  bool letters = false;
  for (const char c : text) {
    if (c >= 'a' && c <= 'z') return false;
    letters = letters || (c >= 'A' && c <= 'Z');
  }
  return letters;
}

}  // namespace

std::string_view place_kind_name(PlaceKind kind) {
  switch (kind) {
    case PlaceKind::kCountry:
      return "country";
    case PlaceKind::kRegion:
      return "region";
    case PlaceKind::kCity:
      return "city";
  }
  return "city";
}

std::string name_key(std::string_view name) {
  std::string key;
  for (const Word& word : split_words(name)) {
    if (!key.empty()) key.push_back(' ');
    key += word.key;
  }
  return key;
}

void Gazetteer::add(Place place) {
  std::string key = name_key(place.name);
  add_as(std::move(key), std::move(place));
}

void Gazetteer::add_as(std::string key, Place place) {
  if (key.empty() || never_a_place(key)) return;
  max_words_ =
      std::max(max_words_, static_cast<size_t>(std::count(key.begin(), key.end(), ' ')) + 1);
  const auto found = places_.find(key);
  if (found == places_.end()) {
    places_.emplace(std::move(key), std::move(place));
  } else if (better(place, found->second)) {
    found->second = std::move(place);
  }
}

Result<Gazetteer> Gazetteer::load(const std::filesystem::path& places_tsv) {
  std::ifstream in(places_tsv);
  if (!in) return Status::internal("ai.extract: cannot read " + places_tsv.string());
  Gazetteer gazetteer;
  for (std::string line; std::getline(in, line);) {
    const auto fields = split_tabs(line);
    if (fields.size() < 5) continue;
    Place place;
    place.name = fields[0];
    place.kind = kind_of(fields[1]);
    place.country = fields[2];
    place.population = std::strtoull(fields[3].c_str(), nullptr, 10);
    place.common_word = fields[4] == "1";
    gazetteer.add(std::move(place));
  }
  if (gazetteer.places_.size() < 1000) {
    return Status::internal("ai.extract: " + places_tsv.string() + " holds too few places");
  }
  for (const Alias& alias : kAliases) {
    // Keyed by what people write, named as the sources name the place.
    gazetteer.add_as(name_key(alias.written),
                     Place{std::string(alias.name), alias.kind, std::string(alias.country), 0,
                           false, all_upper_ascii(alias.written), true});
  }
  return gazetteer;
}

const Place* Gazetteer::find(const std::string& key) const {
  const auto found = places_.find(key);
  return found == places_.end() ? nullptr : &found->second;
}

}  // namespace opbase::ai::extract
