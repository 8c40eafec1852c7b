#include "openai/prompt_library.hpp"

#include <fstream>
#include <set>
#include <sstream>

namespace opbase::ai {
namespace {

constexpr TaskKind kChatKinds[] = {TaskKind::kGenerate, TaskKind::kSummarize,
                                   TaskKind::kClassify, TaskKind::kSentiment,
                                   TaskKind::kExtract,  TaskKind::kTranslate};

const std::set<std::string>& known_names() {
  static const std::set<std::string> names(kPromptValueNames.begin(), kPromptValueNames.end());
  return names;
}

}  // namespace

std::string_view prompt_name(TaskKind kind) {
  switch (kind) {
    case TaskKind::kGenerate:
      return "generate.v1";
    case TaskKind::kSummarize:
      return "summarize.v1";
    case TaskKind::kClassify:
      return "classify.v1";
    case TaskKind::kSentiment:
      return "sentiment.v1";
    case TaskKind::kExtract:
      return "extract.v1";
    case TaskKind::kTranslate:
      return "translate.v1";
    case TaskKind::kVectorize:
      break;
  }
  return {};
}

Result<std::shared_ptr<const PromptLibrary>> PromptLibrary::load(const std::string& folder) {
  std::map<std::string, std::string, std::less<>> texts;
  for (TaskKind kind : kChatKinds) {
    const std::string path = folder + "/" + std::string(prompt_name(kind)) + ".txt";
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::internal("prompt file " + path + " is missing or unreadable");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Status::internal("prompt file " + path + " could not be read");
    texts.emplace(std::string(prompt_name(kind)), text.str());
  }
  return from_texts(texts, folder);
}

Result<std::shared_ptr<const PromptLibrary>> PromptLibrary::from_texts(
    const std::map<std::string, std::string, std::less<>>& texts, std::string_view source) {
  auto library = std::make_shared<PromptLibrary>();
  for (TaskKind kind : kChatKinds) {
    const std::string file = std::string(source) + "/" + std::string(prompt_name(kind)) + ".txt";
    const auto text = texts.find(prompt_name(kind));
    if (text == texts.end()) return Status::internal("prompt file " + file + " is missing");
    auto parsed = PromptTemplate::parse(text->second, known_names(), file);
    if (!parsed) return parsed.status();
    library->templates_.emplace(kind, std::move(*parsed));
  }
  return std::shared_ptr<const PromptLibrary>(std::move(library));
}

Result<RenderedPrompt> PromptLibrary::render(TaskKind kind, const PromptValues& values) const {
  const auto it = templates_.find(kind);
  if (it == templates_.end()) return Status::internal("no prompt for this task");
  return RenderedPrompt{it->second.render(values), std::string(prompt_name(kind))};
}

}  // namespace opbase::ai
