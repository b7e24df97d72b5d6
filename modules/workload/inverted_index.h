// InvertedIndex ("inverted-index"): Mars's InvertedIndex (He et al., PACT 2008; paper 002's
// M.II, one of its text-processing benchmarks): for every link URL in a set of HTML documents,
// the documents that link to it, as a Mars MapReduce job (mars_runtime.h) with Mars's MAP_GROUP
// workflow (the groups are the index; no reduce).
// Input: a deterministic generated HTML-like corpus (generated_html; Mars ships a few real pages
// as samples, which we may not download): documents of 2 to 8 KB, each "<html>", a head with a
// title, and a body of lines of 6 to 14 vocabulary words (string-match's vocabulary) in "<p>"
// paragraphs, where a word slot is, with probability 1/12, a link <a href="URL">two words</a>, with
// 1/40 an image <img src="images/picN.gif" alt="word">, with 1/60 an anchor <a name="word">; link
// URLs "http://www.site<S>.com/page<P>.html" drawn from `urls` distinct URLs with a web-like skew
// (index floor(urls u^2), u uniform), so popular pages are linked from many documents and groups
// have many members. Each document is its own 256-byte aligned buffer (Mars cudaMallocs every
// file; file_buf points at it).
// Map records (Mars's AddMapInputRecord): key II_KEY_T {file_buf, url_offset, url_hash} (16 B),
// value II_VAL_T {block_offset, block_size, file_id} (12 B); one line per map task
// (record_bytes = 0, the default; Mars's main.cu cuts 1 KB blocks at line ends: record_bytes =
// 1024). Map (and MapCount), thread t on record t, as Mars's map.cu: the load of the key and value
// fields, then its state machine, one loop iteration per byte j: load buf[j] and 2 ALU; in state
// IN_ATAG at an 'h', the "href" test loads buf[j .. j+x] up to the first mismatch (5 bytes for
// "href=") and, when it matches, skips 3 bytes; in START_LINK, the scan to the closing quote
// (byte loads), then (Map only) a NUL over the quote, url_offset stored into the record's key,
// hash_func over the URL (byte loads, 3 ALU each), url_hash stored, and EmitIntermediate of the
// key (16 B from the record) and file_id (4 B from the record's value); MapCount emits the count
// only. Group: Mars's sort_GPU with II's compare (hash, then the URLs byte by byte:
// mars_hashed_compare).
// Choices: as mars_runtime.h and mars_group.h; URLs up to 200 bytes (longer is an error: the
// fixed instruction window of the scan loops); lines of one document never span records.
// Default: 2 MiB of HTML (about 400 documents, 23k lines, 14k links to 8k URLs): footprint about
// 5.5 MiB.
// size=small: 16 KiB.
// Values (kernel.h): the documents, the records, every buffer as Mars writes it; host-computed.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/mars_runtime.h"

namespace gpusc {

// HTML documents totalling at least `bytes` bytes, as described above.
std::vector<std::string> generated_html(uint64_t bytes, unsigned urls, uint64_t seed);

class InvertedIndexWorkload : public MarsWorkload {
 public:
  struct Params {
    unsigned bytes = 2u << 20;   // corpus size [bytes] (rounded up to a whole document)
    unsigned urls = 16384;       // distinct link targets
    unsigned record_bytes = 0;   // map task size [bytes]: 0 = one line, else Mars's blocks cut at line ends
    static Params small() {
      Params p;
      p.bytes = 16u << 10;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes, 64, 1u << 28, "corpus size [bytes], rounded up to a whole document");
      GPUSC_PARAM_R(urls, 1, 1u << 24, "distinct link URLs (drawn with a web-like skew)");
      GPUSC_PARAM_R(record_bytes, 0, 1u << 20, "map task size [bytes]: 0 = one line per task, else Mars's blocks cut at line ends (its main.cu: 1024)");
    }
  };

  InvertedIndexWorkload(const Params& p, uint64_t seed);                           // the generated corpus
  InvertedIndexWorkload(const Params& p, const std::vector<std::string>& documents);  // given documents
  // Host result: for each URL, the documents linking to it (file ids).
  const std::map<std::string, std::set<uint32_t>>& index() const { return index_; }
  const MarsJob& job() const { return *job_; }
  struct App;

 private:
  std::shared_ptr<MarsJob> job_;
  std::map<std::string, std::set<uint32_t>> index_;
};

}  // namespace gpusc
