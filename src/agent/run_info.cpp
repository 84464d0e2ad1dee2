#include "agent/run_info.h"

#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "common/version.h"

namespace dragnet::agent {

namespace {

// A system property of the JVM; empty if it has none.
std::string property(jvmtiEnv* jvmti, const char* key) {
  char* value = nullptr;
  if (jvmti->GetSystemProperty(key, &value) != JVMTI_ERROR_NONE || !value) return {};
  std::string s = value;
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
  return s;
}

// The first `limit` bytes of a file (all of a smaller one); empty if it cannot be read.
std::string fileText(const std::string& path, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// The Java version: java.version where the JVM has it among its own properties (the class
// library sets it later, in Java code), else JAVA_VERSION of the JDK's release file.
std::string javaVersion(jvmtiEnv* jvmti) {
  if (std::string v = property(jvmti, "java.version"); !v.empty()) return v;
  std::istringstream release(fileText(property(jvmti, "java.home") + "/release", 1 << 16));
  constexpr std::string_view kKey = "JAVA_VERSION=";
  for (std::string line; std::getline(release, line);) {
    if (!line.starts_with(kKey)) continue;
    std::string v = line.substr(kKey.size());
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return v;
  }
  return {};
}

std::string jarManifest(const std::string& jar) {
  constexpr zip_int64_t kLimit = 1 << 20;  // a manifest is small; a bigger one is not read
  int err = 0;
  zip_t* z = zip_open(jar.c_str(), ZIP_RDONLY, &err);
  if (!z) return {};
  std::string text;
  if (zip_file_t* f = zip_fopen(z, "META-INF/MANIFEST.MF", 0)) {
    char buf[4096];
    zip_int64_t n;
    while (static_cast<zip_int64_t>(text.size()) < kLimit &&
           (n = zip_fread(f, buf, sizeof buf)) > 0) {
      text.append(buf, static_cast<size_t>(n));
    }
    zip_fclose(f);
  }
  zip_discard(z);
  return text;
}

std::string utcNow() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms.count()));
  return buf;
}

bool plainWord(std::string_view arg) {
  if (arg.empty()) return false;
  for (char c : arg) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string shellLine(std::string_view nulSeparated) {
  std::string line;
  while (!nulSeparated.empty()) {
    size_t end = nulSeparated.find('\0');
    std::string_view arg = nulSeparated.substr(0, end);
    if (!line.empty()) line += ' ';
    if (plainWord(arg)) {
      line += arg;
    } else {
      line += '\'';
      for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
    if (end == std::string_view::npos) break;
    nulSeparated.remove_prefix(end + 1);
  }
  return line;
}

std::string manifestAttribute(std::string_view manifest, std::string_view attribute) {
  // Lines end in CR LF, LF or CR; a line starting with a space continues the previous one.
  std::string joined;
  for (size_t i = 0; i < manifest.size(); ++i) {
    char c = manifest[i];
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < manifest.size() && manifest[i + 1] == '\n') ++i;
      if (i + 1 < manifest.size() && manifest[i + 1] == ' ') {
        ++i;  // a continuation: the line break and the space vanish
        continue;
      }
      if (i + 1 < manifest.size() && (manifest[i + 1] == '\r' || manifest[i + 1] == '\n')) {
        break;  // a blank line ends the main section
      }
      joined += '\n';
      continue;
    }
    joined += c;
  }
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) {
    size_t colon = line.find(':');
    if (colon == std::string::npos || line.size() < colon + 2 || line[colon + 1] != ' ') continue;
    std::string_view name(line.data(), colon);
    bool same = name.size() == attribute.size() &&
                std::equal(name.begin(), name.end(), attribute.begin(), [](char a, char b) {
                  return std::tolower(static_cast<unsigned char>(a)) ==
                         std::tolower(static_cast<unsigned char>(b));
                });
    if (same) return line.substr(colon + 2);
  }
  return {};
}

std::string mainClassOf(std::string_view javaCommand, std::string_view classPath) {
  std::string_view first = javaCommand.substr(0, javaCommand.find(' '));
  // -jar: the launcher sets the class path to the jar alone.
  if (first.ends_with(".jar") || (!first.empty() && first == classPath)) {
    return manifestAttribute(jarManifest(std::string(first)), "Main-Class");
  }
  if (size_t slash = first.find('/'); slash != std::string_view::npos) {
    return std::string(first.substr(slash + 1));  // -m module/class
  }
  return std::string(first);
}

std::map<std::string, std::string> runMeta(jvmtiEnv* jvmti) {
  std::map<std::string, std::string> meta;
  auto put = [&](const char* key, std::string value) {
    if (!value.empty()) meta[key] = std::move(value);
  };
  put("command.line", shellLine(fileText("/proc/self/cmdline", 1 << 20)));
  put("main", mainClassOf(property(jvmti, "sun.java.command"), property(jvmti, "java.class.path")));
  for (const char* key : {"java.vm.name", "java.vm.vendor", "java.vm.version"}) {
    put(key, property(jvmti, key));
  }
  put("java.version", javaVersion(jvmti));
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) put("host", host);
  put("start", utcNow());
  put("dragnet.version", std::string(kVersion));
  return meta;
}

std::map<std::string, std::string> durationMeta(std::chrono::steady_clock::time_point start) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start);
  return {{"duration.ms", std::to_string(ms.count())}};
}

}  // namespace dragnet::agent
