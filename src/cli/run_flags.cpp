#include "run_flags.h"

#include "agent/options.h"

namespace dragnet::cli {

void addAgentFlags(CLI::App& cmd, AgentFlags& given) {
  options::Tables tables = agent::optionTables();
  for (const options::Table* t : tables) {
    for (const options::Spec& s : t->options) {
      if (s.flag.empty()) continue;
      std::string name(s.name);
      std::string help = options::describe(s, tables);
      // The old spellings (their long flags) work, hidden from the help.
      std::vector<std::string> flags{std::string(s.flag)};
      for (std::string_view alias : s.aliases) flags.push_back("--" + std::string(alias));
      for (size_t i = 0; i < flags.size(); ++i) {
        CLI::Option* o;
        if (s.kind == options::Kind::OnOff) {
          o = cmd.add_flag_callback(
              flags[i], [&given, name] { given[name] = "on"; }, help);
        } else {
          o = cmd.add_option_function<std::string>(
              flags[i], [&given, name](const std::string& v) { given[name] = v; }, help);
          o->type_name(options::placeholder(s, tables));
        }
        if (i > 0) {
          o->group("");
        } else if (!t->title.empty()) {
          o->group(std::string(t->title));
        }
      }
    }
  }
}

std::string agentOptionText(const AgentFlags& given, const std::string& out,
                            const std::string& more) {
  std::string text = out.empty() ? "" : "out=" + out;
  for (const auto& [name, value] : given) {
    if (name == "out") continue;
    text += (text.empty() ? "" : ",") + name + "=" + value;
  }
  if (!more.empty()) text += (text.empty() ? "" : ",") + more;
  return text;
}

}  // namespace dragnet::cli
