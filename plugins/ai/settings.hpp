// AiSettings: the ai plugin's own configuration keys (docs/configuration.md#ai), read once at
// start; a bad value stops the start with a message naming the key.
//   ai.max_content_length   code points of content, default 50000 (docs/api.md#ai-request-checks)
//   ai.lane_threads         AI calls under way at once, default 32
//   ai.lane_queue           AI calls waiting for one of those, default 256
//   ai.data_dir             the offline provider's data; default: ai-data beside ai.so, else
//                           share/opbase/ai of the install ai.so is in
//   ai.dimensions           the offline vectors' size, default 1536 (at least 100)
// Provider choice: provider_router.hpp; the model provider's keys: openai/openai_settings.hpp.
//
// Thread-safety: a plain value.
#pragma once

#include <filesystem>

#include "opbase/host.hpp"
#include "opbase/status.hpp"
#include "ops/task_reader.hpp"

namespace opbase::ai {

struct AiSettings {
  RequestLimits limits;
  int lane_threads = 32;
  int lane_queue = 256;
  std::filesystem::path data_dir;
  int dimensions = 1536;

  static Result<AiSettings> from(const Host& host);
};

}  // namespace opbase::ai
