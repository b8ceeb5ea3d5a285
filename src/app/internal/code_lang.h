// The programming-language names a user may type for a filter, mapped to the names code
// documents carry. Pure function; no state.
#ifndef KEBAB_APP_INTERNAL_CODE_LANG_H_
#define KEBAB_APP_INTERNAL_CODE_LANG_H_

#include <optional>
#include <string>
#include <string_view>

namespace kebab::app::internal {

// The language name code documents carry (parse's, lowercase) for what a user types: the
// name itself in any case, or a common short form (rs, py, c++, ...). Anything else made of
// name characters passes through lowercased, since plain-text sources are named by their
// extension's language; nullopt for what cannot be a name.
std::optional<std::string> CanonicalCodeLanguage(std::string_view name);

}  // namespace kebab::app::internal

#endif  // KEBAB_APP_INTERNAL_CODE_LANG_H_
