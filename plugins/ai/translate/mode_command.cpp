#include "translate/mode_command.hpp"

#include <cstddef>

namespace opbase::ai {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Builds the stages word by word as the parser walks the command.
class Builder {
 public:
  void append(std::string_view text) {
    word_ += text;
    in_word_ = true;
  }
  // A quoted "" is an empty word; a bare expansion to nothing is not one.
  void mark_word() { in_word_ = true; }
  void end_word() {
    if (in_word_) stage_.push_back(word_);
    word_.clear();
    in_word_ = false;
  }
  bool end_stage() {
    end_word();
    if (stage_.empty()) return false;
    stages_.push_back(std::move(stage_));
    stage_.clear();
    return true;
  }
  std::vector<Stage> take() { return std::move(stages_); }

 private:
  std::string word_;
  bool in_word_ = false;
  Stage stage_;
  std::vector<Stage> stages_;
};

Status refused(std::string_view what, size_t at) {
  return Status::validation("the Apertium mode's command uses " + std::string(what) +
                            " at character " + std::to_string(at) +
                            ", which the engine does not run");
}

// $1..$9 at command[at] ('$'): the value, and the length it spans. False for other expansions.
bool positional_at(std::string_view command, size_t at, const std::vector<std::string>& positional,
                   std::string* value) {
  if (at + 1 >= command.size() || command[at + 1] < '1' || command[at + 1] > '9') return false;
  const size_t index = static_cast<size_t>(command[at + 1] - '1');
  *value = index < positional.size() ? positional[index] : "";
  return true;
}

// Reads "..." starting at command[at] ('"'); returns the index after the closing quote or npos.
size_t read_double_quoted(std::string_view command, size_t at,
                          const std::vector<std::string>& positional, Builder* builder,
                          Status* error) {
  builder->mark_word();
  size_t i = at + 1;
  while (i < command.size() && command[i] != '"') {
    const char c = command[i];
    std::string value;
    if (c == '\\' && i + 1 < command.size() &&
        std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos) {
      builder->append(command.substr(i + 1, 1));
      i += 2;
    } else if (c == '$' && positional_at(command, i, positional, &value)) {
      builder->append(value);
      i += 2;
    } else if (c == '$' || c == '`') {
      *error = refused("an expansion", i);
      return std::string_view::npos;
    } else {
      builder->append(command.substr(i, 1));
      ++i;
    }
  }
  if (i >= command.size()) {
    *error = refused("an unclosed double quote", at);
    return std::string_view::npos;
  }
  return i + 1;
}

}  // namespace

Result<std::vector<Stage>> parse_pipeline(std::string_view command,
                                          const std::vector<std::string>& positional) {
  Builder builder;
  size_t i = 0;
  while (i < command.size()) {
    const char c = command[i];
    std::string value;
    if (is_space(c)) {
      builder.end_word();
      ++i;
    } else if (c == '|') {
      if (!builder.end_stage()) return refused("an empty program", i);
      ++i;
    } else if (c == '\'') {
      const size_t close = command.find('\'', i + 1);
      if (close == std::string_view::npos) return refused("an unclosed single quote", i);
      builder.mark_word();
      builder.append(command.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (c == '"') {
      Status error;
      i = read_double_quoted(command, i, positional, &builder, &error);
      if (!error.is_ok()) return error;
    } else if (c == '\\' && i + 1 < command.size()) {
      builder.append(command.substr(i + 1, 1));
      i += 2;
    } else if (c == '$' && positional_at(command, i, positional, &value)) {
      if (!value.empty()) builder.append(value);
      i += 2;
    } else if (std::string_view(";&<>()`$*?#~{}").find(c) != std::string_view::npos) {
      return refused(std::string("'") + c + "'", i);
    } else {
      builder.append(command.substr(i, 1));
      ++i;
    }
  }
  if (!builder.end_stage()) return refused("an empty program", command.size());
  return builder.take();
}

}  // namespace opbase::ai
