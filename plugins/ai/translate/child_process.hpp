// Starting and stopping the engine's child processes without a shell: posix_spawn with the
// standard streams the caller gives, stderr to /dev/null (Apertium's programs print warnings
// that nobody would read, and an unread pipe would stall them), no other descriptor inherited,
// default signal handling and an empty signal mask whatever the host set, and a small fixed
// environment (PATH and a UTF-8 locale). Text never goes on a command line.
//
// Thread-safety: plain functions; callable from any thread. Every child started here must be
// ended with stop_child() or collected with child_ended(), so none is left a zombie.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::ai {

// The environment of the engine's children: PATH = `search_path`, LC_ALL=C.UTF-8.
std::vector<std::string> child_environment(std::string_view search_path);

// The executable file `program` names: itself when it holds a '/', else the first match in the
// colon-separated `search_path`.
std::optional<std::string> find_program(std::string_view program, std::string_view search_path);

// Starts argv[0] (a path) with `stdin_fd` and `stdout_fd` as its standard input and output.
// The caller keeps and closes its own copies of those descriptors.
Result<pid_t> spawn_child(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd,
                          const std::vector<std::string>& environment);

// True when the child has ended (and is now collected); false while it runs. When it ended and
// `how` is given, *how says how ("exit status 1", "signal 9").
bool child_ended(pid_t pid, std::string* how = nullptr);

// Kills the child (SIGKILL) and collects it.
void stop_child(pid_t pid);

// Runs argv[0] to its end with no input and returns what it wrote, or a Status when it cannot
// start, fails, or runs longer than `timeout_ms`.
Result<std::string> run_for_output(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& environment, int timeout_ms);

// A descriptor numbered 3 or above, close-on-exec: `fd` itself or a duplicate (closing `fd`), so
// that the descriptors given to a child as 0 and 1 never collide with those numbers.
int above_standard_streams(int fd);

}  // namespace opbase::ai
