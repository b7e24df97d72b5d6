// Helpers shared by the workload testbenches: drain streams, map addresses back to (array,
// element) through the workload's AddressSpace, check the stream invariants every kernel
// model must keep, and write temporary input files.
#pragma once
#include <cstdint>
#include <map>
#include <ostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "workload/kernel.h"

namespace gpusc::test {

using Stream = std::vector<WarpInstr>;

Stream drain(WarpStream& s);
// Every warp's stream of kernel k, in (cta, warp) order.
std::vector<Stream> drain_kernel(const Kernel& k);
// All launches of w.
std::vector<std::unique_ptr<Kernel>> all_kernels(Workload& w);

bool same_instr(const WarpInstr& a, const WarpInstr& b);  // active lanes' addresses only
bool same_stream(const Stream& a, const Stream& b);

// Per-element access counts of one kernel, by array name.
struct AccessCount {
  std::map<std::string, std::map<uint64_t, unsigned>> loads, stores, atomics;
  std::set<std::string> loaded() const;
  std::set<std::string> stored() const;
  std::set<std::string> atomic() const;
  unsigned load(const std::string& a, uint64_t i) const { return get(loads, a, i); }
  unsigned store(const std::string& a, uint64_t i) const { return get(stores, a, i); }
  unsigned atom(const std::string& a, uint64_t i) const { return get(atomics, a, i); }
  uint64_t total_loads(const std::string& a) const;

 private:
  static unsigned get(const std::map<std::string, std::map<uint64_t, unsigned>>& m, const std::string& a,
                      uint64_t i);
};

// Counts the accesses of every active lane of every memory instruction (element index =
// offset / access_bytes); REQUIREs that each address lies in an array and is aligned.
AccessCount count_accesses(const AddressSpace& space, const std::vector<Stream>& warps);
AccessCount count_accesses(const AddressSpace& space, const Kernel& k);

// The invariants of the WarpStream contract: lanes beyond threads_per_cta never active, no
// empty mask, Compute has compute_cycles > 0 and no access size, memory instructions have
// access_bytes in {1,2,4,8,16}, compute_cycles 0, aligned in-array addresses.
void check_invariants(const AddressSpace& space, const Kernel& k, const std::vector<Stream>& warps);

// Name of the array the first active lane of memory instruction w touches ("" for Compute).
std::string array_of(const AddressSpace& space, const WarpInstr& w);
// Memory instructions of a stream on array `name` with operation op.
Stream on_array(const AddressSpace& space, const Stream& s, const std::string& name, WarpInstr::Op op);

// Element index of a lane's address in the named array (REQUIREs it is in that array).
uint64_t element(const AddressSpace& space, const std::string& array, const WarpInstr& w, unsigned lane);

// One lane's memory access: operation, array and element (for per-lane program-order checks).
struct LaneAccess {
  WarpInstr::Op op;
  std::string array;
  uint64_t element;
  bool operator==(const LaneAccess& o) const { return op == o.op && array == o.array && element == o.element; }
};
std::ostream& operator<<(std::ostream& os, const LaneAccess& a);
// Lane `lane`'s memory accesses in a stream, in program order.
std::vector<LaneAccess> lane_accesses(const AddressSpace& space, const Stream& s, unsigned lane);

// A file with the given content under the temp directory, removed when this goes away.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gpusc::test
