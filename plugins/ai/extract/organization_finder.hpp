// Organisations, found three ways, surest first:
//   a short hand-written list of very well-known organisations ("Google", "United Nations",
//     "NASA"; acronyms only in capitals);
//   "<Head> of <Name>": "University of Oxford", "Bank of America", "Department of Justice";
//   capitalised words ending in an organisation suffix: "Acme Corp.", "Siemens AG",
//     "Deutsche Bank", "Stanford University", "Massachusetts Institute of Technology".
// A capitalised word that opens a sentence and is an ordinary English word ("Meanwhile") is
// not taken into a name, nor is a leading "The". Field "name": the organisation as written.
//
// Thread-safety: pure function over immutable data.
#pragma once

#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"
#include "extract/name_context.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> find_organizations(const NameContext& context, const Claims& claims);

}  // namespace opbase::ai::extract
