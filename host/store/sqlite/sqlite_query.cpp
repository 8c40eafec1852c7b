// Query trees to SQL for the sqlite driver (see sqlite_query.hpp).
#include "store/sqlite/sqlite_query.hpp"

#include <algorithm>
#include <limits>

#include "opbase/internal/find_answer.hpp"
#include "opbase/internal/store_codec.hpp"
#include "store/sqlite/sqlite_scope_counts.hpp"

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
    // One "rank = ? AND value IN (...)" per type bracket: SQLite reads each value's rows from
    // the index then, where an OR of (rank, value) pairs would read every row of the path.
    std::vector<int> ranks;
    for (const IndexValue& v : values) {
      if (std::find(ranks.begin(), ranks.end(), v.rank) == ranks.end()) ranks.push_back(v.rank);
    }
    *sql = "(";
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      *sql += r ? " OR (rank = ? AND value IN (" : "(rank = ? AND value IN (";
      binds->push_back(static_cast<int64_t>(ranks[r]));
      bool first = true;
      for (const IndexValue& v : values) {
        if (v.rank != ranks[r]) continue;
        *sql += first ? "?" : ", ?";
        binds->push_back(v.value);
        first = false;
      }
      *sql += "))";
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

// A shared scope as one set of document ids: the owner's documents (from the scope index) and
// those whose sharing list holds one of the principals, from the list's field index when it is
// ready (the index of a top-level path holds each element of an array there, and a scalar
// itself: what in_scope reads), else from the documents' texts. SQLite builds the set once per
// statement, so a caller who sees 30 documents of 10,000 reads those 30.
std::string shared_ids(const Target& target, const UsableIndexes* indexed,
                       std::vector<Bind>* binds) {
  const store::Scope& scope = *target.scope;
  std::string principals = "(";
  for (std::size_t i = 0; i < scope.principals.size(); ++i) principals += i ? ", ?" : "?";
  principals += ")";
  const auto documents_of_collection = [&](std::string* arm) {
    *arm += "SELECT id FROM documents WHERE ns = ? AND coll = ?";
    binds->push_back(std::string(target.ns));
    binds->push_back(std::string(target.collection));
    if (target.state) {
      *arm += " AND state = ?";
      binds->push_back(static_cast<int64_t>(state_code(*target.state)));
    }
  };
  std::vector<std::string> arms;
  if (scope.owner) {
    std::string arm;
    documents_of_collection(&arm);
    arm += " AND owner = ?";
    binds->push_back(*scope.owner);
    arms.push_back(std::move(arm));
  }
  for (const std::string& list : scope.lists) {
    std::string arm;
    const UsableIndex* index = indexed ? find_index(*indexed, list) : nullptr;
    if (index != nullptr) {
      arm = "SELECT doc FROM field_index WHERE index_id = ?";
      binds->push_back(index->id);
      if (target.state) {
        arm += " AND state = ?";
        binds->push_back(static_cast<int64_t>(state_code(*target.state)));
      }
      arm += " AND rank = ? AND value IN " + principals;
      binds->push_back(static_cast<int64_t>(kRankString));
    } else {
      documents_of_collection(&arm);
      arm +=
          " AND EXISTS (SELECT 1 FROM json_each(documents.doc, ?) WHERE type = 'text' AND "
          "value IN " +
          principals + ")";
      binds->push_back("$.\"" + list + "\"");
    }
    binds->insert(binds->end(), scope.principals.begin(), scope.principals.end());
    arms.push_back(std::move(arm));
  }
  std::string ids;
  for (const std::string& arm : arms) ids += (ids.empty() ? "" : " UNION ALL ") + arm;
  return ids;
}

// The scope on `documents` rows. `plus` keeps the terms out of index selection (another
// condition drives); a shared scope's set drives unless `plus` says otherwise.
void add_scope(const Target& target, const std::string& plus, std::string* where,
               std::vector<Bind>* binds, const UsableIndexes* indexed = nullptr) {
  if (target.scope == nullptr || target.scope->every_document()) return;
  if (!target.scope->shares()) {
    *where += " AND " + plus + "owner = ?";
    binds->push_back(*target.scope->owner);
    return;
  }
  *where += " AND " + plus + "id IN (" + shared_ids(target, indexed, binds) + ")";
}

// The scope on `field_index` rows, whose owner column is the document's: one owner's scope
// there, and nothing for a shared scope, which only queries that also state add_scope on the
// documents read field_index for (build_filter's lookups).
void add_row_scope(const Target& target, std::string* where, std::vector<Bind>* binds) {
  if (target.scope != nullptr && target.scope->owner && !target.scope->shares()) {
    *where += " AND owner = ?";
    binds->push_back(*target.scope->owner);
  }
}

bool shared(const Target& target) { return target.scope != nullptr && target.scope->shares(); }

void add_index_values(const json& value, std::vector<IndexValue>* out) {
  if (auto form = index_form(value)) out->push_back(std::move(*form));
}

// `_key` conditions the key column decides exactly: equality with a string, a range from a
// string (paging by key: the unique key index walks from there; the column compares bytes,
// which is the reference's code point order), $in of strings.
bool key_predicate(const query::Condition& c, std::string* sql, std::vector<Bind>* binds) {
  if (c.path.text != "_key") return false;
  static constexpr std::pair<query::Op, const char*> kComparisons[] = {
      {query::Op::kEq, "key = ?"},
      {query::Op::kGt, "key > ?"},
      {query::Op::kGte, "key >= ?"},
      {query::Op::kLt, "key < ?"},
      {query::Op::kLte, "key <= ?"}};
  for (const auto& [op, predicate] : kComparisons) {
    if (c.op == op && c.value.is_string()) {
      *sql = predicate;
      binds->push_back(c.value.get<std::string>());
      return true;
    }
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

namespace {

// $ne or $nin as the $in whose rows exclude a document; false when the index cannot decide it
// (an operand of another type). Exact on any indexed path, multikey or not: the operators are
// the negations of equality and $in, which the rows decide for every element.
bool excluded_predicate(const query::Condition& c, std::string* sql, std::vector<Bind>* binds) {
  query::Condition held{c.path, query::Op::kIn, json::array()};
  if (c.op == query::Op::kNe) {
    held.value.push_back(c.value);
  } else if (c.op == query::Op::kNin && c.value.is_array() && !c.value.empty()) {
    held.value = c.value;
  } else {
    return false;
  }
  return index_predicate(held, sql, binds);
}

// Two index forms one row cannot both hold apart: the same type bracket and the same value,
// SQLite comparing an integer and a real by their values.
bool same_index_value(const IndexValue& a, const IndexValue& b) {
  if (a.rank != b.rank) return false;
  const auto number = [](const Bind& v) -> std::optional<long double> {
    if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<long double>(*i);
    if (const auto* d = std::get_if<double>(&v)) return static_cast<long double>(*d);
    return std::nullopt;
  };
  const auto x = number(a.value);
  const auto y = number(b.value);
  if (x && y) return *x == *y;
  return a.value == b.value;
}

// The operands of a $in in the index's forms, each once; empty when one has no form.
std::vector<IndexValue> distinct_operands(const query::Condition& c) {
  std::vector<IndexValue> out;
  if (!c.value.is_array()) return out;
  for (const json& operand : c.value) {
    auto form = index_form(operand);
    if (!form) return {};
    const bool seen = std::any_of(out.begin(), out.end(),
                                  [&](const IndexValue& v) { return same_index_value(v, *form); });
    if (!seen) out.push_back(std::move(*form));
  }
  return out;
}

// "Some row of this document in the index (bound first) meets `predicates`": one seek of
// field_index_entry. `document` names the outer query's document id.
std::string probe(const std::string& predicates, std::string_view document = "documents.id") {
  return "EXISTS (SELECT 1 FROM field_index WHERE doc = " + std::string(document) +
         " AND index_id = ? AND " + predicates + ")";
}

}  // namespace

const UsableIndex* find_index(const UsableIndexes& indexes, std::string_view path) {
  for (const UsableIndex& index : indexes) {
    if (index.path == path) return &index;
  }
  return nullptr;
}

SqlFilter build_filter(const Target& target, const query::Match& match,
                       const UsableIndexes& indexed, const UsableIndexes& plain,
                       const Drive& drive) {
  std::string keyed;  // conditions the key column decides: they drive the query when present
  std::vector<Bind> keyed_binds;
  std::string negated;  // $ne and $nin an index decides: one probe each
  std::vector<Bind> negated_binds;
  query::Match rest;  // conditions the scan tests on each candidate's text
  SqlFilter out;
  // One field_index lookup per condition, except that the conditions on a plain path share
  // one (a document has one row there, so "both hold for the row" is "both hold").
  for (const query::Condition& c : match) {
    std::string predicate;
    std::vector<Bind> predicate_binds;
    if (key_predicate(c, &predicate, &predicate_binds)) {
      keyed += " AND " + predicate;
      keyed_binds.insert(keyed_binds.end(), predicate_binds.begin(), predicate_binds.end());
      continue;
    }
    const UsableIndex* index = find_index(indexed, c.path.text);
    if (index && excluded_predicate(c, &predicate, &predicate_binds)) {
      negated += " AND NOT " + probe(predicate);
      negated_binds.push_back(index->id);
      negated_binds.insert(negated_binds.end(), predicate_binds.begin(), predicate_binds.end());
      out.index_paths.push_back(c.path.text);
      continue;
    }
    if (!index || !index_predicate(c, &predicate, &predicate_binds)) {
      rest.push_back(c);
      continue;
    }
    const bool shared = find_index(plain, c.path.text) != nullptr;
    auto it = std::find_if(out.lookups.begin(), out.lookups.end(),
                           [&](const Lookup& l) { return shared && l.path == c.path.text; });
    if (it == out.lookups.end()) {
      out.lookups.push_back(
          {c.path.text, index->id, predicate, std::move(predicate_binds), "", {}});
      out.index_paths.push_back(c.path.text);
      continue;
    }
    it->predicates += " AND " + predicate;
    it->predicate_binds.insert(it->predicate_binds.end(), predicate_binds.begin(),
                               predicate_binds.end());
  }
  // Each lookup's rows on their own (the candidates when it drives, and the planner's estimate).
  for (Lookup& lookup : out.lookups) {
    lookup.where = "index_id = ?";
    lookup.binds = {lookup.index_id};
    add_row_scope(target, &lookup.where, &lookup.binds);
    if (target.state) {
      lookup.where += " AND state = ?";
      lookup.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
    }
    lookup.where += " AND " + lookup.predicates;
    lookup.binds.insert(lookup.binds.end(), lookup.predicate_binds.begin(),
                        lookup.predicate_binds.end());
  }
  // The candidates come from the key column, or from the driving lookup, or (a walk, or no
  // lookup) from the scope index in date order. When an index drives, the scope terms must not
  // pick the scope index: walking every document of the user and testing each would cost the
  // size of the collection. A unary '+' keeps a term out of index selection.
  const bool lookup_drives = keyed.empty() && !drive.date_walk && drive.lookup < out.lookups.size();
  std::string selective = keyed;
  std::vector<Bind> selective_binds = keyed_binds;
  for (std::size_t i = 0; i < out.lookups.size(); ++i) {
    const Lookup& lookup = out.lookups[i];
    if (lookup_drives && i == drive.lookup) {
      selective += " AND id IN (SELECT doc FROM field_index WHERE " + lookup.where + ")";
      selective_binds.insert(selective_binds.end(), lookup.binds.begin(), lookup.binds.end());
      continue;
    }
    selective += " AND " + probe(lookup.predicates);
    selective_binds.push_back(lookup.index_id);
    selective_binds.insert(selective_binds.end(), lookup.predicate_binds.begin(),
                           lookup.predicate_binds.end());
  }
  // A shared scope's set of ids drives when nothing else does.
  const bool scope_drives = keyed.empty() && !lookup_drives && shared(target);
  const std::string plus = keyed.empty() && !lookup_drives && !scope_drives ? "" : "+";
  out.where = plus + "ns = ? AND " + plus + "coll = ?";
  out.binds = {std::string(target.ns), std::string(target.collection)};
  if (target.state) {
    out.where += " AND " + plus + "state = ?";
    out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  }
  add_scope(target, scope_drives ? "" : plus, &out.where, &out.binds, &indexed);
  if (shared(target)) {
    for (const std::string& list : target.scope->lists) {
      if (find_index(indexed, list) != nullptr) out.index_paths.push_back(list);
    }
  }
  if (drive.date_walk && drive.bound) {
    // A range of the scope index (row values compare as the index orders them).
    out.where += " AND (created, key) >= (?, ?)";
    out.binds.push_back(drive.bound->created);
    out.binds.push_back(drive.bound->key);
  }
  out.where += selective + negated;
  out.binds.insert(out.binds.end(), selective_binds.begin(), selective_binds.end());
  out.binds.insert(out.binds.end(), negated_binds.begin(), negated_binds.end());
  out.rest = std::move(rest);
  return out;
}

BoundQuery walk_bound_query(const Target& target, int64_t budget) {
  BoundQuery out;
  out.sql = "SELECT created, key FROM documents WHERE ns = ? AND coll = ?";
  out.binds = {std::string(target.ns), std::string(target.collection)};
  add_scope(target, "", &out.sql, &out.binds);
  if (target.state) {
    out.sql += " AND state = ?";
    out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  }
  out.sql += " ORDER BY created DESC, key DESC LIMIT 1 OFFSET ?";
  out.binds.push_back(std::max<int64_t>(budget - 1, 0));
  return out;
}

std::optional<IndexCount> index_count(const Target& target, const query::Match& match,
                                      const UsableIndexes& indexed) {
  if (match.empty() || !target.state || shared(target)) return std::nullopt;
  const std::string& path = match.front().path.text;
  const UsableIndex* index = find_index(indexed, path);
  if (index == nullptr) return std::nullopt;
  IndexCount out;
  out.where = "index_id = ?";
  out.binds = {index->id};
  add_row_scope(target, &out.where, &out.binds);
  out.where += " AND state = ?";
  out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  for (const query::Condition& c : match) {
    std::string predicate;
    if (c.path.text != path || !index_predicate(c, &predicate, &out.binds)) return std::nullopt;
    out.where += " AND " + predicate;
  }
  out.path = path;
  out.single_condition = match.size() == 1;
  return out;
}

std::optional<ExcludedCount> excluded_count(const Target& target, const query::Match& match,
                                            const UsableIndexes& plain) {
  if (match.empty() || !target.state || shared(target)) return std::nullopt;
  const std::string& path = match.front().path.text;
  const UsableIndex* index = find_index(plain, path);
  if (index == nullptr) return std::nullopt;
  // The operands every condition excludes, as one $in the index decides.
  query::Condition excluded{match.front().path, query::Op::kIn, json::array()};
  for (const query::Condition& c : match) {
    if (c.path.text != path) return std::nullopt;
    if (c.op == query::Op::kNe) {
      excluded.value.push_back(c.value);
    } else if (c.op == query::Op::kNin && c.value.is_array() && !c.value.empty()) {
      for (const json& operand : c.value) excluded.value.push_back(operand);
    } else {
      return std::nullopt;
    }
  }
  ExcludedCount out;
  out.excluded_where = "index_id = ?";
  out.excluded_binds = {index->id};
  add_row_scope(target, &out.excluded_where, &out.excluded_binds);
  out.excluded_where += " AND state = ?";
  out.excluded_binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  std::string predicate;
  if (!index_predicate(excluded, &predicate, &out.excluded_binds)) return std::nullopt;
  out.excluded_where += " AND " + predicate;
  out.path = path;
  return out;
}

std::optional<IndexSort> index_sort(const Target& target, const query::Match& match,
                                    const std::vector<query::SortKey>& sort,
                                    const UsableIndexes& indexed) {
  if (sort.size() != 1 || !target.state || shared(target)) return std::nullopt;
  const std::string& path = sort.front().path.text;
  const UsableIndex* sorted = find_index(indexed, path);
  if (path == "_key" || path == "_created_at" || sorted == nullptr) return std::nullopt;
  IndexSort out;
  out.where = "index_id = ?";
  out.binds = {sorted->id};
  add_row_scope(target, &out.where, &out.binds);
  out.where += " AND state = ?";
  out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  bool bounded = false;
  // The conditions an index decides on other paths (and $ne / $nin on any) are probed per row,
  // in both phases; the others are tested on the texts.
  std::string probes;
  std::string unvalued_probes;
  std::vector<Bind> probe_binds;
  for (const query::Condition& c : match) {
    std::string predicate;
    std::vector<Bind> predicate_binds;
    const UsableIndex* index = find_index(indexed, c.path.text);
    if (c.path.text == path && index_predicate(c, &predicate, &out.binds)) {
      out.where += " AND " + predicate;
      bounded = true;
      continue;
    }
    std::string negation;
    if (index && excluded_predicate(c, &predicate, &predicate_binds)) {
      negation = "NOT ";
    } else if (!index || c.path.text == path || !index_predicate(c, &predicate, &predicate_binds)) {
      out.rest.push_back(c);
      continue;
    }
    probes += " AND " + negation + probe(predicate, "walked.doc");
    unvalued_probes += " AND " + negation + probe(predicate);
    probe_binds.push_back(index->id);
    probe_binds.insert(probe_binds.end(), predicate_binds.begin(), predicate_binds.end());
  }
  out.probed = !probes.empty();
  out.where += probes;
  out.binds.insert(out.binds.end(), probe_binds.begin(), probe_binds.end());
  const std::string direction = sort.front().descending ? " DESC" : " ASC";
  out.order = "ORDER BY rank" + direction + ", value" + direction + ", key" + direction;
  out.path = path;
  out.descending = sort.front().descending;
  out.total_sql = "SELECT count(*) FROM field_index AS walked WHERE " + out.where;
  out.total_binds = out.binds;
  if (!bounded) {
    // The documents without a row there: the scope's, less those the index holds (one probe
    // of field_index_entry each, nothing materialized).
    out.unvalued_where = "ns = ? AND coll = ?";
    out.unvalued_binds = {std::string(target.ns), std::string(target.collection)};
    out.unvalued_where += " AND state = ?";
    out.unvalued_binds.push_back(static_cast<int64_t>(state_code(*target.state)));
    add_scope(target, "", &out.unvalued_where, &out.unvalued_binds);
    out.unvalued_where +=
        " AND NOT EXISTS (SELECT 1 FROM field_index WHERE doc = documents.id AND index_id = ?)";
    out.unvalued_binds.push_back(sorted->id);
    out.unvalued_where += unvalued_probes;
    out.unvalued_binds.insert(out.unvalued_binds.end(), probe_binds.begin(), probe_binds.end());
    out.unvalued_order = "ORDER BY key" + direction;
    const KeptCount every = kept_count(target);
    out.total_sql = every.sql;
    out.total_binds = every.binds;
  }
  return out;
}

std::optional<IndexOnly> index_only(const Target& target, const query::Match& match,
                                    const std::vector<query::SortKey>& sort,
                                    const UsableIndexes& indexed, const UsableIndexes& plain) {
  if (match.empty() || target.scope == nullptr || shared(target) || !target.state) {
    return std::nullopt;
  }
  const bool by_date =
      sort.empty() || (sort.size() == 1 && sort.front().path.text == "_created_at");
  const std::string& path = match.front().path.text;
  const UsableIndex* index = find_index(indexed, path);
  if (!by_date || index == nullptr) return std::nullopt;
  const bool one_equality = match.size() == 1 && match.front().op == query::Op::kEq;
  const bool is_plain = find_index(plain, path) != nullptr;
  if (!one_equality && !is_plain) return std::nullopt;
  IndexOnly out;
  // One owner's rows, or everyone's (field_index_any): each in date order within one value.
  out.where = "index_id = ?";
  out.binds = {index->id};
  add_row_scope(target, &out.where, &out.binds);
  out.where += " AND state = ?";
  out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  // The same rows without the one $in, for its arms.
  std::string common = out.where;
  std::vector<Bind> common_binds = out.binds;
  const query::Condition* merged = nullptr;
  for (const query::Condition& c : match) {
    std::string predicate;
    std::vector<Bind> predicate_binds;
    if (c.path.text != path || !index_predicate(c, &predicate, &predicate_binds)) {
      return std::nullopt;
    }
    out.where += " AND " + predicate;
    out.binds.insert(out.binds.end(), predicate_binds.begin(), predicate_binds.end());
    if (c.op == query::Op::kIn && merged == nullptr) {
      merged = &c;
      continue;
    }
    common += " AND " + predicate;
    common_binds.insert(common_binds.end(), predicate_binds.begin(), predicate_binds.end());
  }
  const bool descending = sort.empty() || sort.front().descending;
  out.order = descending ? "ORDER BY created DESC, key DESC" : "ORDER BY created ASC, key ASC";
  out.path = path;
  out.path_must_stay_plain = !one_equality;
  out.ordered = one_equality;
  const std::vector<IndexValue> operands =
      merged ? distinct_operands(*merged) : std::vector<IndexValue>{};
  const bool one_in = std::count_if(match.begin(), match.end(), [](const query::Condition& c) {
                        return c.op == query::Op::kIn;
                      }) == 1;
  if (one_in && !operands.empty() && operands.size() <= kMergedRangesMax) {
    for (const IndexValue& operand : operands) {
      std::vector<Bind> binds = common_binds;
      binds.push_back(static_cast<int64_t>(operand.rank));
      binds.push_back(operand.value);
      out.arms.push_back({common + " AND rank = ? AND value = ?", std::move(binds)});
    }
    out.ordered = true;
  }
  return out;
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
