// Plain text to and from Apertium's stream format, the format its programs read and write when
// no deformatter runs (the engine keeps no apertium-destxt in its pipes: it swallows the NUL that
// ends each message).
//
// In the stream, \ ^ $ / < > [ ] { } are markup, so they travel escaped with a backslash. A
// "superblank" [ ... ] is copied through untouched, so @ * # ~ travel inside one: the generator
// writes unknown words as *word, #word (no form to generate) and \@word (no bilingual entry) when
// it runs with marks on, and ~ is the post-generator's trigger. Keeping the user's own @ * # ~ in
// superblanks means any of them met outside one is a mark, which from_stream() counts and drops,
// so words the dictionaries lack pass through as they were written. Control characters other
// than tab travel in superblanks too, and NUL (the message end) is dropped.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace opbase::ai {

std::string to_stream(std::string_view text);

struct StreamText {
  std::string text;
  int unknown_marks = 0;  // marks dropped: words a dictionary did not know
};

// The plain text of Apertium's output: escapes resolved, superblanks opened, marks dropped.
StreamText from_stream(std::string_view stream);

}  // namespace opbase::ai
