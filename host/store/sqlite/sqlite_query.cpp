// Query trees to SQL for the sqlite driver (see sqlite_query.hpp).
#include "store/sqlite/sqlite_query.hpp"

#include <algorithm>
#include <limits>

#include "opbase/internal/find_answer.hpp"
#include "opbase/internal/store_codec.hpp"

namespace opbase::host::sqlite {
namespace {

using nlohmann::json;

// Type brackets of query::compare_values, as stored in field_index.rank.
constexpr int kRankNumber = 1;
constexpr int kRankString = 2;
constexpr int kRankBool = 5;

// The index form of a scalar operand, or nullopt when the index cannot answer for it exactly.
std::optional<IndexValue> index_form(const json& value) {
  switch (value.type()) {
    case json::value_t::number_integer:
      return IndexValue{kRankNumber, value.get<int64_t>()};
    case json::value_t::number_unsigned:
      if (value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return std::nullopt;  // SQLite has no exact type for it
      }
      return IndexValue{kRankNumber, static_cast<int64_t>(value.get<uint64_t>())};
    case json::value_t::number_float:
      return IndexValue{kRankNumber, value.get<double>()};
    case json::value_t::string:
      return IndexValue{kRankString, value.get<std::string>()};
    case json::value_t::boolean:
      return IndexValue{kRankBool, static_cast<int64_t>(value.get<bool>() ? 1 : 0)};
    default:
      return std::nullopt;
  }
}

std::string_view comparison(query::Op op) {
  switch (op) {
    case query::Op::kGt:
      return ">";
    case query::Op::kGte:
      return ">=";
    case query::Op::kLt:
      return "<";
    case query::Op::kLte:
      return "<=";
    default:
      return "=";
  }
}

// The field_index predicate of one condition, or false when the index cannot answer it.
bool index_predicate(const query::Condition& c, std::string* sql, std::vector<Bind>* binds) {
  if (c.op == query::Op::kIn) {
    if (!c.value.is_array() || c.value.empty()) return false;
    std::vector<IndexValue> values;
    for (const json& operand : c.value) {
      auto form = index_form(operand);
      if (!form) return false;
      values.push_back(std::move(*form));
    }
    *sql = "(";
    for (std::size_t i = 0; i < values.size(); ++i) {
      *sql += i ? " OR (rank = ? AND value = ?)" : "(rank = ? AND value = ?)";
      binds->push_back(static_cast<int64_t>(values[i].rank));
      binds->push_back(values[i].value);
    }
    *sql += ")";
    return true;
  }
  if (c.op == query::Op::kNe || c.op == query::Op::kNin) return false;
  auto form = index_form(c.value);
  if (!form) return false;
  // Range operators compare numbers with numbers and strings with strings only.
  if (c.op != query::Op::kEq && form->rank == kRankBool) return false;
  *sql = "rank = ? AND value " + std::string(comparison(c.op)) + " ?";
  binds->push_back(static_cast<int64_t>(form->rank));
  binds->push_back(form->value);
  return true;
}

void add_scope(const Target& target, const std::string& plus, std::string* where,
               std::vector<Bind>* binds) {
  if (target.scope != nullptr && target.scope->owner) {
    *where += " AND " + plus + "owner = ?";
    binds->push_back(*target.scope->owner);
  }
}

// A JSON path SQLite can spell for these segments ($."a"."b"), or nullopt.
std::optional<std::string> sql_json_path(const query::FieldPath& path) {
  std::string out = "$";
  for (const std::string& segment : path.segments) {
    const bool plain = std::none_of(segment.begin(), segment.end(), [](char ch) {
      return ch == '"' || ch == '\\' || ch == '\'' || static_cast<unsigned char>(ch) < 0x20;
    });
    if (!plain) return std::nullopt;
    out += ".\"" + segment + "\"";
  }
  return out;
}

std::string sql_literal(std::string_view text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

std::string sort_terms(const query::SortKey& key) {
  const std::string dir = key.descending ? " DESC" : " ASC";
  if (key.path.text == "_created_at") return "created" + dir;
  if (key.path.text == "_key") return "key" + dir;
  std::string source = "doc";
  std::string path;
  if (auto spelled = sql_json_path(key.path)) {
    path = sql_literal(*spelled);
  } else {
    source = "ob_extract(doc, " + sql_literal(key.path.text) + ")";
    path = "'$'";
  }
  const std::string type = "json_type(" + source + ", " + path + ")";
  const std::string value = "json_extract(" + source + ", " + path + ")";
  return "CASE " + type +
         " WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3"
         " WHEN 'array' THEN 4 WHEN 'true' THEN 5 WHEN 'false' THEN 5 ELSE 0 END" +
         dir + ", CASE WHEN " + type + " IN ('object', 'array') THEN NULL ELSE " + value + " END" +
         dir + ", CASE WHEN " + type + " IN ('object', 'array') THEN " + value +
         " END COLLATE ob_json" + dir;
}

void add_index_values(const json& value, std::vector<IndexValue>* out) {
  if (auto form = index_form(value)) out->push_back(std::move(*form));
}

// ---- Plain SQL for top-level fields ----------------------------------------------------------
// A condition on a one-segment path with a scalar operand has an exact SQL form over SQLite's
// JSON functions, which is much cheaper than ob_match's full parse of every document: the path
// can only reach the field itself (no array of objects lies on the way), so the reference's
// rules reduce to the field's JSON type T and value V, plus, when T is 'array', its elements.
// Every form is wrapped in coalesce(..., 0) so NULL (a missing field) never leaks into NOT.

// The type test of an operand's bracket, or "" when the operand has none here (objects, arrays,
// numbers beyond SQLite's exact range).
std::string type_test(const json& operand, const std::string& type_expr) {
  switch (operand.type()) {
    case json::value_t::number_integer:
    case json::value_t::number_float:
      return type_expr + " IN ('integer', 'real')";
    case json::value_t::number_unsigned:
      if (operand.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return "";
      }
      return type_expr + " IN ('integer', 'real')";
    case json::value_t::string:
      return type_expr + " = 'text'";
    case json::value_t::boolean:
      return type_expr + (operand.get<bool>() ? " = 'true'" : " = 'false'");
    case json::value_t::null:
      return type_expr + " = 'null'";
    default:
      return "";
  }
}

Bind operand_bind(const json& operand) {
  if (operand.is_number_float()) return operand.get<double>();
  if (operand.is_number()) return operand.get<int64_t>();
  if (operand.is_string()) return operand.get<std::string>();
  return nullptr;
}

// "the field, or one of its elements, has the operand's type and compares `op` to it".
std::optional<std::string> scalar_test(const json& operand, std::string_view op,
                                       const std::string& path, std::vector<Bind>* binds) {
  const std::string field_type = "json_type(doc, " + path + ")";
  const std::string field_test = type_test(operand, field_type);
  const std::string element_test = type_test(operand, "type");
  if (field_test.empty()) return std::nullopt;
  const bool by_value = operand.is_number() || operand.is_string();
  if (!by_value && op != "=") return "0";  // ranges compare numbers and strings only
  std::string field = "(" + field_test;
  std::string element = "(" + field_type + " = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, " +
                        path + ") WHERE " + element_test;
  if (by_value) {
    field += " AND json_extract(doc, " + path + ") " + std::string(op) + " ?";
    element += " AND value " + std::string(op) + " ?";
    binds->push_back(operand_bind(operand));
    binds->push_back(operand_bind(operand));
  }
  std::string out = field + ") OR " + element + "))";
  if (operand.is_null()) out = "(" + field_type + " IS NULL OR " + out + ")";  // missing = null
  return out;
}

std::optional<std::string> plain_sql(const query::Condition& c, std::vector<Bind>* binds) {
  if (c.path.segments.size() != 1) return std::nullopt;
  const auto spelled = sql_json_path(c.path);
  if (!spelled) return std::nullopt;
  const std::string path = sql_literal(*spelled);
  std::vector<Bind> own;
  std::string sql;
  if (c.op == query::Op::kIn || c.op == query::Op::kNin) {
    if (!c.value.is_array()) return std::nullopt;
    sql = c.value.empty() ? "0" : "";
    for (const json& operand : c.value) {
      auto test = scalar_test(operand, "=", path, &own);
      if (!test) return std::nullopt;
      sql += (sql.empty() ? "" : " OR ") + *test;
    }
  } else {
    auto test = scalar_test(c.value, comparison(c.op), path, &own);
    if (!test) return std::nullopt;
    sql = *test;
  }
  const bool negated = c.op == query::Op::kNe || c.op == query::Op::kNin;
  binds->insert(binds->end(), own.begin(), own.end());
  return std::string(negated ? "NOT " : "") + "coalesce((" + sql + "), 0)";
}

// `_key` conditions the key column decides exactly: equality with a string, $in of strings.
bool key_predicate(const query::Condition& c, std::string* sql, std::vector<Bind>* binds) {
  if (c.path.text != "_key") return false;
  if (c.op == query::Op::kEq && c.value.is_string()) {
    *sql = "key = ?";
    binds->push_back(c.value.get<std::string>());
    return true;
  }
  if (c.op != query::Op::kIn || !c.value.is_array() || c.value.empty()) return false;
  for (const json& operand : c.value) {
    if (!operand.is_string()) return false;
  }
  *sql = "key IN (";
  for (std::size_t i = 0; i < c.value.size(); ++i) {
    *sql += i ? ", ?" : "?";
    binds->push_back(c.value[i].get<std::string>());
  }
  *sql += ")";
  return true;
}

}  // namespace

int state_code(store::State state) { return static_cast<int>(state); }

SqlFilter build_filter(const Target& target, const query::Match& match,
                       const std::vector<std::string>& indexed) {
  std::string selective;  // conditions an index decides: they drive the query
  std::vector<Bind> selective_binds;
  std::string plain;  // conditions in plain SQL, tested row by row
  std::vector<Bind> plain_binds;
  query::Match residual;
  for (const query::Condition& c : match) {
    std::string predicate;
    std::vector<Bind> predicate_binds;
    if (key_predicate(c, &predicate, &predicate_binds)) {
      selective += " AND " + predicate;
      selective_binds.insert(selective_binds.end(), predicate_binds.begin(), predicate_binds.end());
      continue;
    }
    const bool declared = std::find(indexed.begin(), indexed.end(), c.path.text) != indexed.end();
    if (!declared || !index_predicate(c, &predicate, &predicate_binds)) {
      if (auto sql = plain_sql(c, &plain_binds)) {
        plain += " AND " + *sql;
      } else {
        residual.push_back(c);
      }
      continue;
    }
    selective += " AND id IN (SELECT doc FROM field_index WHERE ns = ? AND coll = ? AND path = ?";
    selective_binds.insert(selective_binds.end(),
                           {std::string(target.ns), std::string(target.collection), c.path.text});
    add_scope(target, "", &selective, &selective_binds);
    if (target.state) {
      selective += " AND state = ?";
      selective_binds.push_back(static_cast<int64_t>(state_code(*target.state)));
    }
    selective += " AND " + predicate + ")";
    selective_binds.insert(selective_binds.end(), predicate_binds.begin(), predicate_binds.end());
  }
  // With an index condition, the scope terms must not pick the scope index: scanning every
  // document of the user in date order and testing each against the index would cost the size
  // of the collection. A unary '+' keeps a term out of index selection.
  const std::string plus = selective.empty() ? "" : "+";
  SqlFilter out;
  out.where = plus + "ns = ? AND " + plus + "coll = ?";
  out.binds = {std::string(target.ns), std::string(target.collection)};
  if (target.state) {
    out.where += " AND " + plus + "state = ?";
    out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  }
  add_scope(target, plus, &out.where, &out.binds);
  out.where += selective + plain;
  out.binds.insert(out.binds.end(), selective_binds.begin(), selective_binds.end());
  out.binds.insert(out.binds.end(), plain_binds.begin(), plain_binds.end());
  if (!residual.empty()) {
    out.where += " AND ob_match(doc, ?)";
    out.binds.push_back(store::match_to_json(residual).dump());
  }
  return out;
}

std::optional<IndexOnly> index_only(const Target& target, const query::Match& match,
                                    const std::vector<query::SortKey>& sort,
                                    const std::vector<std::string>& indexed) {
  if (match.size() != 1 || target.scope == nullptr || !target.scope->owner || !target.state) {
    return std::nullopt;
  }
  const query::Condition& c = match.front();
  if (c.op != query::Op::kEq ||
      std::find(indexed.begin(), indexed.end(), c.path.text) == indexed.end()) {
    return std::nullopt;
  }
  const bool by_date =
      sort.empty() || (sort.size() == 1 && sort.front().path.text == "_created_at");
  auto form = index_form(c.value);
  if (!by_date || !form) return std::nullopt;
  const bool descending = sort.empty() || sort.front().descending;
  IndexOnly out;
  out.where =
      "ns = ? AND coll = ? AND path = ? AND owner = ? AND state = ? AND rank = ? AND value = ?";
  out.binds = {std::string(target.ns),
               std::string(target.collection),
               c.path.text,
               *target.scope->owner,
               static_cast<int64_t>(state_code(*target.state)),
               static_cast<int64_t>(form->rank),
               form->value};
  out.order = descending ? "ORDER BY created DESC, key DESC" : "ORDER BY created ASC, key ASC";
  return out;
}

std::string build_order(const std::vector<query::SortKey>& sort) {
  if (sort.empty()) return "ORDER BY created DESC, key DESC";
  std::string out = "ORDER BY ";
  for (const query::SortKey& key : sort) out += sort_terms(key) + ", ";
  return out + (sort.back().descending ? "key DESC" : "key ASC");
}

std::vector<IndexValue> index_values(const json& doc, const query::FieldPath& path) {
  std::vector<IndexValue> out;
  for (const json* value : query::collect(doc, path).values) {
    if (value->is_array()) {
      for (const json& element : *value) add_index_values(element, &out);
    } else {
      add_index_values(*value, &out);
    }
  }
  return out;
}

}  // namespace opbase::host::sqlite
