// Language detection (CLD2) for documents.lang.
#pragma once

#include <string>
#include <string_view>

namespace kebab::parse {

// ISO 639-1 code of the dominant language of `text` ("en", "ko", "ja", "zh", ...), or "und"
// when the text is too short or CLD2 is unsure. Thread-safe.
std::string DetectLanguage(std::string_view text);

}  // namespace kebab::parse
