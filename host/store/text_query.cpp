// A match and sort keys over a document's text in one pass (see text_query.hpp).
//
// The paths of the query form a tree of segments. The walk goes through the document's objects
// along that tree: a member whose key is not a segment at that point is skipped whole; a member
// that is one is "reached". A condition's path ends at a node: each value reached there is tested
// at once and only a bit per condition is kept. Whether a path is missing on some branch (what
// null equality needs) is a bit per node, set when an object lacks the segment or a scalar, an
// empty array or a nested array stands where an object was needed, as query::collect says.
#include "store/text_query.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "opbase/json_text.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// ---- Reading the text ------------------------------------------------------------------------

// A cursor over the text. Every read checks the end; a text that breaks the grammar sets `bad`
// and the document does not match.
struct Cursor {
  const char* at;
  const char* end;
  bool bad = false;

  void skip_blanks() {
    while (at < end && (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t')) ++at;
  }
  bool take(char ch) {
    skip_blanks();
    if (at < end && *at == ch) {
      ++at;
      return true;
    }
    return false;
  }
  char peek() {
    skip_blanks();
    return at < end ? *at : '\0';
  }
  void fail() {
    bad = true;
    at = end;
  }
};

// Moves past a string whose opening quote is at c.at; returns its text with the quotes.
std::string_view skip_string(Cursor& c) {
  const char* start = c.at;
  const char* p = c.at + 1;
  while (true) {
    const void* quote = std::memchr(p, '"', static_cast<std::size_t>(c.end - p));
    if (quote == nullptr) {
      c.fail();
      return {};
    }
    const char* q = static_cast<const char*>(quote);
    // A quote ends the string unless an odd run of backslashes stands before it.
    std::size_t slashes = 0;
    while (q - slashes > p && q[-1 - static_cast<std::ptrdiff_t>(slashes)] == '\\') ++slashes;
    if (slashes % 2 == 0) {
      c.at = q + 1;
      return {start, static_cast<std::size_t>(c.at - start)};
    }
    p = q + 1;
  }
}

// Moves past one value of any kind; returns its text.
std::string_view skip_value(Cursor& c) {
  c.skip_blanks();
  if (c.at >= c.end) {
    c.fail();
    return {};
  }
  const char* start = c.at;
  const char first = *c.at;
  if (first == '"') return skip_string(c);
  if (first == '{' || first == '[') {
    int depth = 0;
    while (c.at < c.end) {
      const char ch = *c.at;
      if (ch == '"') {
        skip_string(c);
        continue;
      }
      ++c.at;
      if (ch == '{' || ch == '[') {
        ++depth;
      } else if (ch == '}' || ch == ']') {
        if (--depth == 0) return {start, static_cast<std::size_t>(c.at - start)};
      }
    }
    c.fail();
    return {};
  }
  // A number or a literal: up to the next delimiter.
  while (c.at < c.end && *c.at != ',' && *c.at != '}' && *c.at != ']' && *c.at != ' ' &&
         *c.at != '\n' && *c.at != '\r' && *c.at != '\t') {
    ++c.at;
  }
  if (c.at == start) c.fail();
  return {start, static_cast<std::size_t>(c.at - start)};
}

// The decoded bytes of a string token, or nullopt when it is not one.
std::optional<std::string> decoded(std::string_view token) {
  if (token.size() < 2 || token.front() != '"') return std::nullopt;
  const std::string_view inner = token.substr(1, token.size() - 2);
  if (inner.find('\\') == std::string_view::npos) return std::string(inner);
  return json_text::string_value(token);
}

// Whether a string token holds exactly `bytes` (decoding only when it has escapes).
bool string_equals(std::string_view token, std::string_view bytes) {
  const std::string_view inner = token.substr(1, token.size() - 2);
  if (inner.find('\\') == std::string_view::npos) return inner == bytes;
  const auto text = json_text::string_value(token);
  return text && *text == bytes;
}

// A number token as nlohmann reads it: an integer when it has no fraction or exponent and fits
// int64 (negative) or uint64, otherwise a double.
std::optional<json> number(std::string_view token) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (token.find_first_of(".eE") == std::string_view::npos) {
    if (token.front() == '-') {
      int64_t value = 0;
      const auto [end, error] = std::from_chars(first, last, value);
      if (error == std::errc() && end == last) return json(value);
    } else {
      uint64_t value = 0;
      const auto [end, error] = std::from_chars(first, last, value);
      if (error == std::errc() && end == last) return json(value);
    }
  }
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (end != last || (error != std::errc() && error != std::errc::result_out_of_range)) {
    return std::nullopt;
  }
  if (error == std::errc::result_out_of_range) {
    // Underflow reads as zero in nlohmann (strtod); overflow cannot be in a stored text.
    value = std::strtod(std::string(token).c_str(), nullptr);
  }
  return json(value);
}

// The value a token stands for, parsed (numbers and strings without the parser).
json value_of(std::string_view token) {
  switch (token.front()) {
    case '"': {
      auto text = decoded(token);
      return text ? json(std::move(*text)) : json();
    }
    case 't':
      return true;
    case 'f':
      return false;
    case 'n':
      return nullptr;
    case '{':
    case '[': {
      json parsed = json::parse(token, nullptr, false);
      return parsed.is_discarded() ? json() : parsed;
    }
    default: {
      auto parsed = number(token);
      return parsed ? std::move(*parsed) : json();
    }
  }
}

// Calls `each` with every element token of an array token; false when the array breaks the
// grammar.
template <typename F>
bool for_each_element(std::string_view array, F&& each) {
  Cursor c{array.data() + 1, array.data() + array.size()};
  if (c.take(']')) return true;
  while (true) {
    const std::string_view element = skip_value(c);
    if (c.bad) return false;
    each(element);
    if (c.take(',')) continue;
    return c.take(']');
  }
}

// ---- Operands --------------------------------------------------------------------------------

// An operand ready for comparison with tokens.
struct Operand {
  json value;
  char kind;  // the first character its token would have: '"', 'n' (null), 't', 'f', '0'
              // (number), '{', '['
};

Operand operand_of(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      return {value, '"'};
    case json::value_t::null:
      return {value, 'n'};
    case json::value_t::boolean:
      return {value, value.get<bool>() ? 't' : 'f'};
    case json::value_t::object:
      return {value, '{'};
    case json::value_t::array:
      return {value, '['};
    default:
      return {value, '0'};
  }
}

char token_kind(std::string_view token) {
  const char first = token.front();
  return first == '-' || (first >= '0' && first <= '9') ? '0' : first;
}

// query::json_equal between a scalar or composite token and the operand.
bool token_equals(std::string_view token, const Operand& operand) {
  const char kind = token_kind(token);
  if (kind != operand.kind) return false;
  switch (kind) {
    case '"':
      return string_equals(token, operand.value.get_ref<const std::string&>());
    case 'n':
    case 't':
    case 'f':
      return true;
    case '0': {
      const auto value = number(token);
      return value && query::compare_numbers(*value, operand.value) == 0;
    }
    default:
      return query::json_equal(value_of(token), operand.value);
  }
}

// Equality of one reached value with an operand: the whole value, or any element of an array.
bool reached_equals(std::string_view token, const Operand& operand) {
  if (token_equals(token, operand)) return true;
  if (token.front() != '[') return false;
  bool found = false;
  for_each_element(
      token, [&](std::string_view element) { found = found || token_equals(element, operand); });
  return found;
}

bool in_range(std::string_view token, query::Op op, const Operand& operand) {
  std::partial_ordering order = std::partial_ordering::unordered;
  const char kind = token_kind(token);
  if (kind != operand.kind) return false;
  if (kind == '0') {
    const auto value = number(token);
    if (!value) return false;
    order = query::compare_numbers(*value, operand.value);
  } else if (kind == '"') {
    const auto text = decoded(token);
    if (!text) return false;
    order = *text <=> operand.value.get_ref<const std::string&>();
  } else {
    return false;
  }
  switch (op) {
    case query::Op::kGt:
      return order > 0;
    case query::Op::kGte:
      return order >= 0;
    case query::Op::kLt:
      return order < 0;
    default:
      return order <= 0;
  }
}

bool reached_in_range(std::string_view token, query::Op op, const Operand& operand) {
  if (token.front() != '[') return in_range(token, op, operand);
  bool found = false;
  for_each_element(
      token, [&](std::string_view element) { found = found || in_range(element, op, operand); });
  return found;
}

}  // namespace

// ---- The compiled query ----------------------------------------------------------------------

struct TextQuery::Compiled {
  struct Test {
    query::Op op;
    std::vector<Operand> operands;  // one, or the list of $in / $nin
    bool null_operand = false;      // equality with null also holds where the path is missing
    bool hit = false;               // some reached value satisfied the test (equality for $ne)
  };
  struct Node {
    std::string segment;
    std::vector<std::size_t> children;
    std::vector<std::size_t> tests;      // conditions whose path ends here
    std::vector<std::size_t> sort_keys;  // sort keys whose path ends here
    bool missing = false;                // some branch could not reach this node
  };

  std::vector<Node> nodes{Node{}};  // nodes[0] is the document itself
  std::vector<Test> tests;
  std::vector<json> sort_values;
  std::vector<std::string_view> sort_tokens;
  bool broken = false;  // a value inside the document broke the grammar

  std::size_t node_for(const query::FieldPath& path) {
    std::size_t at = 0;
    for (const std::string& segment : path.segments) {
      const auto& children = nodes[at].children;
      const auto it = std::find_if(children.begin(), children.end(), [&](std::size_t child) {
        return nodes[child].segment == segment;
      });
      if (it != children.end()) {
        at = *it;
        continue;
      }
      nodes.push_back(Node{segment, {}, {}, {}, false});
      nodes[at].children.push_back(nodes.size() - 1);
      at = nodes.size() - 1;
    }
    return at;
  }

  void add(const query::Condition& condition) {
    Test test{condition.op, {}, false, false};
    if (condition.op == query::Op::kIn || condition.op == query::Op::kNin) {
      for (const json& value : condition.value) test.operands.push_back(operand_of(value));
    } else {
      test.operands.push_back(operand_of(condition.value));
    }
    test.null_operand = condition.op != query::Op::kGt && condition.op != query::Op::kGte &&
                        condition.op != query::Op::kLt && condition.op != query::Op::kLte &&
                        std::any_of(test.operands.begin(), test.operands.end(),
                                    [](const Operand& o) { return o.kind == 'n'; });
    nodes[node_for(condition.path)].tests.push_back(tests.size());
    tests.push_back(std::move(test));
  }

  void reset() {
    for (Node& node : nodes) node.missing = false;
    for (Test& test : tests) test.hit = false;
    std::fill(sort_tokens.begin(), sort_tokens.end(), std::string_view());
  }

  // Marks the node and everything under it missing.
  void mark_missing(std::size_t at) {
    nodes[at].missing = true;
    for (std::size_t child : nodes[at].children) mark_missing(child);
  }
  void mark_children_missing(std::size_t at) {
    for (std::size_t child : nodes[at].children) mark_missing(child);
  }

  void test_value(Test& test, std::string_view token) {
    if (test.hit) return;
    for (const Operand& operand : test.operands) {
      const bool ok = test.op == query::Op::kGt || test.op == query::Op::kGte ||
                              test.op == query::Op::kLt || test.op == query::Op::kLte
                          ? reached_in_range(token, test.op, operand)
                          : reached_equals(token, operand);
      if (ok) {
        test.hit = true;
        return;
      }
    }
  }

  // The index in `children` of the node the key token names, or children.size().
  std::size_t child_named(const std::vector<std::size_t>& children, std::string_view key) const {
    std::string_view name = key.substr(1, key.size() - 2);
    std::optional<std::string> unescaped;
    if (name.find('\\') != std::string_view::npos) {
      unescaped = json_text::string_value(key);
      if (!unescaped) return children.size();
      name = *unescaped;
    }
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (nodes[children[i]].segment == name) return i;
    }
    return children.size();
  }

  // A value reached at node `at`; `through_objects` says the walk met no array on the way.
  void reach(std::size_t at, std::string_view token, bool through_objects) {
    for (std::size_t test : nodes[at].tests) test_value(tests[test], token);
    if (through_objects) {
      for (std::size_t key : nodes[at].sort_keys) sort_tokens[key] = token;
    }
    if (nodes[at].children.empty()) return;
    if (token.front() == '{') {
      walk_nested(token, at, through_objects);
      return;
    }
    bool entered = false;
    if (token.front() == '[') {
      broken |= !for_each_element(token, [&](std::string_view element) {
        entered = true;
        if (element.front() == '{') {
          walk_nested(element, at, false);
        } else {
          mark_children_missing(at);
        }
      });
    }
    if (!entered) mark_children_missing(at);  // a scalar or an empty array
  }

  void walk_nested(std::string_view object, std::size_t at, bool through_objects) {
    Cursor c{object.data(), object.data() + object.size()};
    walk_object(c, at, through_objects);
    if (c.bad) broken = true;
  }

  // Walks the object at the cursor, whose members are looked up among the children of `at`.
  void walk_object(Cursor& c, std::size_t at, bool through_objects) {
    if (!c.take('{')) {
      c.fail();
      return;
    }
    const std::vector<std::size_t>& children = nodes[at].children;
    uint64_t seen = 0;  // bit i: children[i] was met (a node has at most 100 children)
    std::vector<bool> seen_more;
    if (!c.take('}')) {
      while (true) {
        if (c.peek() != '"') return c.fail();
        const std::string_view key = skip_string(c);
        if (c.bad || !c.take(':')) return c.fail();
        const std::size_t found = child_named(children, key);
        const std::string_view value = skip_value(c);
        if (c.bad) return;
        if (found < children.size()) {
          if (found < 64) {
            seen |= uint64_t{1} << found;
          } else {
            if (seen_more.empty()) seen_more.resize(children.size());
            seen_more[found] = true;
          }
          reach(children[found], value, through_objects);
        }
        if (c.take(',')) continue;
        if (c.take('}')) break;
        return c.fail();
      }
    }
    for (std::size_t i = 0; i < children.size(); ++i) {
      const bool met = i < 64 ? (seen >> i) & 1 : !seen_more.empty() && seen_more[i];
      if (!met) mark_missing(children[i]);
    }
  }
};

TextQuery::TextQuery(const query::Match& match, const std::vector<query::SortKey>& sort)
    : compiled_(std::make_unique<Compiled>()) {
  for (const query::Condition& condition : match) compiled_->add(condition);
  for (std::size_t i = 0; i < sort.size(); ++i) {
    compiled_->nodes[compiled_->node_for(sort[i].path)].sort_keys.push_back(i);
  }
  compiled_->sort_values.resize(sort.size());
  compiled_->sort_tokens.resize(sort.size());
}

TextQuery::~TextQuery() = default;
TextQuery::TextQuery(TextQuery&&) noexcept = default;
TextQuery& TextQuery::operator=(TextQuery&&) noexcept = default;

bool TextQuery::reads_documents() const {
  return !compiled_->tests.empty() || !compiled_->sort_values.empty();
}

bool TextQuery::matches(std::string_view doc) {
  Compiled& q = *compiled_;
  if (!reads_documents()) return true;
  q.reset();
  Cursor c{doc.data(), doc.data() + doc.size()};
  q.broken = false;
  q.walk_object(c, 0, true);
  if (c.bad || q.broken) return false;
  for (std::size_t n = 0; n < q.nodes.size(); ++n) {
    for (std::size_t t : q.nodes[n].tests) {
      const Compiled::Test& test = q.tests[t];
      const bool equal = test.hit || (test.null_operand && q.nodes[n].missing);
      const bool negated = test.op == query::Op::kNe || test.op == query::Op::kNin;
      if (equal == negated) return false;
    }
  }
  for (std::size_t i = 0; i < q.sort_tokens.size(); ++i) {
    q.sort_values[i] = q.sort_tokens[i].empty() ? json() : value_of(q.sort_tokens[i]);
  }
  return true;
}

const std::vector<json>& TextQuery::sort_values() const { return compiled_->sort_values; }

int compare_sort_values(const std::vector<json>& a, const std::vector<json>& b,
                        const std::vector<query::SortKey>& keys) {
  for (std::size_t i = 0; i < keys.size() && i < a.size() && i < b.size(); ++i) {
    const int order = query::compare_values(a[i], b[i]);
    if (order != 0) return keys[i].descending ? -order : order;
  }
  return 0;
}

}  // namespace opbase::host
