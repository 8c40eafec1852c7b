#include "extract/entity_extractor.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "extract/claims.hpp"
#include "extract/date_scanner.hpp"
#include "extract/email_scanner.hpp"
#include "extract/found_entity.hpp"
#include "extract/gazetteer.hpp"
#include "extract/location_finder.hpp"
#include "extract/money_scanner.hpp"
#include "extract/name_context.hpp"
#include "extract/organization_finder.hpp"
#include "extract/person_finder.hpp"
#include "extract/phone_finder.hpp"
#include "extract/url_scanner.hpp"
#include "extract/utf8.hpp"
#include "extract/word_lists.hpp"
#include "extract/words.hpp"

namespace opbase::ai {

namespace {

using extract::Claims;
using extract::FoundEntity;

bool wanted(const std::set<EntityType>& types, EntityType type) { return types.contains(type); }

bool wants_names(const std::set<EntityType>& types) {
  return wanted(types, EntityType::kPerson) || wanted(types, EntityType::kLocation) ||
         wanted(types, EntityType::kOrganization);
}

// Appends `more` to `all` and marks its bytes taken.
void keep(std::vector<FoundEntity> more, Claims* claims, std::vector<FoundEntity>* all) {
  claims->take_all(more);
  for (auto& entity : more) all->push_back(std::move(entity));
}

nlohmann::json to_json(const FoundEntity& entity, std::string_view text,
                       const extract::CodePointOffsets& offsets) {
  nlohmann::json out = entity.fields;
  out["text"] = std::string(text.substr(entity.begin, entity.end - entity.begin));
  out["start"] = offsets.at(entity.begin);
  out["end"] = offsets.at(entity.end);
  out["confidence"] = entity.confidence;
  return out;
}

}  // namespace

EntityExtractor::EntityExtractor(std::shared_ptr<const extract::Gazetteer> places,
                                 std::shared_ptr<const extract::WordLists> lists)
    : places_(std::move(places)), lists_(std::move(lists)) {}

Result<std::shared_ptr<const EntityExtractor>> EntityExtractor::load(
    const std::filesystem::path& data_dir) {
  const std::filesystem::path folder = data_dir / "extract";
  auto places = extract::Gazetteer::load(folder / "places.tsv");
  if (!places) return places.status();
  auto lists = extract::WordLists::load(folder / "first_names.txt", folder / "common_words.txt");
  if (!lists) return lists.status();
  return std::make_shared<const EntityExtractor>(
      std::make_shared<const extract::Gazetteer>(std::move(places).value()),
      std::make_shared<const extract::WordLists>(std::move(lists).value()));
}

ExtractAnswer EntityExtractor::extract(const ExtractRequest& request) const {
  const std::string_view text = request.text;
  std::set<EntityType> types;
  for (const auto& name : request.types) {
    if (const auto type = entity_type_from_name(name)) types.insert(*type);
  }

  // Every scanner that can take bytes from a later one runs, asked for or not: a date's digits
  // must not come back as a phone number when only phones are asked for.
  std::vector<FoundEntity> all;
  Claims claims(text.size());
  keep(extract::scan_emails(text), &claims, &all);
  keep(extract::scan_urls(text, claims), &claims, &all);
  keep(extract::scan_money(text, claims), &claims, &all);
  keep(extract::scan_dates(text, claims), &claims, &all);
  if (wanted(types, EntityType::kPhone)) {
    keep(extract::find_phones(text, request.phone_region, claims), &claims, &all);
  }
  if (wants_names(types)) {
    const auto words = extract::split_words(text);
    const extract::NameContext context{text, words, *places_, *lists_};
    keep(extract::find_organizations(context, claims), &claims, &all);
    keep(extract::find_people(context, claims), &claims, &all);
    keep(extract::find_locations(context, claims), &claims, &all);
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const FoundEntity& a, const FoundEntity& b) { return a.begin < b.begin; });

  ExtractAnswer answer;
  answer.output = nlohmann::json::object();
  const extract::CodePointOffsets offsets(text);
  double confidence_sum = 0;
  for (const auto& name : request.types) {
    const auto type = entity_type_from_name(name);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& entity : all) {
      if (type && entity.type == *type) list.push_back(to_json(entity, text, offsets));
    }
    answer.output[name] = std::move(list);
  }
  for (const auto& entity : all) {
    if (!wanted(types, entity.type)) continue;
    ++answer.entities_found;
    confidence_sum += entity.confidence;
  }
  if (answer.entities_found > 0) {
    answer.confidence = confidence_sum / static_cast<double>(answer.entities_found);
  }
  return answer;
}

}  // namespace opbase::ai
