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

namespace {

Status unsupported() {
  return Status::validation("this store does not manage indexes or explain queries yet",
                            {{"reason", "unsupported"}});
}

}  // namespace

Result<json> ProjectStore::indexes(std::string_view, std::string_view) { return unsupported(); }
Result<json> ProjectStore::add_index(std::string_view, std::string_view, const query::FieldPath&) {
  return unsupported();
}
Status ProjectStore::drop_index(std::string_view, std::string_view, std::string_view) {
  return unsupported();
}
Result<json> ProjectStore::explain(std::string_view, const store::FindRequest&, bool) {
  return unsupported();
}

std::string find_answer_text(const std::vector<json>& documents, int64_t total) {
  std::vector<std::string> texts;
  texts.reserve(documents.size());
  for (const json& doc : documents) texts.push_back(doc.dump());
  return store::encode_find_answer(texts, total);
}

}  // namespace opbase::host
