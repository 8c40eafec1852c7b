// Phone numbers, found by libphonenumber's PhoneNumberMatcher (Debian libphonenumber-dev) at
// leniency VALID: a number must be a valid number of its region. Numbers written without a
// country code are read as numbers of `region` (ISO 3166-1 alpha-2, "US" by default).
// Field "value": the number in E.164 ("+14155552671"). The matcher stops after 1,000
// candidates that were no phone number, which bounds its time on texts full of figures.
//
// Thread-safety: libphonenumber's PhoneNumberUtil is a thread-safe singleton; each call builds
// its own matcher.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> find_phones(std::string_view text, const std::string& region,
                                     const Claims& claims);

}  // namespace opbase::ai::extract
