#include "sentiment/analysis_depth.hpp"

namespace opbase::ai {

AnalysisDepth analysis_depth(std::string_view name) {
  if (name == "brief") return AnalysisDepth::kBrief;
  if (name == "detailed") return AnalysisDepth::kDetailed;
  return AnalysisDepth::kStandard;
}

size_t key_phrase_limit(AnalysisDepth depth) {
  switch (depth) {
    case AnalysisDepth::kBrief:
      return 3;
    case AnalysisDepth::kDetailed:
      return 10;
    case AnalysisDepth::kStandard:
      break;
  }
  return 5;
}

}  // namespace opbase::ai
