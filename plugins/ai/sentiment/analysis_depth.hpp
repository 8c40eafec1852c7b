// How much detail ai.sentiment gives (options.analysis_depth): the number of key phrases and the
// length of the tone description. Depth never changes a score or a label.
//
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <string_view>

namespace opbase::ai {

enum class AnalysisDepth { kBrief, kStandard, kDetailed };

// "brief", "standard" or "detailed"; anything else is standard (the op layer checks the value).
AnalysisDepth analysis_depth(std::string_view name);

// At most 3 key phrases brief, 5 standard, 10 detailed.
size_t key_phrase_limit(AnalysisDepth depth);

}  // namespace opbase::ai
