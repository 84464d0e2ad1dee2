// `dragnet run`'s flags for agent options: one for each option whose table gives it a flag
// (common/option_table.h: Spec::flag), and a hidden one for each old spelling of those.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

namespace dragnet::cli {

// Option name -> the value its flag gave ("on" for an on/off option's flag).
using AgentFlags = std::map<std::string, std::string>;

void addAgentFlags(CLI::App& cmd, AgentFlags& given);

// The agent's option text: out=`out` if not empty, each flag's option, then `more`
// (--agent-opts k=v,..., as given).
std::string agentOptionText(const AgentFlags& given, const std::string& out,
                            const std::string& more);

}  // namespace dragnet::cli
