#include "jobs/cli/arguments.hpp"

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"

namespace vibro::cli {

namespace {

// A sweep key has a section ("run.tol") or is the model; own options never hold a dot.
bool is_sweep_key(const std::string& name) { return name.find('.') != std::string::npos || name == "model"; }

std::string accepted_list(const CommandGrammar& grammar) {
  std::string list;
  for (const auto& o : grammar.options) list += (list.empty() ? "" : ", ") + o.name + (o.takes_value ? " VALUE" : "");
  if (grammar.overrides) list += (list.empty() ? "" : ", ") + std::string("--section.key=VALUE (a sweep-file key)");
  return (list.empty() ? "" : list + ", ") + "--help";
}

}  // namespace

std::string next_value(const std::string& option, const std::vector<std::string>& args, std::size_t& i,
                       const std::string& who) {
  if (i + 1 == args.size()) throw InputError(echoed(option) + " needs a value (" + who + ")");
  const std::string& next = args[i + 1];
  if (next.rfind("--", 0) == 0)
    throw InputError(echoed(option) + " needs a value; got the option '" + echoed(next) + "' (" + who +
                     "); a value that starts with -- is written " + echoed(option) + "=VALUE");
  return args[++i];
}

std::vector<std::string> take_plugin_options(std::vector<std::string>& args) {
  std::vector<std::string> files, rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--plugin") files.push_back(next_value("--plugin", args, i, "vibro"));
    else if (args[i].rfind("--plugin=", 0) == 0) files.push_back(args[i].substr(9));
    else rest.push_back(args[i]);
  }
  args = rest;
  return files;
}

CommandLine parse_command_line(const CommandGrammar& grammar, const std::vector<std::string>& args) {
  CommandLine line;
  const std::string who = "vibro " + grammar.command;
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      line.help = true;
      return line;  // wherever it stands, the rest does not matter: the usage is all that is printed
    }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // "-" alone (standard input, as some tools read it) and "--" are arguments, not options.
    const bool option = a.size() > 1 && a[0] == '-' && a != "--";
    if (!option) {
      if (line.positional.size() == grammar.max_positional) {
        if (grammar.pass_unknown) {
          line.passed_on.push_back(a);
          continue;
        }
        throw InputError(who + " takes " + (grammar.max_positional == 1 ? "one argument" : "no argument") + "; got " +
                         (line.positional.empty() ? "" : "'" + echoed(line.positional.front()) + "' and ") + "'" +
                         echoed(a) + "'");
      }
      line.positional.push_back(a);
      continue;
    }
    const auto equals = a.find('=');
    const std::string name = a.substr(0, equals);
    const bool inline_value = equals != std::string::npos;
    // The value after '=' or, for an option that takes one, the next argument.
    auto value = [&]() -> std::string { return inline_value ? a.substr(equals + 1) : next_value(name, args, i, who); };
    const OptionSpec* own = nullptr;
    for (const auto& o : grammar.options)
      if (o.name == name) own = &o;
    if (own) {
      if (!own->takes_value && inline_value)
        throw InputError(name + " takes no value; got '" + echoed(a) + "' (" + who + ")");
      const std::string given = own->takes_value ? value() : "true";
      if (line.has(name) && !own->repeatable)
        throw InputError(name + " is given twice" +
                         (own->takes_value ? " ('" + echoed(line.options[name]) + "' and '" + echoed(given) + "')" : "") +
                         "; give it once (" + who + ")");
      line.options[name] = given;
      line.given.emplace_back(name, given);
    } else if (grammar.overrides && name[1] == '-' && is_sweep_key(name.substr(2))) {
      line.overrides.push_back(name + "=" + value());  // the key itself is checked against the model's keys
    } else if (grammar.pass_unknown) {
      line.passed_on.push_back(a);
    } else {
      std::vector<std::string> names;
      for (const auto& o : grammar.options) names.push_back(o.name);
      names.push_back("--help");
      throw InputError("unknown option '" + echoed(a) + "' for " + who + did_you_mean(name, names) +
                       "; accepted: " + accepted_list(grammar));
    }
  }
  return line;
}

}  // namespace vibro::cli
