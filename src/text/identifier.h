// Identifiers as code and prose write them (parseConfig, ParseConfig, parse_config,
// HTTPServer): an ASCII run of letters and digits, possibly joined by underscores, whose words
// start at each underscore and each change of case. The analyzer (analyzer.h) indexes each
// word at its own position, so `parse config` finds all of them, and the whole identifier,
// lowercased and joined ("parseconfig"), at the position of its last word, so a query naming
// the identifier ranks it above text that only has its words. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace kebab::text {

struct IdentifierPart {
  size_t start = 0, end = 0;  // byte range in the text
};

// Appends the words of the ASCII run [start, end) split at changes of case: `parseConfig` →
// parse|Config, `HTTPServer` → HTTP|Server, `utf8Decode` → utf8|Decode; digits stay with what
// they follow, and after a capital they do not split (`H2O`, `MP3Player`).
void SplitAtCaseChanges(std::string_view text, size_t start, size_t end,
                        std::vector<IdentifierPart>* out);

// The identifier that starts at `start` with an ASCII letter or digit whose run of letters and
// digits ends at `word_end` (the analyzer's word end): its end, and its words in `*parts`
// (cleared first). An identifier continues over underscores into the next ASCII run, but not
// into a run that goes on with non-ASCII letters. One part means a plain word.
size_t ScanIdentifier(std::string_view text, size_t start, size_t word_end,
                      std::vector<IdentifierPart>* parts);

}  // namespace kebab::text
