// The text of a store.find answer, written by the host and read by the SDK. Its fixed layout lets
// the reader take the documents array out by position: a page of documents crosses the plugin
// edge and goes out to the client without being parsed and printed again.
#include "opbase/internal/find_answer.hpp"

#include <charconv>

#include "opbase/store.hpp"

namespace opbase::store {
namespace {

using nlohmann::json;

constexpr std::string_view kTotalHead = "{\"total\":";
constexpr std::string_view kCountHead = ",\"count\":";
constexpr std::string_view kDocumentsHead = ",\"documents\":";

// Reads `head` then an integer at `at`; advances `at` past both.
bool read_field(std::string_view text, std::size_t& at, std::string_view head, int64_t& out) {
  if (text.substr(at, head.size()) != head) return false;
  at += head.size();
  const char* first = text.data() + at;
  const auto [end, error] = std::from_chars(first, text.data() + text.size(), out);
  if (error != std::errc() || end == first) return false;
  at += static_cast<std::size_t>(end - first);
  return true;
}

// The canonical layout only; nullopt when the text is laid out any other way.
std::optional<FindTextAnswer> read_canonical(std::string_view text) {
  FindTextAnswer out;
  std::size_t at = 0;
  if (!read_field(text, at, kTotalHead, out.total)) return std::nullopt;
  if (!read_field(text, at, kCountHead, out.count)) return std::nullopt;
  if (text.substr(at, kDocumentsHead.size()) != kDocumentsHead) return std::nullopt;
  at += kDocumentsHead.size();
  // The rest is the array and the closing brace of the object.
  if (text.size() < at + 3 || text[at] != '[' || text[text.size() - 2] != ']' ||
      text.back() != '}') {
    return std::nullopt;
  }
  out.documents.assign(text.substr(at, text.size() - 1 - at));
  return out;
}

Result<FindTextAnswer> read_any(std::string_view text) {
  const json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const auto bad = Status::internal("the store's find answer is not {documents: [...]}");
  if (!parsed.is_object()) return bad;
  const auto documents = parsed.find("documents");
  if (documents == parsed.end() || !documents->is_array()) return bad;
  FindTextAnswer out;
  out.documents = documents->dump();
  out.count = static_cast<int64_t>(documents->size());
  const auto total = parsed.find("total");
  if (total != parsed.end()) {
    if (!total->is_number_integer()) return bad;
    out.total = total->get<int64_t>();
  }
  return out;
}

}  // namespace

std::string encode_find_answer(const std::vector<std::string>& document_texts, int64_t total) {
  std::size_t size = 64;
  for (const std::string& text : document_texts) size += text.size() + 1;
  std::string out;
  out.reserve(size);
  out.append(kTotalHead).append(std::to_string(total));
  out.append(kCountHead).append(std::to_string(document_texts.size()));
  out.append(kDocumentsHead).push_back('[');
  for (std::size_t i = 0; i < document_texts.size(); ++i) {
    if (i) out.push_back(',');
    out.append(document_texts[i]);
  }
  out.append("]}");
  return out;
}

Result<FindTextAnswer> decode_find_answer(std::string_view text) {
  if (auto canonical = read_canonical(text)) return std::move(*canonical);
  return read_any(text);
}

Result<FindAnswer> decode_find_documents(std::string_view text) {
  auto answer = decode_find_answer(text);
  if (!answer) return answer.status();
  json documents = json::parse(answer->documents, nullptr, /*allow_exceptions=*/false);
  if (!documents.is_array()) return Status::internal("the store's find answer holds no array");
  FindAnswer out{{}, answer->total};
  out.documents.reserve(documents.size());
  for (json& doc : documents) out.documents.push_back(std::move(doc));
  return out;
}

std::optional<int64_t> total_of_short_page(int64_t offset, int64_t limit, int64_t page_size) {
  if (limit == 0 || (limit > 0 && page_size >= limit)) return std::nullopt;
  if (page_size == 0 && offset > 0) return std::nullopt;
  return offset + page_size;
}

}  // namespace opbase::store
