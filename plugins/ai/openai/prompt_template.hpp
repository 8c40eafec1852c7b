// PromptTemplate: the little language of the prompt files (plugins/ai/prompts/*.txt).
//   - A line starting with '#' is a comment for the people who edit the file; it is dropped.
//   - {{name}} is replaced by the value of `name`.
//   - {{#name}} ... {{/name}} keeps what is between only when `name` has a non-empty value;
//     {{^name}} ... {{/name}} only when it has none. A block tag alone on its line takes its line
//     with it, so blocks leave no blank lines behind.
// Values are put in as they are, never read again as template text. parse() refuses a name
// outside `known_names`, an unclosed or crossed block and a stray "{{" or "}}", so a typo in a
// prompt file shows when the file is loaded, not in a model's answer.
//
// Thread-safety: immutable once parsed; render() is const.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::ai {

using PromptValues = std::map<std::string, std::string, std::less<>>;

class PromptTemplate {
 public:
  // `source` names the text in messages (its file).
  static Result<PromptTemplate> parse(std::string_view text,
                                      const std::set<std::string>& known_names,
                                      std::string_view source);

  // The text with every placeholder filled; a name without a value counts as empty.
  std::string render(const PromptValues& values) const;

 private:
  struct Node {
    enum class Kind { kText, kValue, kBlock, kInverted } kind = Kind::kText;
    std::string text;            // the literal text, or the value's name
    std::vector<Node> children;  // a block's content
  };
  static void render_nodes(const std::vector<Node>& nodes, const PromptValues& values,
                           std::string* out);

  std::vector<Node> nodes_;
};

}  // namespace opbase::ai
