// The datastore's query language: parsing (match, sort, paging, projection) and the reference
// evaluator. Semantics: query.hpp and docs/query.md.
#include "opbase/query.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <span>

#include "opbase/field_error.hpp"

namespace opbase::query {

namespace {

using nlohmann::json;

constexpr std::string_view kKeyField = "_key";

std::string to_string(std::string_view text) { return std::string(text); }

// Runs a parser, turning an unexpected exception into an INTERNAL_ERROR Status: none escapes.
template <typename F>
auto guarded(F&& parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const std::exception& e) {
    return Status::internal(std::string("query: ") + e.what());
  }
}

bool is_system_name(std::string_view segment) {
  return !segment.empty() && (segment.front() == '_' || segment.front() == '$');
}

bool allowed_system_name(std::string_view segment, const ParseOptions& options) {
  if (options.allow_system_fields && segment.front() == '_') return true;
  return std::find(options.system_fields.begin(), options.system_fields.end(), segment) !=
         options.system_fields.end();
}

// A path, or an explanation of why it is not one (an empty string when it is fine).
std::string path_problem(std::string_view text, const ParseOptions& options,
                         std::vector<std::string>* segments) {
  if (text.empty()) return "empty field name";
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    const std::string_view segment =
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (segment.empty()) return "empty segment in field path";
    if (is_system_name(segment) && !allowed_system_name(segment, options)) {
      return "field names may not start with '_' or '$'";
    }
    segments->emplace_back(segment);
    if (segments->size() > options.max_path_depth) return "field path too deep";
    if (dot == std::string_view::npos) return {};
    start = dot + 1;
  }
}

// ---- Comparison ------------------------------------------------------------------------------

constexpr double kTwo63 = 9223372036854775808.0;   // 2^63, exact as a double
constexpr double kTwo64 = 18446744073709551616.0;  // 2^64

std::partial_ordering compare_int_double(std::int64_t i, double d) {
  if (std::isnan(d)) return std::partial_ordering::unordered;
  if (d >= kTwo63) return std::partial_ordering::less;
  if (d < -kTwo63) return std::partial_ordering::greater;
  const double whole = std::trunc(d);  // in [-2^63, 2^63): converts exactly
  const auto whole_int = static_cast<std::int64_t>(whole);
  if (i != whole_int) return i <=> whole_int;
  const double fraction = d - whole;  // exact
  if (fraction > 0) return std::partial_ordering::less;
  if (fraction < 0) return std::partial_ordering::greater;
  return std::partial_ordering::equivalent;
}

std::partial_ordering compare_uint_double(std::uint64_t u, double d) {
  if (std::isnan(d)) return std::partial_ordering::unordered;
  if (d >= kTwo64) return std::partial_ordering::less;
  if (d < 0) return std::partial_ordering::greater;
  const double whole = std::trunc(d);
  const auto whole_int = static_cast<std::uint64_t>(whole);
  if (u != whole_int) return u <=> whole_int;
  return d > whole ? std::partial_ordering::less : std::partial_ordering::equivalent;
}

std::partial_ordering compare_int_uint(std::int64_t i, std::uint64_t u) {
  if (i < 0) return std::partial_ordering::less;
  return static_cast<std::uint64_t>(i) <=> u;
}

std::partial_ordering reverse(std::partial_ordering order) { return 0 <=> order; }

// The sort bracket of a JSON type (compare_values).
int type_rank(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      return 0;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return 1;
    case json::value_t::string:
      return 2;
    case json::value_t::object:
      return 3;
    case json::value_t::array:
      return 4;
    case json::value_t::boolean:
      return 5;
    case json::value_t::binary:
      return 6;
  }
  return 7;
}

int sign(std::strong_ordering order) { return order < 0 ? -1 : (order > 0 ? 1 : 0); }

int compare_strings(const std::string& a, const std::string& b) {
  // char_traits<char> compares as unsigned char: UTF-8 byte order, which is code point order.
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// ---- Evaluation ------------------------------------------------------------------------------

void collect_from(const json& node, std::span<const std::string> rest, PathValues& out) {
  if (rest.empty()) {
    out.values.push_back(&node);
    return;
  }
  if (node.is_object()) {
    const auto it = node.find(rest.front());
    if (it == node.end()) {
      out.missing = true;
    } else {
      collect_from(*it, rest.subspan(1), out);
    }
    return;
  }
  if (node.is_array() && !node.empty()) {
    for (const json& element : node) {
      if (element.is_object()) {
        collect_from(element, rest, out);
      } else {
        out.missing = true;
      }
    }
    return;
  }
  out.missing = true;  // a scalar, or an empty array, where an object was needed
}

// Equality of one reached value with the operand: the whole value, or any element of an array.
bool equal_leaf(const json& value, const json& operand) {
  if (json_equal(value, operand)) return true;
  if (!value.is_array()) return false;
  return std::any_of(value.begin(), value.end(),
                     [&](const json& element) { return json_equal(element, operand); });
}

bool equal_match(const PathValues& reached, const json& operand) {
  if (operand.is_null() && reached.missing) return true;
  return std::any_of(reached.values.begin(), reached.values.end(),
                     [&](const json* value) { return equal_leaf(*value, operand); });
}

bool in_range(const json& value, Op op, const json& operand) {
  std::partial_ordering order = std::partial_ordering::unordered;
  if (value.is_number() && operand.is_number()) {
    order = compare_numbers(value, operand);
  } else if (value.is_string() && operand.is_string()) {
    order = value.get_ref<const std::string&>() <=> operand.get_ref<const std::string&>();
  }
  switch (op) {
    case Op::kGt:
      return order > 0;
    case Op::kGte:
      return order >= 0;
    case Op::kLt:
      return order < 0;
    case Op::kLte:
      return order <= 0;
    default:
      return false;
  }
}

bool range_match(const PathValues& reached, Op op, const json& operand) {
  return std::any_of(reached.values.begin(), reached.values.end(), [&](const json* value) {
    if (!value->is_array()) return in_range(*value, op, operand);
    return std::any_of(value->begin(), value->end(),
                       [&](const json& element) { return in_range(element, op, operand); });
  });
}

bool in_match(const PathValues& reached, const json& operands) {
  if (!operands.is_array()) return false;
  return std::any_of(operands.begin(), operands.end(),
                     [&](const json& operand) { return equal_match(reached, operand); });
}

// ---- Parsing ---------------------------------------------------------------------------------

struct OpName {
  std::string_view name;
  Op op;
};
constexpr OpName kOps[] = {{"$eq", Op::kEq},   {"$ne", Op::kNe},  {"$gt", Op::kGt},
                           {"$gte", Op::kGte}, {"$lt", Op::kLt},  {"$lte", Op::kLte},
                           {"$in", Op::kIn},   {"$nin", Op::kNin}};

// A failure about one key of a match or projection, named in the message and the details.
Status key_error(const std::string& message, const std::string& key) {
  return Status::validation("'" + key + "': " + message, {{"key", key}});
}

Result<Condition> parse_condition(const std::string& key, const json& value,
                                  const ParseOptions& options) {
  std::string_view field = key;
  Op op = Op::kEq;
  const std::size_t colon = key.rfind(':');
  if (colon != std::string::npos && colon + 1 < key.size() && key[colon + 1] == '$') {
    const std::string_view name = std::string_view(key).substr(colon + 1);
    const auto* found = std::find_if(std::begin(kOps), std::end(kOps),
                                     [&](const OpName& o) { return o.name == name; });
    // "$eq" is the implicit form only: the spec names no explicit equality operator.
    if (found == std::end(kOps) || found->op == Op::kEq) {
      return key_error("unknown match operator '" + to_string(name) + "'", key);
    }
    op = found->op;
    field = std::string_view(key).substr(0, colon);
  }
  std::vector<std::string> segments;
  if (std::string problem = path_problem(field, options, &segments); !problem.empty()) {
    return key_error(problem, key);
  }
  switch (op) {
    case Op::kIn:
    case Op::kNin:
      if (!value.is_array()) return key_error(to_string(op_name(op)) + " needs an array", key);
      if (value.size() > options.max_in_values) {
        return Status::validation("'" + key + "': " + to_string(op_name(op)) + " array too long",
                                  {{"key", key}, {"max", options.max_in_values}});
      }
      break;
    case Op::kGt:
    case Op::kGte:
    case Op::kLt:
    case Op::kLte:
      if (!value.is_number() && !value.is_string()) {
        return key_error(to_string(op_name(op)) + " needs a number or a string", key);
      }
      break;
    case Op::kEq:
    case Op::kNe:
      break;
  }
  return Condition{FieldPath{std::string(field), std::move(segments)}, op, value};
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x - 'A' + 'a' : x) == y;
         });
}

Result<std::vector<SortKey>> parse_sort_text(std::string_view text, const ParseOptions& options) {
  std::vector<SortKey> keys;
  const auto error = [&](const std::string& message, std::string_view part) -> Status {
    return field_error("sort", "sort '" + std::string(part) + "': " + message,
                       {{"value", std::string(part)}});
  };
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view part = trim(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (part.empty()) return error("empty sort key", text);
    const std::size_t space = part.find_first_of(" \t\r\n\f\v");
    const std::string_view field = part.substr(0, space);
    const std::string_view direction =
        space == std::string_view::npos ? std::string_view{} : trim(part.substr(space));
    SortKey key;
    if (direction.empty() || iequals(direction, "asc")) {
      key.descending = false;
    } else if (iequals(direction, "desc")) {
      key.descending = true;
    } else {
      return error("sort direction must be asc or desc", part);
    }
    if (std::string problem = path_problem(field, options, &key.path.segments); !problem.empty()) {
      return error(problem, part);
    }
    key.path.text = std::string(field);
    keys.push_back(std::move(key));
    if (keys.size() > options.max_conditions) return error("too many sort keys", text);
    if (comma == std::string_view::npos) return keys;
    start = comma + 1;
  }
}

// A non-negative JSON integer from body[name], or the default when absent or null.
Result<std::int64_t> paging_field(const json& body, const char* name, std::int64_t fallback) {
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) return fallback;
  const auto error = [&] {
    return field_error(name, std::string(name) + " must be a non-negative integer");
  };
  if (it->is_number_unsigned()) {
    const auto value = it->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(INT64_MAX)) return error();
    return static_cast<std::int64_t>(value);
  }
  if (it->is_number_integer()) {
    const auto value = it->get<std::int64_t>();
    if (value < 0) return error();
    return value;
  }
  return error();
}

// The projection's paths as a tree: a terminal node stands for a whole named field.
struct PathTree {
  bool terminal = false;
  std::map<std::string, PathTree, std::less<>> children;

  void add(const std::vector<std::string>& segments) {
    PathTree* node = this;
    for (const std::string& segment : segments) {
      if (node->terminal) return;  // a shorter path already names the whole field
      node = &node->children[segment];
    }
    node->terminal = true;
    node->children.clear();
  }
};

json include_tree(const json& value, const PathTree& tree) {
  if (value.is_array()) {
    json out = json::array();
    for (const json& element : value) {
      if (element.is_object()) out.push_back(include_tree(element, tree));
    }
    return out;
  }
  json out = json::object();
  for (const auto& [name, child] : tree.children) {
    const auto it = value.find(name);
    if (it == value.end()) continue;
    if (child.terminal) {
      out[name] = *it;
    } else if (it->is_object() || it->is_array()) {
      out[name] = include_tree(*it, child);
    }
  }
  return out;
}

void exclude_tree(json& value, const PathTree& tree) {
  if (value.is_array()) {
    for (json& element : value) exclude_tree(element, tree);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [name, child] : tree.children) {
    const auto it = value.find(name);
    if (it == value.end()) continue;
    if (child.terminal) {
      value.erase(it);
    } else {
      exclude_tree(*it, child);
    }
  }
}

}  // namespace

Result<FieldPath> parse_path(std::string_view text, const ParseOptions& options) {
  return guarded([&]() -> Result<FieldPath> {
    FieldPath path{std::string(text), {}};
    if (std::string problem = path_problem(text, options, &path.segments); !problem.empty()) {
      return field_error(path.text, problem);
    }
    return path;
  });
}

std::string_view op_name(Op op) {
  for (const OpName& o : kOps) {
    if (o.op == op) return o.name;
  }
  return "?";
}

Result<Match> parse_match(const json& match, const ParseOptions& options) {
  return guarded([&]() -> Result<Match> {
    if (!match.is_object()) {
      return field_error("match", "match must be an object");
    }
    if (match.size() > options.max_conditions) {
      return field_error("match", "too many match conditions", {{"max", options.max_conditions}});
    }
    Match out;
    out.reserve(match.size());
    for (const auto& [key, value] : match.items()) {
      Result<Condition> condition = parse_condition(key, value, options);
      if (!condition) return condition.status();
      out.push_back(std::move(condition).value());
    }
    return out;
  });
}

PathValues collect(const json& doc, const FieldPath& path) {
  PathValues out;
  collect_from(doc, path.segments, out);
  return out;
}

const json* resolve(const json& doc, const FieldPath& path) {
  const json* node = &doc;
  for (const std::string& segment : path.segments) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(segment);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

bool matches(const Condition& condition, const json& doc) {
  const PathValues reached = collect(doc, condition.path);
  switch (condition.op) {
    case Op::kEq:
      return equal_match(reached, condition.value);
    case Op::kNe:
      return !equal_match(reached, condition.value);
    case Op::kIn:
      return in_match(reached, condition.value);
    case Op::kNin:
      return !in_match(reached, condition.value);
    case Op::kGt:
    case Op::kGte:
    case Op::kLt:
    case Op::kLte:
      return range_match(reached, condition.op, condition.value);
  }
  return false;
}

bool matches(const Match& match, const json& doc) {
  return std::all_of(match.begin(), match.end(),
                     [&](const Condition& condition) { return matches(condition, doc); });
}

std::partial_ordering compare_numbers(const json& a, const json& b) {
  using T = json::value_t;
  const T ta = a.type(), tb = b.type();
  if (ta == T::number_integer) {
    const auto x = a.get<std::int64_t>();
    if (tb == T::number_integer) return x <=> b.get<std::int64_t>();
    if (tb == T::number_unsigned) return compare_int_uint(x, b.get<std::uint64_t>());
    if (tb == T::number_float) return compare_int_double(x, b.get<double>());
  } else if (ta == T::number_unsigned) {
    const auto x = a.get<std::uint64_t>();
    if (tb == T::number_integer) return reverse(compare_int_uint(b.get<std::int64_t>(), x));
    if (tb == T::number_unsigned) return x <=> b.get<std::uint64_t>();
    if (tb == T::number_float) return compare_uint_double(x, b.get<double>());
  } else if (ta == T::number_float) {
    const auto x = a.get<double>();
    if (tb == T::number_integer) return reverse(compare_int_double(b.get<std::int64_t>(), x));
    if (tb == T::number_unsigned) return reverse(compare_uint_double(b.get<std::uint64_t>(), x));
    if (tb == T::number_float) return x <=> b.get<double>();
  }
  return std::partial_ordering::unordered;
}

bool json_equal(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::array:
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), json_equal);
    case json::value_t::object:
      if (a.size() != b.size()) return false;
      for (const auto& [key, value] : a.items()) {
        const auto it = b.find(key);
        if (it == b.end() || !json_equal(value, *it)) return false;
      }
      return true;
    default:
      return a == b;  // null, boolean, string, binary
  }
}

int compare_values(const json& a, const json& b) {
  const int ra = type_rank(a), rb = type_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.type()) {
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: {
      const std::partial_ordering order = compare_numbers(a, b);
      if (order < 0) return -1;
      if (order > 0) return 1;
      if (order == 0) return 0;
      // A NaN (not from JSON text): below every number, equal to itself.
      const bool a_nan = a.is_number_float() && std::isnan(a.get<double>());
      const bool b_nan = b.is_number_float() && std::isnan(b.get<double>());
      return a_nan == b_nan ? 0 : (a_nan ? -1 : 1);
    }
    case json::value_t::string:
      return compare_strings(a.get_ref<const std::string&>(), b.get_ref<const std::string&>());
    case json::value_t::boolean:
      return sign(a.get<bool>() <=> b.get<bool>());
    case json::value_t::object: {
      // Objects keep their keys sorted (std::map), so this walks both in key order.
      auto ia = a.begin(), ib = b.begin();
      for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
        if (const int c = compare_strings(ia.key(), ib.key()); c != 0) return c;
        if (const int c = compare_values(ia.value(), ib.value()); c != 0) return c;
      }
      return sign(a.size() <=> b.size());
    }
    case json::value_t::array: {
      auto ia = a.begin(), ib = b.begin();
      for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
        if (const int c = compare_values(*ia, *ib); c != 0) return c;
      }
      return sign(a.size() <=> b.size());
    }
    case json::value_t::binary:
      return a == b ? 0 : (a < b ? -1 : 1);
    default:
      return 0;  // null, discarded
  }
}

Result<std::vector<SortKey>> parse_sort(std::string_view text, const ParseOptions& options,
                                        std::string_view default_text) {
  return guarded([&]() -> Result<std::vector<SortKey>> {
    if (!trim(text).empty()) return parse_sort_text(text, options);
    if (!trim(default_text).empty()) return parse_sort_text(default_text, options);
    return std::vector<SortKey>{};
  });
}

int compare_for_sort(const json& a, const json& b, const std::vector<SortKey>& keys) {
  static const json kNull;
  for (const SortKey& key : keys) {
    const json* va = resolve(a, key.path);
    const json* vb = resolve(b, key.path);
    const int c = compare_values(va ? *va : kNull, vb ? *vb : kNull);
    if (c != 0) return key.descending ? -c : c;
  }
  return 0;
}

Result<Paging> parse_paging(const json& body, const ParseOptions& options) {
  return guarded([&]() -> Result<Paging> {
    static const json kEmpty = json::object();
    const json& fields = body.is_object() ? body : kEmpty;
    Result<std::int64_t> limit = paging_field(fields, "limit", options.limit_default);
    if (!limit) return limit.status();
    if (*limit > options.limit_cap) {
      return field_error("limit",
                         "limit is above the maximum of " + std::to_string(options.limit_cap),
                         {{"max", options.limit_cap}});
    }
    Result<std::int64_t> offset = paging_field(fields, "offset", 0);
    if (!offset) return offset.status();
    return Paging{*limit, *offset};
  });
}

Result<Projection> parse_projection(const json& project, const ParseOptions& options) {
  return guarded([&]() -> Result<Projection> {
    if (!project.is_object()) {
      return field_error("project", "project must be an object");
    }
    if (project.size() > options.max_conditions) {
      return field_error("project", "too many projection fields",
                         {{"max", options.max_conditions}});
    }
    Projection out;
    bool mode_set = false, key_named = false, key_value = true;
    for (const auto& [key, value] : project.items()) {
      bool include = false;
      if (value.is_boolean()) {
        include = value.get<bool>();
      } else if (value.is_number_integer() || value.is_number_unsigned()) {
        const auto n = value.get<std::int64_t>();
        if (n != 0 && n != 1) return key_error("projection values are 1 or 0", key);
        include = n == 1;
      } else {
        return key_error("projection values are 1 or 0", key);
      }
      if (key == kKeyField) {
        key_named = true;
        key_value = include;
        continue;
      }
      std::vector<std::string> segments;
      if (std::string problem = path_problem(key, options, &segments); !problem.empty()) {
        return key_error(problem, key);
      }
      if (mode_set && include != out.include) {
        return key_error("projection cannot mix inclusion and exclusion", key);
      }
      mode_set = true;
      out.include = include;
      out.fields.push_back(FieldPath{key, std::move(segments)});
    }
    // Only _key named: {_key: 1} keeps just _key; {_key: 0} drops it.
    if (!mode_set && key_named) out.include = key_value;
    out.keep_key = key_value;
    return out;
  });
}

json apply_projection(const json& doc, const Projection& projection) {
  if (!doc.is_object()) return doc;
  PathTree tree;
  for (const FieldPath& field : projection.fields) tree.add(field.segments);
  json out;
  if (projection.include) {
    out = include_tree(doc, tree);
    if (projection.keep_key) {
      if (const auto it = doc.find(kKeyField); it != doc.end()) out[std::string(kKeyField)] = *it;
    }
  } else {
    out = doc;
    exclude_tree(out, tree);
    if (!projection.keep_key) out.erase(std::string(kKeyField));
  }
  return out;
}

}  // namespace opbase::query
