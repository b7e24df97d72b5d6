// PageViewCount ("page-view-count"): Mars's PageViewCount (He et al., PACT 2008; paper 002's
// M.PVC, one of its text-processing benchmarks): the number of distinct views of every page in a
// web log, as two Mars MapReduce jobs (mars_runtime.h), as Mars's main.cu runs them:
//   1. "dedup" (MAP_REDUCE): one record per log entry; map hashes the whole entry (hash_func over
//      its bytes and NUL), stores the hash into the record's key and emits (key, value) = the
//      record's own {file_buf, entry_offset, entry_hash} and {entry_size, phase}; the group stage
//      sorts by (hash, then the entry's bytes), so equal entries meet; reduce keeps one pair per
//      group (it stores phase = 1 into the group's first value and emits that pair);
//   2. "count" (MAP_GROUP) over the first job's output (copied back as the new input, as Mars does
//      through the host): map scans the URL up to its tab (writing NUL over it), then the IP up to
//      the next tab (NUL too), hashes the URL, stores the hash into the key and emits (key, the IP's
//      offset from shared memory); the group stage sorts by (URL hash, URL), and each group's size
//      is the page's number of distinct views.
// Input: a deterministic generated web log in the format of Mars's own generator (its
// GenWebLogSrc: "http://www.abcdefg.com/<page>.html\t<ip>\t<third field>\n" with the page uniform
// over 1024): pages uniform over `pages`; the IP one of `clients` fixed random addresses (a client
// population, so views repeat); the third field a Unix timestamp advancing one second every 8
// entries (the brief's "URL, IP, timestamp"; Mars's generator writes a random number below 1000);
// with probability `repeat` an entry is an exact copy of one of the 16 entries before it (a reload
// within the second), the duplicates the first job removes. Mars's host preprocessing turns each
// '\n' into NUL; entry_size counts the NUL.
// Compare (both jobs, Mars's compare.cu): load both keys' hashes (4 B each); only when they are
// equal, each key's file_buf and entry_offset, then a byte-by-byte compare of the two strings
// (2 byte loads and 4 ALU per character up to the first difference or NUL).
// Choices: as mars_runtime.h and mars_group.h (word stores, 4-byte padded keys: the PVC structs
// are 16 and 8 bytes already); a NUL store writes the aligned word holding the tab as it is after
// the second job's map; the third field is a timestamp.
// Default: 1 MiB of log (about 18k entries, 17k unique): footprint about 10 MiB (Mars's buffers of both jobs).
// size=small: 16 KiB of log.
// Values (kernel.h): the log, the records, every buffer as Mars writes it; host-computed.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "common/params.h"
#include "workload/mars_runtime.h"

namespace gpusc {

// A web log of at least `bytes` bytes (cut at the first line end past it), as described above.
std::string generated_web_log(uint64_t bytes, unsigned pages, unsigned clients, double repeat, uint64_t seed);

class PageViewCountWorkload : public MarsWorkload {
 public:
  struct Params {
    unsigned bytes = 1u << 20;  // log size [bytes] (rounded up to a whole entry)
    unsigned pages = 1024;      // distinct pages (Mars's generator: 1024)
    unsigned clients = 4096;    // distinct client IPs
    double repeat = 0.05;       // probability an entry repeats one of the 16 before it
    static Params small() {
      Params p;
      p.bytes = 16u << 10;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes, 64, 1u << 28, "log size [bytes], rounded up to a whole entry");
      GPUSC_PARAM_R(pages, 1, 1u << 24, "distinct pages in the log (Mars's generator: 1024)");
      GPUSC_PARAM_R(clients, 1, 1u << 24, "distinct client IP addresses in the log");
      GPUSC_PARAM_R(repeat, 0, 1, "probability that an entry repeats one of the 16 before it exactly");
    }
  };

  PageViewCountWorkload(const Params& p, uint64_t seed);           // the generated log
  PageViewCountWorkload(const Params& p, const std::string& log);  // a given log (generator params ignored)
  // Host results: distinct views per URL; the two jobs.
  const std::map<std::string, uint32_t>& views() const { return views_; }
  const MarsJob& dedup() const { return *dedup_; }
  const MarsJob& count() const { return *count_; }
  struct App;

 private:
  std::shared_ptr<MarsJob> dedup_, count_;
  std::map<std::string, uint32_t> views_;
};

}  // namespace gpusc
