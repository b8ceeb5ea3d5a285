// `kebab completions bash|zsh` (hidden): a shell completion script made from the command tree
// kebab parses its arguments with, so completion never drifts from the commands and flags. The
// build writes both scripts and `cmake --install` puts them where bash-completion and zsh look
// (cmake/Install.cmake).

#include <CLI/CLI.hpp>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"

namespace kebab::cli {
namespace {

struct Flag {
  std::string name;  // -q or --quiet
  std::string description;
  bool takes_value = false;
};

// A command of the tree: its words after `kebab` ("" for kebab itself, "list docs"), its
// subcommands and every flag it accepts.
struct Command {
  std::string path;
  std::vector<const CLI::App*> subcommands;
  std::vector<Flag> flags;
};

std::string FirstLine(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

// The subcommands a user can name: not the hidden ones (no group, like this command) nor option
// groups (no name).
std::vector<const CLI::App*> Subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* a) {
    return !a->get_name().empty() && !a->get_group().empty() && !a->get_disabled();
  });
}

// `app`'s visible flags and those of its option groups (nameless subcommands holding options).
void AddOwnFlags(const CLI::App& app, std::set<std::string>* seen, std::vector<Flag>* flags) {
  for (const CLI::Option* o : app.get_options(
           [](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); })) {
    std::vector<std::string> names;
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (std::string& name : names) {
      if (seen->insert(name).second) {
        flags->push_back(
            {std::move(name), FirstLine(o->get_description()), o->get_items_expected_max() > 0});
      }
    }
  }
  for (const CLI::App* group :
       app.get_subcommands([](const CLI::App* a) { return a->get_name().empty(); })) {
    AddOwnFlags(*group, seen, flags);
  }
}

// The flags accepted at `app`: its own, then, where CLI11 hands what a subcommand does not know
// to its parent (fallthrough), its parents'.
std::vector<Flag> Flags(const CLI::App& app) {
  std::vector<Flag> flags;
  std::set<std::string> seen;
  for (const CLI::App* a = &app; a != nullptr;
       a = a->get_fallthrough() ? a->get_parent() : nullptr) {
    AddOwnFlags(*a, &seen, &flags);
  }
  return flags;
}

void Walk(const CLI::App& app, const std::string& path, std::vector<Command>* out) {
  out->push_back({path, Subcommands(app), Flags(app)});
  for (const CLI::App* sub : out->back().subcommands) {
    Walk(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
  }
}

// `s` in single quotes for bash and zsh.
std::string Quoted(std::string_view s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// A shell function printing, for the command path in $1, what `item` makes of each command;
// commands for which it makes nothing are left out (the function prints nothing for them).
template <typename Item>
std::string CaseFunction(const std::string& name, const std::vector<Command>& commands, Item item) {
  std::string out = name + "() {\n  case $1 in\n";
  for (const Command& c : commands) {
    const std::string body = item(c);
    if (!body.empty()) out += "    " + Quoted(c.path) + ") " + body + " ;;\n";
  }
  return out + "  esac\n}\n";
}

std::string Valued(const Command& c) {
  std::vector<std::string> names;
  for (const Flag& f : c.flags) {
    if (f.takes_value) names.push_back(f.name);
  }
  return names.empty() ? "" : "echo " + Quoted(Join(names));
}

constexpr const char* kBashDriver = R"sh(
# The command path is the subcommands named so far; an option's value is skipped (and is what
# readline completes by default, file names, when it is the word being completed).
_kebab() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd='' word skip=0 i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    # --option=VALUE arrives as three words when = is in COMP_WORDBREAKS.
    if [[ $word == '=' ]]; then
      skip=1
      continue
    fi
    if ((skip)); then
      skip=0
      continue
    fi
    case $word in
      -*=*) ;;
      -*) [[ " $(_kebab_valued "$cmd") " == *" $word "* ]] && skip=1 ;;
      *) [[ " $(_kebab_commands "$cmd") " == *" $word "* ]] && cmd=${cmd:+$cmd }$word ;;
    esac
  done
  ((skip)) && return 0
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_kebab_options "$cmd")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_kebab_commands "$cmd")" -- "$cur"))
  fi
}
complete -o default -F _kebab kebab
)sh";

std::string Bash(const std::vector<Command>& commands) {
  std::string out =
      "# bash completion for kebab. Made by `kebab completions bash` from kebab's own commands "
      "and\n# flags; not to be edited.\n\n";
  out += CaseFunction("_kebab_commands", commands, [](const Command& c) {
    std::vector<std::string> names;
    for (const CLI::App* s : c.subcommands) names.push_back(s->get_name());
    return names.empty() ? std::string() : "echo " + Quoted(Join(names));
  });
  out += CaseFunction("_kebab_options", commands, [](const Command& c) {
    std::vector<std::string> names;
    for (const Flag& f : c.flags) names.push_back(f.name);
    return names.empty() ? std::string() : "echo " + Quoted(Join(names));
  });
  out += CaseFunction("_kebab_valued", commands, Valued);
  return out + kBashDriver;
}

// zsh's _describe takes NAME:DESCRIPTION, a colon in NAME escaped.
std::string Described(const std::string& name, const std::string& description) {
  std::string escaped;
  for (char c : name) escaped += c == ':' ? std::string("\\:") : std::string(1, c);
  return Quoted(description.empty() ? escaped : escaped + ":" + description);
}

constexpr const char* kZshDriver = R"sh(
# The command path is the subcommands named so far; an option's value is skipped, and completed
# as a file name when it is the word being completed.
_kebab() {
  local cmd='' word skip=0 i
  local -a items
  for ((i = 2; i < CURRENT; i++)); do
    word=${words[i]}
    if ((skip)); then
      skip=0
      continue
    fi
    case $word in
      -*=*) ;;
      -*) [[ " $(_kebab_valued "$cmd") " == *" $word "* ]] && skip=1 ;;
      *)
        items=(${${(f)"$(_kebab_commands "$cmd")"}%%:*})
        ((${items[(Ie)$word]})) && cmd=${cmd:+$cmd }$word
        ;;
    esac
  done
  if ((skip)); then
    _files
  elif [[ $PREFIX == -* ]]; then
    items=(${(f)"$(_kebab_options "$cmd")"})
    _describe -t options option items
  else
    items=(${(f)"$(_kebab_commands "$cmd")"})
    if ((${#items})); then
      _describe -t commands command items
    else
      _files
    fi
  fi
}

# Autoloaded from fpath this file is _kebab's body: it defines the functions, then completes.
if [[ $funcstack[1] == _kebab ]]; then
  _kebab "$@"
else
  compdef _kebab kebab
fi
)sh";

std::string Zsh(const std::vector<Command>& commands) {
  std::string out =
      "#compdef kebab\n# zsh completion for kebab. Made by `kebab completions zsh` from kebab's "
      "own commands and\n# flags; not to be edited.\n\n";
  out += CaseFunction("_kebab_commands", commands, [](const Command& c) {
    std::vector<std::string> items;
    for (const CLI::App* s : c.subcommands) {
      items.push_back(Described(s->get_name(), FirstLine(s->get_description())));
    }
    return items.empty() ? std::string() : "print -rl -- " + Join(items);
  });
  out += CaseFunction("_kebab_options", commands, [](const Command& c) {
    std::vector<std::string> items;
    for (const Flag& f : c.flags) items.push_back(Described(f.name, f.description));
    return items.empty() ? std::string() : "print -rl -- " + Join(items);
  });
  out += CaseFunction("_kebab_valued", commands, Valued);
  return out + kZshDriver;
}

}  // namespace

int RunCompletions(const CLI::App& app, const std::string& shell) {
  std::vector<Command> commands;
  Walk(app, "", &commands);
  const std::string script = shell == "zsh" ? Zsh(commands) : Bash(commands);
  std::fwrite(script.data(), 1, script.size(), stdout);
  return kExitOk;
}

}  // namespace kebab::cli
