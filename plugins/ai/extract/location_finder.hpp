// Locations: the longest run of capitalised words the gazetteer knows ("New York", "Rio de
// Janeiro", "Zürich" also written "Zurich"), outside what e-mails, URLs, dates, money,
// organisations and people took. A one-word place needs more evidence when the word is also an
// ordinary English word ("Reading") or a first name ("Florence") and the place has under a
// million people: a preposition before it ("in Reading") or a known region or country after a
// comma ("Austin, Texas"). Words in capitals match only abbreviations ("USA", "UK").
// Fields: "name" (as the gazetteer names it), "kind" (country, region or city),
// "country_code" (ISO 3166-1 alpha-2).
//
// Thread-safety: pure function over immutable data.
#pragma once

#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"
#include "extract/name_context.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> find_locations(const NameContext& context, const Claims& claims);

}  // namespace opbase::ai::extract
