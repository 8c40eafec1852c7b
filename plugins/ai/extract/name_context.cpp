#include "extract/name_context.hpp"

#include <array>

namespace opbase::ai::extract {

namespace {

template <size_t N>
bool contains(const std::array<std::string_view, N>& words, std::string_view key) {
  for (const auto word : words) {
    if (word == key) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 42> kHonorifics = {
    "mr",         "mrs",         "ms",
    "miss",       "mx",          "dr",
    "prof",       "professor",   "sir",
    "dame",       "lord",        "lady",
    "rev",        "reverend",    "president",
    "senator",    "sen",         "governor",
    "gov",        "mayor",       "judge",
    "chancellor", "minister",    "general",
    "gen",        "captain",     "capt",
    "lt",         "col",         "sgt",
    "rep",        "congressman", "congresswoman",
    "ambassador", "king",        "queen",
    "prince",     "princess",    "pope",
    "sheikh",     "dean",        "coach"};

constexpr std::array<std::string_view, 13> kLegalForms = {
    "inc", "corp", "ltd", "llc", "llp", "gmbh", "ag", "sa", "plc", "co", "nv", "bv", "se"};

constexpr std::array<std::string_view, 33> kOrgSuffixes = {
    "inc",          "corp",         "corporation", "ltd",     "llc",          "llp",
    "gmbh",         "ag",           "sa",          "plc",     "co",           "nv",
    "bv",           "se",           "group",       "bank",    "university",   "institute",
    "foundation",   "association",  "company",     "limited", "incorporated", "holdings",
    "technologies", "laboratories", "labs",        "college", "airlines",     "motors",
    "society",      "agency",       "federation"};

constexpr std::array<std::string_view, 14> kOrgHeads = {
    "university", "institute",  "bank",     "college",    "foundation", "association", "society",
    "agency",     "federation", "ministry", "department", "museum",     "academy",     "council"};

constexpr std::array<std::string_view, 16> kParticles = {"van", "von", "de",  "da", "del", "der",
                                                         "di",  "du",  "le",  "la", "bin", "al",
                                                         "ten", "ter", "dos", "das"};

constexpr std::array<std::string_view, 16> kPrepositions = {
    "in",   "at",      "from",   "to",      "near", "across", "around",  "outside",
    "into", "towards", "toward", "through", "via",  "visit",  "visited", "visiting"};

constexpr std::array<std::string_view, 32> kFeatureWords = {
    "street", "st",     "avenue", "ave",      "road",    "rd",      "boulevard", "lane",
    "park",   "square", "garden", "gardens",  "bridge",  "river",   "lake",      "mountain",
    "island", "hall",   "center", "centre",   "station", "airport", "beach",     "valley",
    "county", "city",   "state",  "province", "hotel",   "stadium", "tower",     "building"};

constexpr std::array<std::string_view, 19> kDateWords = {
    "january",   "february",  "march",   "april",    "may",      "june",   "july",
    "august",    "september", "october", "november", "december", "monday", "tuesday",
    "wednesday", "thursday",  "friday",  "saturday", "sunday"};

constexpr std::array<std::string_view, 16> kRiskyOpeners = {
    "will", "may",   "can",  "hope",   "grant",  "mark",   "art",    "rich",
    "joy",  "faith", "dawn", "summer", "winter", "autumn", "august", "april"};

}  // namespace

std::string_view NameContext::gap_before(size_t i) const {
  if (i == 0 || i >= words.size()) return {};
  return text.substr(words[i - 1].end, words[i].begin - words[i - 1].end);
}

std::string NameContext::key_of(size_t i, size_t n) const {
  if (i + n > words.size()) return {};
  std::string key = words[i].key;
  for (size_t k = i + 1; k < i + n; ++k) {
    if (!words[k].joined) return {};
    key.push_back(' ');
    key += words[k].key;
  }
  return key;
}

std::string_view NameContext::word_text(size_t i) const {
  return text.substr(words[i].begin, words[i].end - words[i].begin);
}

bool is_honorific(std::string_view key) { return contains(kHonorifics, key); }
bool is_org_suffix(std::string_view key) { return contains(kOrgSuffixes, key); }
bool is_org_head(std::string_view key) { return contains(kOrgHeads, key); }
bool is_legal_form(std::string_view key) { return contains(kLegalForms, key); }
bool is_name_particle(std::string_view key) { return contains(kParticles, key); }
bool is_place_preposition(std::string_view key) { return contains(kPrepositions, key); }
bool is_feature_word(std::string_view key) { return contains(kFeatureWords, key); }
bool is_date_word(std::string_view key) { return contains(kDateWords, key); }
bool is_risky_opener(std::string_view key) { return contains(kRiskyOpeners, key); }

}  // namespace opbase::ai::extract
