// AiOps: the seven AI ops (docs/api.md#ai-text-operations), the ai.embed service the vdb area
// calls, and the administrators' ai.settings.get / .update. An op's task is read and checked
// (task_reader.hpp), passes the caller's rate limit and daily quota (limits/call_limits.hpp),
// and runs on the provider the project's choice names (provider/provider_choice.hpp); what a
// failed call took is given back. Each op counts <verb>_calls_total and _failures_total and
// times <verb>_seconds.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "limits/call_limits.hpp"
#include "opbase/host.hpp"
#include "opbase/sdk.hpp"
#include "ops/task_reader.hpp"
#include "provider/provider.hpp"
#include "provider/provider_choice.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

class AiOps {
 public:
  AiOps(const Host& host, RequestLimits limits, const ProviderChoice& choice,
        const CallLimits& call_limits)
      : host_(host), reader_(limits), choice_(choice), call_limits_(call_limits) {}

  // One of the ops of ops/op_table.hpp, as its task kind.
  Result<Reply> serve(TaskKind kind, const Request& request) const;
  // ai.embed: {"texts": [...]} -> {"vectors": [...], "dimensions", "model"}, each text checked
  // as an op's content is (details.index names a refused one), with the project's vectorize
  // provider.
  Result<nlohmann::json> embed(std::string_view project, const nlohmann::json& input) const;
  Result<Reply> settings(const Request& request) const;
  Result<Reply> change_settings(const Request& request) const;

 private:
  Result<Reply> run_task(TaskKind kind, const Task& task, const Provider& provider) const;
  bool counted(TaskKind kind, const Status& status, double elapsed_ms) const;
  Result<Reply> vectorize(const Provider& provider, const Task& task) const;

  const Host& host_;
  const TaskReader reader_;
  const ProviderChoice& choice_;
  const CallLimits& call_limits_;
};

}  // namespace opbase::ai
