// URLs: a hand-written scanner for "http://", "https://", "ftp://" and "www." addresses. It reads
// up to a blank or a character URLs do not hold, then gives back trailing punctuation that ends
// the sentence rather than the URL (".", ",", an unmatched ")"). Field "value": the URL with its
// scheme and host in lower case, "https://" put before a "www." address that had no scheme.
// Bare domains ("example.com") are not taken: too many file names and versions look alike.
//
// Thread-safety: pure function.
#pragma once

#include <string_view>
#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> scan_urls(std::string_view text, const Claims& claims);

}  // namespace opbase::ai::extract
