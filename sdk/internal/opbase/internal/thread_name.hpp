// Names the calling thread, so `top -H`, `ps -L` and perf tell a daemon's threads apart
// ("sqlite-writer", "wh-feeder"...). Linux keeps 15 bytes of a name: longer ones are cut.
#pragma once

#include <string_view>

namespace opbase {

void name_this_thread(std::string_view name);

}  // namespace opbase
