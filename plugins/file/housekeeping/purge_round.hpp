// One round of the file plugin's background thread: FilePurge::run for each project, with what
// it did logged and counted (stale_uploads_purged_total) and a refusal logged, never thrown: the
// next round tries again.
#pragma once

#include <set>
#include <string>

#include "housekeeping/file_purge.hpp"
#include "opbase/host.hpp"

namespace opbase::file {

void purge_round(const Host& host, const FilePurge& purge,
                 const std::set<std::string, std::less<>>& projects);

}  // namespace opbase::file
