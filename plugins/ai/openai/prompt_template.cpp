#include "openai/prompt_template.hpp"

#include <algorithm>

namespace opbase::ai {
namespace {

bool is_tag_line(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  return line.size() > 5 && line.starts_with("{{") && line.ends_with("}}") &&
         (line[2] == '#' || line[2] == '^' || line[2] == '/') &&
         line.find("{{", 2) == std::string_view::npos;
}

// Comments dropped; a block tag alone on its line loses the line's end.
std::string without_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (!line.starts_with('#')) {
      if (is_tag_line(line)) {
        out.append(line.substr(0, line.rfind("}}") + 2));
      } else {
        out.append(line);
        if (!last) out += '\n';
      }
    }
    start = end + 1;
  }
  return out;
}

bool is_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

Result<PromptTemplate> PromptTemplate::parse(std::string_view text,
                                             const std::set<std::string>& known_names,
                                             std::string_view source) {
  const std::string body = without_comments(text);
  const auto fail = [&](const std::string& what) {
    return Status::internal("prompt file " + std::string(source) + ": " + what);
  };
  PromptTemplate result;
  // The blocks being read, innermost last; the node lists they fill.
  std::vector<std::pair<std::string, std::vector<Node>*>> open = {{"", &result.nodes_}};
  size_t at = 0;
  while (at < body.size()) {
    const size_t tag = body.find("{{", at);
    const std::string_view literal =
        std::string_view(body).substr(at, (tag == std::string::npos ? body.size() : tag) - at);
    if (literal.find("}}") != std::string_view::npos) return fail("a '}}' without '{{'");
    if (!literal.empty()) {
      open.back().second->push_back({Node::Kind::kText, std::string(literal), {}});
    }
    if (tag == std::string::npos) break;
    const size_t close = body.find("}}", tag + 2);
    if (close == std::string::npos) return fail("a '{{' without '}}'");
    std::string_view inner = std::string_view(body).substr(tag + 2, close - tag - 2);
    const char sigil = inner.empty() ? '\0' : inner.front();
    const bool tagged = sigil == '#' || sigil == '^' || sigil == '/';
    if (tagged) inner.remove_prefix(1);
    const std::string name(inner);
    if (!is_name(name) || !known_names.contains(name)) {
      return fail("unknown placeholder {{" + std::string(tagged ? 1 : 0, sigil) + name + "}}");
    }
    if (sigil == '#' || sigil == '^') {
      std::vector<Node>* into = open.back().second;
      into->push_back({sigil == '#' ? Node::Kind::kBlock : Node::Kind::kInverted, name, {}});
      open.emplace_back(name, &into->back().children);
    } else if (sigil == '/') {
      if (open.size() < 2 || open.back().first != name) {
        return fail("a block end of " + name + " closes no open block of it");
      }
      open.pop_back();
    } else {
      open.back().second->push_back({Node::Kind::kValue, name, {}});
    }
    at = close + 2;
  }
  if (open.size() > 1) return fail("the block of " + open.back().first + " is never closed");
  return result;
}

void PromptTemplate::render_nodes(const std::vector<Node>& nodes, const PromptValues& values,
                                  std::string* out) {
  for (const Node& node : nodes) {
    if (node.kind == Node::Kind::kText) {
      out->append(node.text);
      continue;
    }
    const auto it = values.find(node.text);
    const bool empty = it == values.end() || it->second.empty();
    if (node.kind == Node::Kind::kValue) {
      if (!empty) out->append(it->second);
    } else if (empty == (node.kind == Node::Kind::kInverted)) {
      render_nodes(node.children, values, out);
    }
  }
}

std::string PromptTemplate::render(const PromptValues& values) const {
  std::string out;
  render_nodes(nodes_, values, &out);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace opbase::ai
