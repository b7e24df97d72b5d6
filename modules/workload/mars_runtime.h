// MarsRuntime: the device side of one MapReduce job of Mars (He et al., "Mars: a MapReduce
// framework on graphics processors", PACT 2008), the runtime of paper 002's text-processing
// benchmarks (M.WC, M.II, M.PVC, ...). An application (MarsApp) gives its map function (and
// compare, and reduce) per thread; the runtime lays out the arrays and launches Mars's kernels
// with the instruction and address stream of every thread, computed on the host from the real
// data (kernel.h: lazy, order-independent, deterministic; stores carry their values).
// Workflow (Mars's startMap / startGroup / startReduce, 256-thread CTAs, one record per thread):
//   map:    MapCount (thread t runs map_count on record t; each EmitInterCount is a read-modify-
//           write of the thread's three size counters), three prefix sums (mars_scan.h) of key
//           sizes, value sizes and counts, then Map (each EmitIntermediate copies the key and the
//           value into the intermediate buffers at the prefix-sum offsets and writes the record's
//           int4 index entry: key offset, key size, value offset, value size);
//   group:  (MapGroup, MapReduce) Mars's sort_GPU (mars_group.h): bitonic sort of the index by
//           the app's compare, the values and keys scattered into sorted order, group boundaries;
//   reduce: (MapReduce) ReduceCount (thread per group), three prefix sums, Reduce.
// Instruction streams per thread follow Mars's code (MarsLib.cu): the prologue of Mapper (its
// index-entry set-up), EmitInterCount, EmitIntermediate (a __syncthreads, the per-thread offsets,
// byte-by-byte copy loops, the index entry from the previous one), with the choices below.
// Choices (Mars's code is ambiguous, racy or out of bounds there, or our model needs words):
//   * stores are 4-byte words (the SM model's store path carries words): a byte-by-byte copy is
//     its byte loads plus one word store per 4 bytes, so apps pad keys and values with NULs to
//     4-byte multiples (emitted sizes are multiples of 4; an error otherwise); an int4 store is
//     its four 4-byte fields (Mars's Reduce writes them field by field too);
//   * Mapper's prologue (load the thread's first index entry, set its offsets, store it) runs only
//     for threads that emit: Mars does it for every thread, so a thread with no output rewrites the
//     next thread's first entry (a race) or writes past the array's end;
//   * EmitIntermediate loads the previous index entry only when there is one (Mars reads entry -1
//     for thread 0's first emit);
//   * Reduce's Emit issues EmitIntermediate's sequence into the output buffers;
//   * cudaMemset, cudaMemcpy (host or device to device) are not simulated: their results are the
//     arrays' initial contents; every buffer is its own array (Mars frees and reallocates);
//   * each emit reserves a fixed window of instruction positions (keys up to kMaxKey bytes,
//     values up to kMaxVal), so lanes that emit at once share instructions.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workload/mars_scan.h"

namespace gpusc {

struct MarsInt4 {
  int32_t x = 0, y = 0, z = 0, w = 0;
  uint32_t field(unsigned i) const { return static_cast<uint32_t>(i == 0 ? x : i == 1 ? y : i == 2 ? z : w); }
};

// A map input as Mars's AddMapInputRecord builds it: key and value bytes, and per record its
// index entry (key offset, key size, value offset, value size).
struct MarsInput {
  std::vector<uint8_t> keys, vals;
  std::vector<MarsInt4> index;
  void add(const std::vector<uint8_t>& key, const std::vector<uint8_t>& val);
};

struct MarsPair {
  std::vector<uint8_t> key, val;  // sizes are multiples of 4
};

enum class MarsWorkflow { MapOnly, MapGroup, MapReduce };

class MarsJob;

// The thread context an app's map (or reduce) program emits through.
class MarsThread {
 public:
  MarsThread(std::shared_ptr<const MarsJob> job, uint64_t tid, bool reduce) : job_(std::move(job)), tid_(tid), reduce_(reduce) {}
  uint64_t tid() const { return tid_; }
  uint32_t record() const { return static_cast<uint32_t>(tid_); }  // map: record = thread
  const MarsJob& job() const { return *job_; }
  uint64_t key_addr() const;  // map: this record's input key; reduce: the group's first key
  uint64_t val_addr() const;  // map: its input value; reduce: the group's first value
  // Instruction positions an emit takes in an iteration (the same for every thread).
  static constexpr uint32_t kCountWindow = 9;
  static constexpr uint32_t kEmitWindow = 1024;
  static constexpr unsigned kMaxKey = 128, kMaxVal = 64;  // [bytes]
  // MapCount: EmitInterCount(key size, value size) of the thread's next pair (ops at the next
  // kCountWindow orders).
  void emit_count(OpList& o);
  // Map / Reduce: EmitIntermediate of the thread's next pair: key copied from key_src (global
  // memory) or from shared memory (key_shared), likewise the value (kEmitWindow orders).
  void emit(OpList& o, uint64_t key_src, bool key_shared, uint64_t val_src, bool val_shared);
  void skip_count(OpList& o) const { o.skip(kCountWindow); }
  void skip_emit(OpList& o) const { o.skip(kEmitWindow); }
  unsigned emitted() const { return k_; }

 private:
  std::shared_ptr<const MarsJob> job_;
  uint64_t tid_;
  bool reduce_;
  unsigned k_ = 0;  // pairs emitted so far
};

// A Mars application: its map (and compare, and reduce) on the host and per thread on the device.
class MarsApp {
 public:
  virtual ~MarsApp() = default;
  // Host: the pairs record r's map function emits, in order.
  virtual void map_emits(const MarsJob& job, uint32_t r, std::vector<MarsPair>& out) const = 0;
  // Device: map_count (count) or map of thread t's record, after the runtime's prologue; loop ids
  // from 1; every emit through t.
  virtual std::unique_ptr<LaneProgram> map_program(MarsThread t, bool count) const = 0;
  // Host: Mars's compare(key a, key b) (negative, 0, positive); needed by the group stage.
  virtual int compare(const uint8_t* a, const uint8_t* b) const;
  // Device: compare(a, b) of the keys at addresses a and b (whose bytes are given), loop ids from
  // first_loop.
  virtual std::unique_ptr<LaneProgram> compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                                       uint32_t first_loop) const;
  // Host: reduce of one group (its pairs in sorted order); device: the reduce of thread t's group.
  virtual void reduce_emits(const std::vector<MarsPair>& group, std::vector<MarsPair>& out) const;
  virtual std::unique_ptr<LaneProgram> reduce_program(MarsThread t, bool count) const;
};

struct MarsGroupResult;  // mars_group.h

class MarsJob : public std::enable_shared_from_this<MarsJob> {
 public:
  // Lays out the job's arrays in `space` (names prefix + "."), computes every result on the host
  // and appends the launches (named kernel_prefix + "." + Mars's kernel name) to `launches`.
  static std::shared_ptr<MarsJob> make(AddressSpace& space, const std::string& prefix, const std::string& kernel_prefix,
                                       std::shared_ptr<const MarsApp> app, MarsInput input, MarsWorkflow wf,
                                       std::vector<MarsLaunch>& launches);
  ~MarsJob();

  const MarsApp& app() const { return *app_; }
  uint32_t records() const { return static_cast<uint32_t>(in_.index.size()); }
  const MarsInput& input() const { return in_; }
  // Intermediate pairs (Map's output, thread order) and their index.
  const std::vector<MarsPair>& intermediate() const { return inter_; }
  const std::vector<MarsInt4>& inter_index() const { return inter_index_; }
  // Group stage: the pairs in sorted order, and per group [first, end) into them.
  const std::vector<MarsPair>& sorted() const;
  const std::vector<std::pair<uint32_t, uint32_t>>& groups() const;
  // Reduce output (MapReduce), thread order.
  const std::vector<MarsPair>& output() const { return out_; }
  // Array bases of one side of the job (map or reduce), in the order Mars allocates them.
  struct SideArrays {
    uint64_t key_size = 0, val_size = 0, count = 0;  // per-task counters (MapCount / ReduceCount)
    uint64_t ps_key = 0, ps_val = 0, ps_count = 0;   // their prefix sums
    uint64_t keys = 0, vals = 0, index = 0;          // the emitted pairs (int4 index)
    uint64_t kv_offsets = 0, cur_index = 0;          // Map's running offsets (int2) and count
  };
  struct Arrays {
    uint64_t in_keys = 0, in_vals = 0, in_index = 0;
    SideArrays map, reduce;   // the intermediate (inter_*) and the output (output_*) arrays
    uint64_t key_ranges = 0;  // reduce input: per group [first, end) (int2)
  };
  const Arrays& arrays() const { return a_; }
  uint64_t map_threads() const { return map_threads_; }

 private:
  friend class MarsThread;
  MarsJob(std::shared_ptr<const MarsApp> app, MarsInput in);
  void plan(AddressSpace& space, const std::string& prefix, const std::string& kp, MarsWorkflow wf,
            std::vector<MarsLaunch>& launches);
  void plan_reduce(AddressSpace& space, const std::string& prefix, const std::string& kp,
                   std::vector<MarsLaunch>& launches);

  // The thread's view for emits (map or reduce side).
  struct Side {
    std::vector<uint32_t> ps_key, ps_val, ps_count, count;  // per thread
    const std::vector<MarsPair>* pairs = nullptr;            // emitted pairs, thread order
    const std::vector<MarsInt4>* index = nullptr;
    SideArrays a;
  };
  const Side& side(bool reduce) const { return reduce ? rside_ : mside_; }

  std::shared_ptr<const MarsApp> app_;
  MarsInput in_;
  Arrays a_;
  uint64_t map_threads_ = 0;
  std::vector<MarsPair> inter_, out_;
  std::vector<MarsInt4> inter_index_, out_index_;
  std::vector<uint32_t> thread_first_pair_;  // map: first intermediate pair of each thread (= ps_count)
  std::unique_ptr<MarsGroupResult> group_;
  Side mside_, rside_;
};

// Pcs of the runtime's own code (apps use 0x1000 .. 0xbfff).
namespace mars_pc {
constexpr uint32_t kMapPrologue = 0xc000, kEmitCount = 0xc100, kEmit = 0xc200, kReducePrologue = 0xc800;
}  // namespace mars_pc

// Helpers for apps.
// Bytes of a 4-byte little-endian word at p (zero past n).
uint32_t mars_word(const uint8_t* p, size_t n, size_t at);
// The bytes padded with NULs to a multiple of 4.
std::vector<uint8_t> mars_pad(std::vector<uint8_t> v);
// Mars's hash_func(str, len): hash = len; hash = (hash << 4) ^ (hash >> 28) ^ str[i] (int arithmetic).
int32_t mars_hash(const uint8_t* s, uint32_t len);

// Mars's compare for the keys {char* buf; int offset; int hash} of InvertedIndex and PageViewCount
// (their compare.cu): by hash, then (equal hashes) the NUL-terminated strings at buf + offset,
// which live in `text` (device address `text_base`). Host result:
int mars_hashed_compare(const uint8_t* ka, const uint8_t* kb, const std::vector<uint8_t>& text, uint64_t text_base);
// The thread's program: both hashes (4-byte loads), and for equal hashes both keys' buf and offset
// (8 and 4 bytes) and the strings byte by byte (2 byte loads and 4 ALU per character up to the
// first difference or NUL).
std::unique_ptr<LaneProgram> mars_hashed_compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                                         std::shared_ptr<const std::vector<uint8_t>> text,
                                                         uint64_t text_base, uint32_t first_loop);
// Key struct fields.
uint64_t mars_key_buf(const uint8_t* k);
uint32_t mars_key_offset(const uint8_t* k);
std::vector<uint8_t> mars_key(uint64_t buf, uint32_t offset, int32_t hash);

}  // namespace gpusc
