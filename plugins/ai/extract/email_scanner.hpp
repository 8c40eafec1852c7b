// E-mail addresses: a hand-written scanner that starts at each '@' and reads the local part to
// its left and a dotted domain with a letter TLD to its right. ASCII addresses only.
// Fields: "value" (lower case) and "domain".
//
// Thread-safety: pure function.
#pragma once

#include <string_view>
#include <vector>

#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> scan_emails(std::string_view text);

}  // namespace opbase::ai::extract
