// The process_* series every Prometheus client library exports, so the standard dashboards and
// alerts work unchanged: CPU seconds, resident and virtual memory, open and allowed file
// descriptors, start time and threads. Read from /proc/self at scrape time.
//
// Thread-safety: any thread.
#pragma once

#include <string>

namespace opbase::host {

// The series in the Prometheus text format; a value /proc does not give is left out.
std::string process_metrics_text();

}  // namespace opbase::host
