#include "report/run_info.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/sql_db.h"

namespace dragnet::report {

namespace {

using Json = nlohmann::ordered_json;

Json metaText(const profile::Profile& p, const char* key) {
  auto it = p.meta.find(key);
  return it == p.meta.end() ? Json(nullptr) : Json(it->second);
}

std::string text(const Json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

// 1234 -> "1.234 s".
std::string seconds(uint64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu s", static_cast<unsigned long long>(ms / 1000),
                static_cast<unsigned long long>(ms % 1000));
  return buf;
}

}  // namespace

Json runJson(const profile::Profile& p) {
  Json duration = nullptr;
  if (auto it = p.meta.find("duration.ms"); it != p.meta.end()) {
    char* end = nullptr;
    unsigned long long ms = std::strtoull(it->second.c_str(), &end, 10);
    if (!it->second.empty() && *end == '\0') duration = ms;
  }
  return {{"commandLine", metaText(p, "command.line")},
          {"command", metaText(p, "command")},
          {"mainClass", metaText(p, "main")},
          {"jvm",
           {{"name", metaText(p, "java.vm.name")},
            {"vendor", metaText(p, "java.vm.vendor")},
            {"version", metaText(p, "java.vm.version")}}},
          {"javaVersion", metaText(p, "java.version")},
          {"host", metaText(p, "host")},
          {"start", metaText(p, "start")},
          {"durationMs", duration},
          {"dragnetVersion", metaText(p, "dragnet.version")}};
}

void writeRunLines(std::ostream& out, const Json& run, bool complete) {
  auto line = [&](const char* key, const std::string& value) {
    if (!value.empty())
      out << "  " << key << std::string(10 - std::string_view(key).size(), ' ') << value << "\n";
  };
  // The whole command line when the profile has it, else the main class and arguments.
  std::string command = text(run.at("commandLine"));
  line("command", command.empty() ? text(run.at("command")) : command);
  line("main", text(run.at("mainClass")));
  const Json& jvm = run.at("jvm");
  std::string vm = text(jvm.at("name"));
  if (std::string v = text(jvm.at("version")); !v.empty()) vm += (vm.empty() ? "" : " ") + v;
  if (std::string v = text(jvm.at("vendor")); !v.empty()) vm += " (" + v + ")";
  if (std::string v = text(run.at("javaVersion")); !v.empty()) {
    vm += (vm.empty() ? "Java " : ", Java ") + v;
  }
  line("jvm", vm);
  line("host", text(run.at("host")));
  std::string started = text(run.at("start"));
  if (const Json& d = run.at("durationMs"); d.is_number()) {
    started += (started.empty() ? "ran " : ", ran ") + seconds(d.get<uint64_t>()) +
               (complete ? "" : " up to its last flush");
  }
  line("started", started);
  line("dragnet", text(run.at("dragnetVersion")));
}

void writeMetaTables(sqlite3* db, const profile::Profile& p) {
  SqlTable meta(db, "meta", {"key TEXT PRIMARY KEY", "value TEXT"});
  for (const auto& [key, value] : p.meta) meta.text(key).text(value).row();
  SqlTable t(db, "run", {"key TEXT PRIMARY KEY", "value TEXT"});
  Json run = runJson(p);
  for (const auto& [key, value] : run.items()) {
    if (value.is_object()) {
      for (const auto& [k, v] : value.items()) {
        if (!v.is_null()) t.text(key + "." + k).text(text(v)).row();
      }
    } else if (value.is_string()) {
      t.text(key).text(value.get<std::string>()).row();
    } else if (value.is_number()) {
      t.text(key).text(std::to_string(value.get<uint64_t>())).row();
    }
  }
}

}  // namespace dragnet::report
