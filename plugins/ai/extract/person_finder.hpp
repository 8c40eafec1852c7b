// People, found by three rules:
//   an honorific or title and capitalised words: "Dr. Jane Smith", "President Macron" (the span
//     holds the title; "name" does not);
//   a known first name and a capitalised surname, with initials, middle names and particles
//     between: "Angela Merkel", "John F. Kennedy", "Ludwig van Beethoven";
//   a surname met in such a name, later alone: "Merkel said".
// A surname is never a month, a weekday, an organisation suffix, a street or building word, a
// country or a region; a first name opening a sentence that is mostly a verb or a month
// ("Will", "May") needs a second capitalised word that is no ordinary English word; a name the
// gazetteer knows whole ("Santa Clara") is a place. Field "name".
//
// Thread-safety: pure function over immutable data.
#pragma once

#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"
#include "extract/name_context.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> find_people(const NameContext& context, const Claims& claims);

}  // namespace opbase::ai::extract
