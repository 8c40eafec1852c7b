// Embedder: texts to vectors through the host service that embeds them (vdb.embedding_service,
// the ai area's ai.embed by default), so vdb uses the project's own embedding model and provider
// (docs/api.md#ai-service-for-other-plugins). Its refusals of a text (CONTENT_EMPTY,
// CONTENT_TOO_LONG, with details.index) come back as they are; no service, or one that fails,
// is PROCESSING_FAILED with details.retry_recommended, never a crash or a hang (the provider
// bounds its own time).
//
// Thread-safety: embed() may be called from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

struct Embeddings {
  std::vector<std::vector<float>> vectors;  // one per text, in order
  size_t dimensions = 0;
  std::string model;
};

class Embedder {
 public:
  Embedder(const Host& host, std::string service) : host_(host), service_(std::move(service)) {}

  Result<Embeddings> embed(std::string_view project, const std::vector<std::string>& texts) const;

 private:
  const Host& host_;
  const std::string service_;
};

}  // namespace opbase::vdb
