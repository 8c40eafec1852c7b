// Provider: what answers the AI ops. One interface for the built-in offline provider and for a
// model server (OpenAI-compatible), so the op layer chooses one per project and per op from the
// configuration and treats them alike. A provider that cannot do a task answers a Status
// (PROCESSING_FAILED with details.error_type and details.retry_recommended), never throws.
//
// Thread-safety: run() and embed() are called concurrently from many threads; implementations
// keep no mutable state outside their own locks.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

struct TaskAnswer {
  // data.output, in the shape docs/api.md#ai-answers gives for the task's op.
  nlohmann::json output;
  // The op's meta fields this provider knows (for example analysis_confidence,
  // source_language, classification_method); the op layer adds the timing and length fields.
  nlohmann::json meta = nlohmann::json::object();
};

struct Embeddings {
  std::vector<std::vector<float>> vectors;  // one per input text, each `dimensions` long
  int dimensions = 0;
  std::string model;  // names the model and its version, e.g. "offline-glove-6b-100d-sif-v1"
};

class Provider {
 public:
  virtual ~Provider() = default;
  // "offline", "openai", ...: reported in meta.provider.
  virtual std::string_view name() const = 0;
  virtual Result<TaskAnswer> run(const Task& task) const = 0;
  // Vectors for texts (none blank), for ai.vectorize and the ai.embed service.
  virtual Result<Embeddings> embed(const std::vector<std::string>& texts) const = 0;
};

}  // namespace opbase::ai
