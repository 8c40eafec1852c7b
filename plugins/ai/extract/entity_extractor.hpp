// EntityExtractor: the offline provider's answer to ai.extract (docs/api.md#ai-answers). It finds
// e-mail addresses, URLs, phone numbers, dates, amounts of money, people, locations and
// organisations in a text with hand-written scanners, libphonenumber and gazetteers, no model.
//
// The answer is an object with one key per requested type, as the caller wrote it ("people",
// "emails"), each an array (empty when nothing was found) of
//   {"text", "start", "end", "confidence", ...the type's own fields}
// where start and end (exclusive) count Unicode code points. Type fields: email {value, domain};
// url {value}; phone {value (E.164)}; date {value (YYYY-MM-DD or null), kind}; money {amount,
// currency}; person {name}; location {name, kind, country_code}; organization {name}.
//
// Overlaps are settled by how sure each finder is: e-mails, then URLs, money, dates, phones,
// organisations, people, and places last, each skipping what an earlier one took. So an
// e-mail's domain is no URL, "George Washington" is a person and not a city, and "California"
// in "University of California" is part of the organisation.
//
// Data (load): the folder `<data_dir>/extract/` written by tools/extract_data_pack:
// places.tsv, first_names.txt, common_words.txt (see that tool).
//
// Thread-safety: load once; extract() is const and may run on many threads at once.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "extract/entity_type.hpp"
#include "opbase/status.hpp"

namespace opbase::ai {

namespace extract {
class Gazetteer;
class WordLists;
}  // namespace extract

struct ExtractRequest {
  std::string_view text;
  // As the caller wrote them (each becomes an output key), already checked with
  // entity_type_from_name.
  std::vector<std::string> types;
  // Where numbers without a country code are dialled (ISO 3166-1 alpha-2).
  std::string phone_region = "US";
};

struct ExtractAnswer {
  nlohmann::json output;      // the object described above
  size_t entities_found = 0;  // entities of the requested types (a type asked twice counts once)
  double confidence = 0.0;    // mean confidence of those entities, or 0 when there are none
};

class EntityExtractor {
 public:
  // Reads the data folder; INTERNAL_ERROR naming the file when something is missing.
  static Result<std::shared_ptr<const EntityExtractor>> load(const std::filesystem::path& data_dir);

  ExtractAnswer extract(const ExtractRequest& request) const;

  // Use load(); public for make_shared.
  EntityExtractor(std::shared_ptr<const extract::Gazetteer> places,
                  std::shared_ptr<const extract::WordLists> lists);

 private:
  std::shared_ptr<const extract::Gazetteer> places_;
  std::shared_ptr<const extract::WordLists> lists_;
};

}  // namespace opbase::ai
