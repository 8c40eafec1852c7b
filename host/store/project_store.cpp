// The tree conveniences of ProjectStore (see project_store.hpp): they take the text path.
#include "store/project_store.hpp"

#include "opbase/internal/find_answer.hpp"
#include "opbase/internal/store_codec.hpp"

namespace opbase::host {

using nlohmann::json;

Status ProjectStore::insert(std::string_view ns, const store::InsertRequest& request,
                            WriteEvents* events) {
  const std::string wire = store::encode_text(store::printed(request));
  auto texts = decode_insert_text(wire);
  if (!texts) return texts.status();
  return insert(ns, *texts, events);
}

Result<store::FindAnswer> ProjectStore::find_documents(std::string_view ns,
                                                       const store::FindRequest& request) {
  auto text = find(ns, request);
  if (!text) return text.status();
  return store::decode_find_documents(*text);
}

std::string find_answer_text(const std::vector<json>& documents, int64_t total) {
  std::vector<std::string> texts;
  texts.reserve(documents.size());
  for (const json& doc : documents) texts.push_back(doc.dump());
  return store::encode_find_answer(texts, total);
}

}  // namespace opbase::host
