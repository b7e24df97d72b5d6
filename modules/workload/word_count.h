// WordCount ("word-count"): Mars's WordCount (He et al., "Mars: a MapReduce framework on graphics
// processors", PACT 2008; paper 002's M.WC, one of its text-processing benchmarks): count the
// occurrences of every word of a text, as a Mars MapReduce job (mars_runtime.h) with Mars's
// MAP_GROUP workflow (no reduce: the group stage's group sizes are the counts).
// Input: the generated English-like text of string-match (generated_text: a 64-word vocabulary,
// skewed, 6 to 14 words a line, seeded), upper-cased on the host as Mars's main.cu does. Map
// records: one line per map task (record_bytes = 0, the default), or Mars's own split, blocks of
// record_bytes bytes extended to the end of the word, the byte after written NUL on the host
// (WordCount's main.cu: 2048). The record index (Mars's AddMapInputRecord): key = the text's
// device pointer (8 B), value = {line_offset, line_size} aligned to 16 B (WC_VAL_T).
// Map (and MapCount, which runs the same loop), thread t on record t, as Mars's map.cu: load the
// key and value fields, then one loop iteration per byte: load the byte (1-byte load), 2 ALU (the
// A-Z test, the counters); at the first non-letter after a word (or at the record's first byte if
// it is not a letter) the byte is overwritten with NUL (a store into the text), the word size
// (letters + NUL) is computed, and a word of at least min_length letters is emitted: MapCount's
// EmitInterCount, Map's EmitIntermediate with the word (from the text, global memory) as key and
// its size (from shared memory, GET_OUTPUT_BUF) as value; then the skip loop reads the next byte
// (unless the record has ended), which the letter loop reads again in the next iteration.
// Group: Mars's sort_GPU (mars_group.h) with WordCount's compare, a byte-by-byte strcmp of the two
// words (2 byte loads and 3 ALU per character up to the first difference or NUL).
// Choices: keys are padded to 4-byte multiples (mars_runtime.h): the key copy reads the word's
// size rounded up to 4 from the (tokenized) text, so a key's padding holds the next bytes of the
// text, which the NUL-terminated compare never reads; the text buffer has 4 NUL bytes of slack so
// the last word's copy stays inside it; a NUL store writes the aligned word holding the delimiter
// as it is once the whole text is tokenized (the other bytes of that word are already, or will
// be, the same: every thread writes only NULs); `group = false` stops after the map (Mars's
// MAP_ONLY workflow), for runs of the map phase alone.
// Default: 1 MiB of text (about 22k lines, 44k emitted words of 20 distinct ones): footprint
// 7.3 MiB, most of it Mars's intermediate and sort buffers. size=small: 16 KiB of text.
// Values (kernel.h): the text, the record index, every buffer as Mars writes it (NULs in the text,
// counters, prefix sums, keys, values, index entries, the sort's swaps, the scattered copies,
// boundaries); host-computed, so the memory image follows every store.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "common/params.h"
#include "workload/mars_runtime.h"

namespace gpusc {

class WordCountWorkload : public MarsWorkload {
 public:
  struct Params {
    unsigned bytes = 1u << 20;   // text size [bytes] (rounded up to a whole line)
    unsigned record_bytes = 0;   // map task size [bytes]: 0 = one line, else Mars's blocks
    unsigned min_length = 6;     // shortest word emitted [letters] (Mars: wsize > 6 with the NUL)
    bool group = true;           // run the group stage (Mars's MAP_GROUP); false: map only
    static Params small() {
      Params p;
      p.bytes = 16u << 10;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes, 64, 1u << 28, "text size [bytes], rounded up to a whole line");
      GPUSC_PARAM_R(record_bytes, 0, 1u << 20, "map task size [bytes]: 0 = one line per task, else Mars's blocks (its main.cu: 2048)");
      GPUSC_PARAM_R(min_length, 1, 100, "shortest word emitted [letters] (Mars's WordCount: 6)");
      GPUSC_PARAM(group, "run Mars's group stage (bitonic sort, scatter, boundaries); false: the map phase only");
    }
  };

  WordCountWorkload(const Params& p, uint64_t seed);            // the generated text
  WordCountWorkload(const Params& p, const std::string& text);  // a given text (p.bytes ignored)
  // Host results: occurrences of each emitted word (upper case), and the Mars job.
  const std::map<std::string, uint32_t>& counts() const { return counts_; }
  const MarsJob& job() const { return *job_; }
  struct App;

 private:
  std::shared_ptr<MarsJob> job_;
  std::map<std::string, uint32_t> counts_;
};

}  // namespace gpusc
