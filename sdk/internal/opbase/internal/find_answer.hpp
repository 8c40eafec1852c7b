// The layout of store.find's result, written by the host and read by the SDK. Its fixed order lets
// the reader take the documents array out by position: a page of documents crosses the plugin
// edge and goes out to the client without being parsed and printed again. Host and SDK only.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::store {

// The text of a store.find answer: {"total":T,"count":C,"documents":[...]} in exactly this
// order, built from documents already held as JSON text, so a reader can take the array out
// without parsing it (decode_find_answer). `total` is -1 when it was not asked for.
std::string encode_find_answer(const std::vector<std::string>& document_texts, int64_t total);
// Reads that text back. Text in another layout (any valid JSON object with a "documents" array)
// is parsed the slow way, so a driver that builds its answer differently still works.
Result<FindTextAnswer> decode_find_answer(std::string_view text);
// The same with the documents parsed into trees.
Result<FindAnswer> decode_find_documents(std::string_view text);

// The total of a find whose page ended before its limit (-1: none): the matches ran out there,
// so the total is the offset plus the page, and a store need not count them again. nullopt
// when it must: the page is full, or not read (limit 0), or empty past an offset (the matches
// may end before it).
std::optional<int64_t> total_of_short_page(int64_t offset, int64_t limit, int64_t page_size);

}  // namespace opbase::store
