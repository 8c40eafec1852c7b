#include "ops/embedder.hpp"

#include "opbase/error_code.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

Status processing_failed(std::string message, std::string_view error_type, bool retry) {
  return Status(code::kProcessingFailed, std::move(message),
                {{"error_type", error_type}, {"retry_recommended", retry}});
}

Result<Embeddings> read_answer(const json& answer, size_t texts) {
  const auto vectors = answer.find("vectors");
  if (vectors == answer.end() || !vectors->is_array() || vectors->size() != texts ||
      !answer.contains("model") || !answer["model"].is_string()) {
    return processing_failed("the embedding service answered an unexpected shape", "bad_answer",
                             true);
  }
  Embeddings out;
  out.model = answer["model"].get<std::string>();
  for (const json& vector : *vectors) {
    auto read = read_vector(vector, "vector");
    if (!read || (!out.vectors.empty() && read->size() != out.vectors.front().size())) {
      return processing_failed("the embedding service answered an unusable vector", "bad_answer",
                               true);
    }
    out.vectors.push_back(std::move(*read));
  }
  out.dimensions = out.vectors.front().size();
  return out;
}

}  // namespace

Result<Embeddings> Embedder::embed(std::string_view project,
                                   const std::vector<std::string>& texts) const {
  json input = {{"texts", texts}};
  auto answer = host_.call_service(service_, project, input);
  if (answer) return read_answer(*answer, texts.size());
  const Status& failed = answer.status();
  if (failed.code() == code::kContentEmpty || failed.code() == code::kContentTooLong ||
      failed.code() == code::kProcessingFailed) {
    return failed;
  }
  host_.warn("vdb: the embedding service " + service_ + " failed: " + failed.message());
  return processing_failed(
      "no embedding provider could embed the text (" + service_ + ": " + failed.message() + ")",
      "no_embedding_provider", false);
}

}  // namespace opbase::vdb
