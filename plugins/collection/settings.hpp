// The collection plugin's settings (conf/opbase.properties, `datastore.*`), read once at init.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::collection {

struct Settings {
  int64_t max_document_bytes = 1'048'576;          // one document's JSON text
  int64_t max_batch = 1000;                        // documents per insert, or update steps
  int64_t limit_cap = 1000;                        // largest find limit (docs/api.md#find)
  int64_t max_lookup_scan = 10'000;                // documents a find with lookup + filter may join
  int64_t deleted_retention_s = 86'400;            // soft-deleted documents are purged after this
  int64_t max_sharing_entries = 100;               // entries of one _readers or _writers list
  std::vector<std::string> anonymous_collections;  // create rule [users, anyone] by default
  std::string captcha_service = "captcha.verify";  // verifies an anonymous insert's captcha

  // VALIDATION_ERROR naming the key when a value is out of range.
  static Result<Settings> load(const Host& host);
};

}  // namespace opbase::collection
