// A consistent copy of one project's database file, taken with SQLite's online backup API from
// any process while the daemon reads and writes the file. The copy is one snapshot: every page is
// copied in a single read transaction, so it holds each transaction committed before the copy
// began and none that committed after. In WAL mode the daemon's writers go on meanwhile; only
// its checkpoints wait for the copy to end. Thread-safety: one call per destination at a time.
#pragma once

#include <string>

#include "opbase/status.hpp"

namespace opbase::host::sqlite {

// Copies the database at `source` (which must exist) into a new file `destination` (which must
// not), then checks the copy with PRAGMA quick_check. The copy is a plain database file: no -wal
// beside it, every committed page in it. INTERNAL_ERROR naming the file on a failure.
Status snapshot_database(const std::string& source, const std::string& destination);

}  // namespace opbase::host::sqlite
