// The sharing lists of a document (docs/api.md#who-may-read-and-change-a-document): `_readers`
// and `_writers`, arrays of user keys and `role:<name>` entries that the document's owner and
// administrators set and no one else. Pure functions; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::collection {

inline constexpr std::string_view kReaders = "_readers";
inline constexpr std::string_view kWriters = "_writers";
inline constexpr std::array<std::string_view, 2> kSharingFields = {kReaders, kWriters};

bool is_sharing_field(std::string_view name);

// VALIDATION_ERROR naming `field` unless `value` is an array of at most `max` entries, each a
// user key (1 to 64 characters of letters, digits, '_' and '-') or `role:<name>`; repeats are
// dropped from the answer, which is the list as stored.
Result<nlohmann::json> sharing_list(const nlohmann::json& value, std::string_view field,
                                    int64_t max);

// Whether a change sets or removes a sharing list.
bool changes_sharing(const store::Change& change);

// The lists a shared scope reads for an action: a reader reads, a writer reads and changes.
std::vector<std::string> lists_for_reading();
std::vector<std::string> lists_for_writing();

}  // namespace opbase::collection
