// json_string: a text as a JSON string, for the outbox's documents that are printed straight into
// text (outbox/outbox.cpp, outbox/bundle.cpp): the ids, owners, times and type names they hold
// never need an escape and are quoted as they are; anything else is printed by nlohmann. Pure;
// thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace opbase::webhooks {

// `text` quoted as a JSON string. Throws nlohmann::json::type_error for text that is not UTF-8,
// as nlohmann's dump does.
std::string json_string(std::string_view text);

}  // namespace opbase::webhooks
