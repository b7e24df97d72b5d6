#include "platforms/memory_plugin.h"

#include <dlfcn.h>

#include <exception>

#include "common/report.h"

namespace gpusc::cli {

namespace {
constexpr const char* kWho = "gpusc.memory_plugin";

// "gpu.mc_3" -> "gpu_mc_3_memory": a top-level module name (no hierarchy separator).
std::string model_name(const std::string& partition) {
  std::string n = partition;
  for (char& c : n)
    if (c == '.') c = '_';
  return n + "_memory";
}
}  // namespace

MemoryPlugin::MemoryPlugin(const std::string& path, std::string args) : path_(path), args_(std::move(args)) {
  if (path_.empty()) error(kWho, "--memory-plugin needs a shared library, got an empty name");
  // A name without '/' would be searched on the library path; a plugin is a file the user names.
  const std::string file = path_.find('/') == std::string::npos ? "./" + path_ : path_;
  dlerror();
  void* lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) error(kWho, "--memory-plugin '", path_, "' cannot be loaded: ", dlerror());
  make_ = reinterpret_cast<MemoryModelFn>(dlsym(lib, kMemoryModelSymbol));
  if (!make_)
    error(kWho, "--memory-plugin '", path_, "' does not export ", kMemoryModelSymbol,
          " (extern \"C\" sc_core::sc_module* gpusc_memory_model(const char* name, unsigned partition, "
          "const char* args, tlm::tlm_initiator_socket<32>& socket); platforms/memory_plugin.h)");
}

MemoryPlugin::~MemoryPlugin() = default;

void MemoryPlugin::bind(Platform& platform) {
  unsigned index = 0;
  for (unsigned b = 0; b < platform.blocks(); ++b) {
    GpuBlock& block = platform.block(b);
    for (unsigned i = 0; i < block.params().mcs; ++i) {
      MemoryPartition& mc = block.mc(i);
      if (mc.params().memory != "external") continue;
      sc_core::sc_module* m = nullptr;
      try {
        m = make_(model_name(mc.name()).c_str(), index, args_.c_str(), mc.memory_socket());
      } catch (const sc_core::sc_report&) {
        throw;  // a gpusc error already says who
      } catch (const std::exception& e) {
        error(kWho, "--memory-plugin '", path_, "' failed to make the model for ", mc.name(), ": ", e.what());
      }
      if (!m) error(kWho, "--memory-plugin '", path_, "' returned no model for ", mc.name());
      models_.emplace_back(m);
      ++index;
    }
  }
  if (models_.empty())
    error(kWho, "--memory-plugin '", path_, "' given, but no memory partition has memory = \"external\"; set it "
          "(e.g. --set mc.memory=external)");
}

void require_no_external_memory(Platform& platform) {
  for (unsigned b = 0; b < platform.blocks(); ++b)
    for (unsigned i = 0; i < platform.block(b).params().mcs; ++i) {
      const MemoryPartition& mc = platform.block(b).mc(i);
      if (mc.params().memory == "external")
        error(kWho, mc.name(), ": memory = \"external\" leaves the memory side to a third-party model, and none "
              "is bound: give --memory-plugin LIB.so (platforms/memory_plugin.h, docs/tlm.md) or another memory");
    }
}

}  // namespace gpusc::cli
