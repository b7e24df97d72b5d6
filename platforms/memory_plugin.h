// MemoryPlugin: a third-party memory model bound from the command line (--memory-plugin LIB.so)
// behind every memory partition whose memory is "external" (mc.memory = external, or
// gpm.mc.memory on mcm_gpu; docs/tlm.md). The model speaks the TLM-2.0 approximately-timed base
// protocol; the partition's side is its AtInitiatorBridge (partition-local addresses, one L2 line
// or sector per transaction, byte enables on partial writes).
// A plugin is a shared library built against the same SystemC (the system's libsystemc-2.3.4.so,
// which the platform binaries use too, so both see one simulation kernel) that exports
//
//   extern "C" sc_core::sc_module* gpusc_memory_model(const char* name, unsigned partition,
//                                                      const char* args,
//                                                      tlm::tlm_initiator_socket<32>& socket);
//
// called once per external partition during elaboration, in platform order (partition = 0, 1,
// ...): it builds its model as a top-level module called `name`, binds `socket` to the model's
// target socket and returns the model. The platform owns it and deletes it after the run, before
// the library could go away (a library is never unloaded: the kernel keeps its modules' types).
// `args` is --memory-plugin-args as given ("" by default): the plugin's own settings.
// Choices: one library for every external partition (a platform with several memory kinds
// would need a per-partition option; none has one); a model per partition, not one shared model,
// as each partition owns its channel.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "gpu/platform.h"

namespace gpusc::cli {

using MemoryModelFn = sc_core::sc_module* (*)(const char* name, unsigned partition, const char* args,
                                              tlm::tlm_initiator_socket<32>& socket);
inline constexpr const char* kMemoryModelSymbol = "gpusc_memory_model";

class MemoryPlugin {
 public:
  // Loads the library; errors (gpusc::error from "gpusc.memory_plugin") name --memory-plugin.
  MemoryPlugin(const std::string& path, std::string args);
  MemoryPlugin(const MemoryPlugin&) = delete;
  MemoryPlugin& operator=(const MemoryPlugin&) = delete;
  ~MemoryPlugin();
  // Builds and binds a model behind every external partition of the platform's blocks. An error
  // when there is none (the option would do nothing) or when the library returns no module.
  void bind(Platform& platform);
  size_t models() const { return models_.size(); }

 private:
  std::string path_, args_;
  MemoryModelFn make_ = nullptr;
  std::vector<std::unique_ptr<sc_core::sc_module>> models_;
};

// Without a plugin: every external partition would stay unbound, which SystemC reports only at
// the end of elaboration and without saying what to do; this is that error, up front and clear.
void require_no_external_memory(Platform& platform);

}  // namespace gpusc::cli
