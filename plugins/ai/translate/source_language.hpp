// Is this text English? The offline engine translates only from English, so the op layer asks
// looks_english() first and answers not_english_failure() (PROCESSING_FAILED, error_type
// "unsupported_source_language") for text that clearly is not.
//
// The test is cheap and leans towards yes: it says no only when most letters belong to a
// non-Latin script (Cyrillic, Greek, Arabic, Hebrew, Indic, Thai, CJK, kana, Hangul...), or when
// the text has at least 4 words and Spanish, French, German, Italian or Portuguese function words
// ("el", "les", "und", "della", "não"...) make up 15 % or more of them and outnumber the English
// ones ("the", "and", "is", "with"...) by half again. Short texts, names, codes and lists with no
// function words at all pass.
//
// Thread-safety: pure functions on immutable tables.
#pragma once

#include <string_view>

#include "opbase/status.hpp"

namespace opbase::ai {

bool looks_english(std::string_view text);

// PROCESSING_FAILED, details {"error_type":"unsupported_source_language",
// "retry_recommended":false}, with a message saying offline translation reads English only.
Status not_english_failure();

}  // namespace opbase::ai
