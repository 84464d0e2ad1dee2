#include "agent/load_guard.h"

#include <dlfcn.h>
#include <link.h>

#include <vector>

// The process-wide marker: every image of libdragnet.so exports it, and the one that runs
// points it at its description. A copy of the library under another path is a second image
// with a marker of its own, found below through the loaded objects (the JVM loads agents
// RTLD_LOCAL, so RTLD_DEFAULT would not see it).
extern "C" {
__attribute__((visibility("default"))) const char* dragnet_agent_loaded = nullptr;
}

namespace dragnet::agent {

namespace {

int collectName(dl_phdr_info* info, size_t, void* names) {
  if (info->dlpi_name && *info->dlpi_name) {
    static_cast<std::vector<std::string>*>(names)->push_back(info->dlpi_name);
  }
  return 0;
}

// The description another image of the agent published, if any.
std::optional<std::string> otherImage() {
  std::vector<std::string> names;
  dl_iterate_phdr(collectName, &names);  // no dlopen while it holds the loader's lock
  for (const std::string& name : names) {
    void* handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    auto* marker = static_cast<const char* const*>(dlsym(handle, "dragnet_agent_loaded"));
    std::optional<std::string> found;
    if (marker && marker != &dragnet_agent_loaded && *marker) found = *marker;
    dlclose(handle);
    if (found) return found;
  }
  return std::nullopt;
}

}  // namespace

std::string ownLibrary() {
  Dl_info info{};
  if (dladdr(&dragnet_agent_loaded, &info) && info.dli_fname) return info.dli_fname;
  return "libdragnet.so";
}

std::optional<std::string> claimProcess(const std::string& options) {
  // The same path loaded twice maps one image: Agent_OnLoad runs again in it.
  if (dragnet_agent_loaded) return std::string(dragnet_agent_loaded);
  if (std::optional<std::string> other = otherImage()) return other;
  // Agents load one after another on the thread creating the VM: no race here.
  dragnet_agent_loaded = (new std::string(ownLibrary() + "=" + options))->c_str();
  return std::nullopt;
}

}  // namespace dragnet::agent
