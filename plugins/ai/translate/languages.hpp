// The target languages of ai.translate: the eight of INVALID_LANGUAGE's supported_languages
// (docs/api.md#ai-request-checks), each with its ISO 639-1 code. A request names one by its
// English name or by its code; anything else is INVALID_LANGUAGE with supported_language_names() as
// details.
//
// Thread-safety: immutable tables; call from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "provider/task.hpp"

namespace opbase::ai {

// In the spec's order: Spanish, French, German, Japanese, Chinese, Portuguese, Italian, Russian.
const std::vector<Language>& supported_languages();

// The English names, in the same order: details.supported_languages of INVALID_LANGUAGE.
std::vector<std::string> supported_language_names();

// The language named by `name_or_code` ("Spanish", "spanish", " es ", "ES"): English name or
// ISO 639-1 code, ASCII case-insensitive, surrounding white space ignored. Nothing when the text
// names none of the eight.
std::optional<Language> language_from(std::string_view name_or_code);

}  // namespace opbase::ai
