// The sqlite driver's scan (see sqlite_scan.hpp).
#include "store/sqlite/sqlite_scan.hpp"

#include <algorithm>
#include <limits>

#include "store/text_query.hpp"

namespace opbase::host::sqlite {
namespace {

using nlohmann::json;

// The ORDER BY of the columns that give `sort`'s order, or "" when the values must be sorted:
// `_created_at` and `_key` have columns (created keeps numbers and texts apart the way
// compare_values brackets them).
std::string columns_order(const std::vector<query::SortKey>& sort) {
  if (sort.empty()) return "ORDER BY created DESC, key DESC";
  if (sort.size() != 1) return "";
  const std::string direction = sort.front().descending ? " DESC" : " ASC";
  if (sort.front().path.text == "_created_at") {
    return "ORDER BY created" + direction + ", key" + direction;
  }
  if (sort.front().path.text == "_key") return "ORDER BY key" + direction;
  return "";
}

Result<std::unique_ptr<Statement>> select(Connection& db, const SqlFilter& filter,
                                          const std::string& order, bool paged = false) {
  auto stmt = db.prepare("SELECT id, key, doc FROM documents WHERE " + filter.where + " " + order +
                         (paged ? " LIMIT ? OFFSET ?" : ""));
  if (stmt) (*stmt)->bind_all(filter.binds);
  return stmt;
}

Result<int64_t> count_all(Connection& db, const SqlFilter& filter) {
  auto stmt = db.prepare("SELECT count(*) FROM documents WHERE " + filter.where);
  if (!stmt) return stmt.status();
  (*stmt)->bind_all(filter.binds);
  const int64_t count = (*stmt)->step() ? (*stmt)->int_at(0) : 0;
  if (!(*stmt)->status()) return (*stmt)->status();
  return count;
}

StoredRow copy_row(const Statement& stmt) {
  return {stmt.int_at(0), std::string(stmt.text_at(1)), std::string(stmt.text_at(2))};
}

// When SQL decides the whole match it pages by itself, and counts from the index alone; a page
// that is not full ends the matches, so then no count is needed.
Result<ScanAnswer> page_by_sql(Connection& db, const ScanRequest& request,
                               const std::string& order) {
  auto stmt = select(db, *request.filter, order, /*paged=*/true);
  if (!stmt) return stmt.status();
  Statement& rows = **stmt;
  const int first = static_cast<int>(request.filter->binds.size()) + 1;
  rows.bind(first, request.limit);
  rows.bind(first + 1, request.offset);
  ScanAnswer answer;
  while (rows.step()) answer.page.push_back(copy_row(rows));
  if (!rows.status()) return rows.status();
  answer.rows_read = static_cast<int64_t>(answer.page.size());
  answer.matched = request.offset + answer.rows_read;
  const bool page_full = request.limit >= 0 && answer.rows_read == request.limit;
  if (request.count_all && (page_full || (answer.page.empty() && request.offset > 0))) {
    auto counted = count_all(db, *request.filter);
    if (!counted) return counted.status();
    answer.matched = *counted;
  }
  return answer;
}

// Rows already in the answer's order: matches are counted and the page is cut as they come.
Result<ScanAnswer> scan_in_order(Connection& db, const ScanRequest& request, TextQuery& query,
                                 const std::string& order) {
  auto stmt = select(db, *request.filter, order);
  if (!stmt) return stmt.status();
  Statement& rows = **stmt;
  ScanAnswer answer;
  const int64_t page_end =
      request.limit < 0 ? std::numeric_limits<int64_t>::max() : request.offset + request.limit;
  while (rows.step()) {
    ++answer.rows_read;
    if (query.reads_documents() && !query.matches(rows.text_at(2))) continue;
    ++answer.matched;
    if (answer.matched > request.offset && answer.matched <= page_end) {
      answer.page.push_back(copy_row(rows));
    }
    if (answer.matched >= page_end && !request.count_all) break;
  }
  if (!rows.status()) return rows.status();
  return answer;
}

// A candidate kept for the page of a sort by values.
struct Ranked {
  std::vector<json> values;
  StoredRow row;
};

// Rows in any order, sorted by their values: the best `offset + limit` are kept in a heap whose
// top is the worst of them, so a row that does not beat it costs no copy.
Result<ScanAnswer> scan_sorted(Connection& db, const ScanRequest& request, TextQuery& query) {
  auto stmt = select(db, *request.filter, "");
  if (!stmt) return stmt.status();
  Statement& rows = **stmt;
  const std::vector<query::SortKey>& keys = request.sort;
  const bool keys_descending = keys.back().descending;
  // Whether (values, key) sorts before b.
  const auto before = [&](const std::vector<json>& values, std::string_view key, const Ranked& b) {
    const int order = compare_sort_values(values, b.values, keys);
    if (order != 0) return order < 0;
    return keys_descending ? key > b.row.key : key < b.row.key;
  };
  const auto heap_order = [&](const Ranked& a, const Ranked& b) {
    return before(a.values, a.row.key, b);
  };
  const auto kept = request.limit < 0 ? std::numeric_limits<std::size_t>::max()
                                      : static_cast<std::size_t>(request.offset + request.limit);
  std::vector<Ranked> best;
  ScanAnswer answer;
  while (rows.step()) {
    ++answer.rows_read;
    if (!query.matches(rows.text_at(2))) continue;
    ++answer.matched;
    if (kept == 0) continue;
    if (best.size() == kept) {
      if (!before(query.sort_values(), rows.text_at(1), best.front())) continue;
      std::pop_heap(best.begin(), best.end(), heap_order);
      best.pop_back();
    }
    best.push_back({query.sort_values(), copy_row(rows)});
    std::push_heap(best.begin(), best.end(), heap_order);
  }
  if (!rows.status()) return rows.status();
  std::sort_heap(best.begin(), best.end(), heap_order);
  for (std::size_t i = static_cast<std::size_t>(request.offset); i < best.size(); ++i) {
    answer.page.push_back(std::move(best[i].row));
  }
  return answer;
}

}  // namespace

Result<ScanAnswer> scan(Connection& db, const ScanRequest& request) {
  const std::string order =
      request.column_order.empty() ? columns_order(request.sort) : request.column_order;
  if (!order.empty()) {
    if (request.filter->rest.empty()) return page_by_sql(db, request, order);
    TextQuery query(request.filter->rest);
    return scan_in_order(db, request, query, order);
  }
  TextQuery query(request.filter->rest, request.sort);
  return scan_sorted(db, request, query);
}

namespace {

// Adds the rows `next` steps through to the answer in their order: each document read by
// `text_of` when the query needs it or it is on the page. False when the page is full (and
// no count of every match is wanted).
template <typename Next, typename TextOf>
Result<bool> take_in_order(Next&& next, TextOf&& text_of, TextQuery& query, int64_t offset,
                           int64_t page_end, bool count_all, ScanAnswer* answer) {
  int64_t id = 0;
  std::string key;
  while (true) {
    auto more = next(&id, &key);
    if (!more) return more.status();
    if (!*more) return true;
    const bool in_page = answer->matched >= offset && answer->matched < page_end;
    if (query.reads_documents() || in_page) {
      auto text = text_of(id);
      if (!text) return text.status();
      ++answer->rows_read;
      if (query.reads_documents() && !query.matches(*text)) continue;
      if (in_page) answer->page.push_back({id, key, std::move(*text)});
    }
    ++answer->matched;
    if (answer->matched >= page_end && !count_all) return false;
  }
}

}  // namespace

Result<ScanAnswer> scan_index_order(Connection& db, const IndexSort& plan, int64_t limit,
                                    int64_t offset, bool count_all, bool unvalued) {
  TextQuery query(plan.rest);
  // Without conditions to test, SQL counts the matches; the rows stop with the page.
  const bool sql_counts = count_all && !query.reads_documents();
  if (sql_counts) count_all = false;
  ScanAnswer answer;
  const int64_t page_end = limit < 0 ? std::numeric_limits<int64_t>::max() : offset + limit;
  const auto text_of = [&](int64_t id) -> Result<std::string> {
    auto doc = db.prepare("SELECT doc FROM documents WHERE id = ?");
    if (!doc) return doc.status();
    (*doc)->bind(1, id);
    if ((*doc)->step()) return std::string((*doc)->text_at(0));
    if (!(*doc)->status()) return (*doc)->status();
    return Status::internal("sqlite: the field index names a missing document");
  };
  // One phase: the rows of `sql`, whose first two columns are a document id and its key.
  const auto phase = [&](const std::string& sql, const std::vector<Bind>& binds) -> Result<bool> {
    auto rows = db.prepare(sql);
    if (!rows) return rows.status();
    (*rows)->bind_all(binds);
    const auto next = [&](int64_t* id, std::string* key) -> Result<bool> {
      if (!(*rows)->step()) {
        if (!(*rows)->status()) return (*rows)->status();
        return false;
      }
      *id = (*rows)->int_at(0);
      *key = std::string((*rows)->text_at(1));
      return true;
    };
    return take_in_order(next, text_of, query, offset, page_end, count_all, &answer);
  };
  const std::string valued =
      "SELECT doc, key FROM field_index AS walked WHERE " + plan.where + " " + plan.order;
  const std::string unvalued_rows = plan.unvalued_where.empty() || !unvalued
                                        ? ""
                                        : "SELECT id, key FROM documents WHERE " +
                                              plan.unvalued_where + " " + plan.unvalued_order;
  // Null sorts first: the documents without a value lead ascending and close descending.
  std::vector<std::pair<const std::string*, const std::vector<Bind>*>> phases;
  if (!unvalued_rows.empty() && !plan.descending) {
    phases.emplace_back(&unvalued_rows, &plan.unvalued_binds);
  }
  phases.emplace_back(&valued, &plan.binds);
  if (!unvalued_rows.empty() && plan.descending) {
    phases.emplace_back(&unvalued_rows, &plan.unvalued_binds);
  }
  for (const auto& [sql, binds] : phases) {
    auto go_on = phase(*sql, *binds);
    if (!go_on) return go_on.status();
    if (!*go_on) break;
  }
  const bool page_full = answer.matched >= page_end;
  if (sql_counts && (page_full || (answer.page.empty() && offset > 0))) {
    auto total = db.prepare(plan.total_sql);
    if (!total) return total.status();
    (*total)->bind_all(plan.total_binds);
    if (!(*total)->step() && !(*total)->status()) return (*total)->status();
    answer.matched = (*total)->int_at(0);
  }
  return answer;
}

}  // namespace opbase::host::sqlite
