#include "extract/organization_finder.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_map>

namespace opbase::ai::extract {

namespace {

constexpr double kKnownConfidence = 0.95;
constexpr double kRuleConfidence = 0.85;
constexpr size_t kMaxNameWords = 6;

// Very well-known organisations, as people write them. Acronyms match only in capitals.
constexpr std::array<std::string_view, 150> kKnown = {"Google",
                                                      "Alphabet",
                                                      "Microsoft",
                                                      "Apple",
                                                      "Amazon",
                                                      "Meta",
                                                      "Facebook",
                                                      "Instagram",
                                                      "WhatsApp",
                                                      "Netflix",
                                                      "Tesla",
                                                      "SpaceX",
                                                      "OpenAI",
                                                      "Anthropic",
                                                      "DeepMind",
                                                      "IBM",
                                                      "Intel",
                                                      "Nvidia",
                                                      "AMD",
                                                      "Qualcomm",
                                                      "Cisco",
                                                      "Oracle",
                                                      "Salesforce",
                                                      "Adobe",
                                                      "SAP",
                                                      "Siemens",
                                                      "Samsung",
                                                      "Sony",
                                                      "Panasonic",
                                                      "Toyota",
                                                      "Honda",
                                                      "Nissan",
                                                      "Hyundai",
                                                      "Volkswagen",
                                                      "BMW",
                                                      "Mercedes-Benz",
                                                      "Daimler",
                                                      "Ford",
                                                      "General Motors",
                                                      "Boeing",
                                                      "Airbus",
                                                      "Lockheed Martin",
                                                      "Pfizer",
                                                      "Moderna",
                                                      "Novartis",
                                                      "Roche",
                                                      "Bayer",
                                                      "AstraZeneca",
                                                      "Johnson & Johnson",
                                                      "Procter & Gamble",
                                                      "Unilever",
                                                      "Nestlé",
                                                      "Coca-Cola",
                                                      "PepsiCo",
                                                      "McDonald's",
                                                      "Starbucks",
                                                      "Nike",
                                                      "Adidas",
                                                      "Walmart",
                                                      "Costco",
                                                      "IKEA",
                                                      "Alibaba",
                                                      "Tencent",
                                                      "Baidu",
                                                      "Huawei",
                                                      "Xiaomi",
                                                      "Lenovo",
                                                      "TSMC",
                                                      "ExxonMobil",
                                                      "Chevron",
                                                      "BP",
                                                      "TotalEnergies",
                                                      "Goldman Sachs",
                                                      "JPMorgan",
                                                      "JPMorgan Chase",
                                                      "J.P. Morgan",
                                                      "Morgan Stanley",
                                                      "Citigroup",
                                                      "Citibank",
                                                      "Wells Fargo",
                                                      "HSBC",
                                                      "Barclays",
                                                      "UBS",
                                                      "Credit Suisse",
                                                      "BlackRock",
                                                      "Berkshire Hathaway",
                                                      "Visa",
                                                      "Mastercard",
                                                      "PayPal",
                                                      "Uber",
                                                      "Lyft",
                                                      "Airbnb",
                                                      "Spotify",
                                                      "Twitter",
                                                      "LinkedIn",
                                                      "YouTube",
                                                      "TikTok",
                                                      "ByteDance",
                                                      "Reddit",
                                                      "Wikipedia",
                                                      "Mozilla",
                                                      "GitHub",
                                                      "Disney",
                                                      "Warner Bros",
                                                      "Reuters",
                                                      "Bloomberg",
                                                      "BBC",
                                                      "CNN",
                                                      "The New York Times",
                                                      "New York Times",
                                                      "Washington Post",
                                                      "The Guardian",
                                                      "Financial Times",
                                                      "Wall Street Journal",
                                                      "Associated Press",
                                                      "United Nations",
                                                      "UN",
                                                      "UNESCO",
                                                      "UNICEF",
                                                      "WHO",
                                                      "World Health Organization",
                                                      "World Bank",
                                                      "IMF",
                                                      "International Monetary Fund",
                                                      "NATO",
                                                      "European Union",
                                                      "EU",
                                                      "European Commission",
                                                      "European Central Bank",
                                                      "Federal Reserve",
                                                      "FBI",
                                                      "CIA",
                                                      "NASA",
                                                      "ESA",
                                                      "FIFA",
                                                      "Red Cross",
                                                      "Greenpeace",
                                                      "Amnesty International",
                                                      "MIT",
                                                      "Harvard",
                                                      "Stanford",
                                                      "Yale",
                                                      "Princeton",
                                                      "Caltech",
                                                      "Ernst & Young",
                                                      "Deloitte",
                                                      "KPMG",
                                                      "PwC",
                                                      "Accenture",
                                                      "McKinsey"};

// Ordinary words that often open an organisation's name, even at a sentence's start
// ("General Electric Company", "National Grid plc").
constexpr std::array<std::string_view, 20> kOrgOpeners = {
    "general", "national", "international", "american", "british", "united", "first",
    "royal",   "federal",  "central",       "global",   "new",     "great",  "standard",
    "pacific", "atlantic", "southern",      "northern", "eastern", "western"};

bool is_org_opener(std::string_view key) {
  return std::find(kOrgOpeners.begin(), kOrgOpeners.end(), key) != kOrgOpeners.end();
}

struct Known {
  std::string name;
  bool upper_only = false;
  size_t word_count = 1;
};

bool all_upper(std::string_view text) {
  bool letters = false;
  for (const char c : text) {
    if (c >= 'a' && c <= 'z') return false;
    letters = letters || (c >= 'A' && c <= 'Z');
  }
  return letters;
}

const std::unordered_map<std::string, Known>& known_organizations() {
  static const auto* const table = [] {
    auto* map = new std::unordered_map<std::string, Known>();
    for (const auto name : kKnown) {
      const std::string key = name_key(name);
      const size_t count = static_cast<size_t>(std::count(key.begin(), key.end(), ' ')) + 1;
      (*map)[key] = Known{std::string(name), all_upper(name) && name.size() <= 6, count};
    }
    return map;
  }();
  return *table;
}

FoundEntity organization(const NameContext& context, size_t begin, size_t end, double confidence) {
  FoundEntity entity;
  entity.type = EntityType::kOrganization;
  entity.begin = begin;
  entity.end = end;
  entity.confidence = confidence;
  entity.fields["name"] = std::string(context.text.substr(begin, end - begin));
  return entity;
}

// The end of word i, with its dot when the word is an abbreviated legal form ("Inc.").
size_t end_with_dot(const NameContext& context, size_t i) {
  const Word& word = context.words[i];
  return word.period_after && is_legal_form(word.key) ? word.end + 1 : word.end;
}

// A capitalised word that may be part of an organisation's name.
bool name_word(const NameContext& context, size_t i, const Claims& claims) {
  const Word& word = context.words[i];
  if (!word.capitalized || claims.any(word.begin, word.end) || word.key == "the") return false;
  if (is_org_opener(word.key)) return true;
  if (is_honorific(word.key) || is_date_word(word.key)) return false;
  return !(word.sentence_start && context.lists.is_common_word(word.key));
}

// The longest known organisation starting at word i: its word count, or 0.
size_t known_at(const NameContext& context, size_t i) {
  const auto& known = known_organizations();
  for (size_t n = 5; n >= 1; --n) {
    const std::string key = context.key_of(i, n);
    if (key.empty()) continue;
    const auto found = known.find(key);
    if (found == known.end()) continue;
    bool cased = context.words[i].capitalized;
    if (found->second.upper_only) {
      for (size_t k = i; k < i + n; ++k) cased = cased && context.words[k].all_caps;
    }
    if (cased) return n;
  }
  return 0;
}

// "of [the] Name Name" after word i: the index of the last word, or nullopt.
std::optional<size_t> of_tail(const NameContext& context, size_t i, const Claims& claims) {
  size_t at = i + 1;
  if (at >= context.words.size() || context.words[at].key != "of" || !context.words[at].joined) {
    return std::nullopt;
  }
  ++at;
  if (at < context.words.size() && context.words[at].key == "the" && context.words[at].joined) {
    ++at;
  }
  std::optional<size_t> last;
  while (at < context.words.size() && context.words[at].joined && name_word(context, at, claims) &&
         !is_org_head(context.words[at].key)) {
    last = at++;
    if (at - i > kMaxNameWords) break;
  }
  return last;
}

// Words before suffix word i that belong to the name: the first one's index.
size_t walk_back(const NameContext& context, size_t i, const Claims& claims) {
  size_t first = i;
  while (first > 0 && i - first < kMaxNameWords) {
    const std::string_view gap = context.gap_before(first);
    const bool legal_comma = first == i && gap == ", " && is_legal_form(context.words[i].key);
    const bool plain = context.words[first].joined && (gap == " " || gap == " & ");
    if (!(plain || legal_comma) || !name_word(context, first - 1, claims)) break;
    --first;
  }
  return first;
}

// An organisation whose suffix or head is word i, or nullopt.
std::optional<FoundEntity> by_rule(const NameContext& context, size_t i, const Claims& claims) {
  const Word& word = context.words[i];
  if (!(word.capitalized || word.key == "plc") || !is_org_suffix(word.key)) return std::nullopt;
  if ((word.key == "ag" || word.key == "sa" || word.key == "se") && !word.all_caps) {
    return std::nullopt;
  }
  const size_t first = walk_back(context, i, claims);
  const auto tail = is_org_head(word.key) ? of_tail(context, i, claims) : std::nullopt;
  if (first == i && !tail) return std::nullopt;
  const size_t end = tail ? context.words[*tail].end : end_with_dot(context, i);
  return organization(context, context.words[first].begin, end, kRuleConfidence);
}

}  // namespace

std::vector<FoundEntity> find_organizations(const NameContext& context, const Claims& claims) {
  std::vector<FoundEntity> found;
  Claims taken = claims;
  const auto& words = context.words;
  // The rules first: they read the longer name ("Stanford University", not "Stanford").
  for (size_t i = 0; i < words.size(); ++i) {
    auto entity = by_rule(context, i, taken);
    if (!entity || taken.any(entity->begin, entity->end)) continue;
    taken.take(entity->begin, entity->end);
    found.push_back(std::move(*entity));
  }
  for (size_t i = 0; i < words.size(); ++i) {
    const size_t n = known_at(context, i);
    if (n == 0 || taken.any(words[i].begin, words[i + n - 1].end)) continue;
    // "Henry Ford", "Walt Disney": a one-word name after a first name is a surname.
    const Word* before = i > 0 ? &words[i - 1] : nullptr;
    if (n == 1 && words[i].joined && before->capitalized &&
        context.lists.is_first_name(before->key) &&
        !(before->sentence_start && is_risky_opener(before->key))) {
      continue;
    }
    found.push_back(organization(context, words[i].begin, words[i + n - 1].end, kKnownConfidence));
    taken.take(found.back().begin, found.back().end);
    i += n - 1;
  }
  std::sort(found.begin(), found.end(),
            [](const FoundEntity& a, const FoundEntity& b) { return a.begin < b.begin; });
  return found;
}

}  // namespace opbase::ai::extract
