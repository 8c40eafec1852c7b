// One round of the file plugin's background purge (see purge_round.hpp).
#include "housekeeping/purge_round.hpp"

namespace opbase::file {

void purge_round(const Host& host, const FilePurge& purge,
                 const std::set<std::string, std::less<>>& projects) {
  for (const std::string& project : projects) {
    auto purged = purge.run(project, host.now_ms());
    if (!purged) {
      host.warn("file: purging project " + project + ": " + purged.status().message());
      continue;
    }
    host.count("stale_uploads_purged_total", static_cast<double>(purged->stale_uploads));
    if (!purged->removal_failure) {
      host.warn("file: project " + project + ": removing a deleted file's bytes: " +
                purged->removal_failure.message() + " (tried again next round)");
    }
    if (purged->stale_uploads > 0 || purged->deleted_files > 0) {
      host.info("file: project " + project + ": " + std::to_string(purged->stale_uploads) +
                " stale uploads dropped, " + std::to_string(purged->deleted_files) +
                " removals finished");
    }
  }
}

}  // namespace opbase::file
