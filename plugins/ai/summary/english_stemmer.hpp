// The English stemmer: Snowball's "english" algorithm from libstemmer (Debian libstemmer-dev),
// so "connections", "connected" and "connecting" count as one term. A libstemmer stemmer keeps
// its working buffer inside, so each thread gets its own, made on first use and freed when the
// thread ends.
//
// Thread-safety: callable from any thread; a returned view is valid until that thread's next
// call.
#pragma once

#include <string_view>

namespace opbase::ai {

// True when libstemmer knows the English algorithm (checked when the summarizer loads).
bool english_stemmer_available();

// The stem of a lowercase UTF-8 word ("running" -> "run"); the word itself when this thread
// has no stemmer (out of memory).
std::string_view stem_english(std::string_view word);

}  // namespace opbase::ai
