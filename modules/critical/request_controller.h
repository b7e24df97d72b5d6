// RequestController: the request controller (RC) and windows manager (WM) of paper 002 §4.1
// (Figures 4.3-4.5), one per SM, attached to the SM's L1 through the Cache hooks of a sector
// fetch cache (mem/cache.h, fetch_granularity = sector): it decides, per L1 read miss, whether
// the fetch asks the whole line (a full-data request, FDR) or only the request's missing
// sectors (a partial one, PDR). No clock: it acts in the cache's lookup cycle.
//
// Windows manager. Each window keeps the last window_size events (a FIFO of bits):
//   * one ICA window per access size of 2..N sectors (64, 96, 128 B for 128 B lines): bit 1 =
//     an inconsistent access (ICA), 0 = consistent (CA);
//   * one FDR window: bit 1 = FDR (map 1111), 0 = PDR.
// Inputs: (a) a global read reply, from Cache::on_fill_complete: the MSHR's map and its
// consistency bit (set when a later request needed sectors outside the present or pending map,
// an SM); (b) an L1 eviction, from Cache::on_sector_evict: the line's map and its bit (set by an
// HI). Each input pushes FDR/PDR into the FDR window and, when its map has k >= 2 sectors, its
// bit into the k-sector ICA window (32 B is never ICA, 002 §2.2).
// Which map (window_maps): "critical" (default) = the sectors the requests needed (the MSHR's
// requests' 4-bitmaps, 002 §3.3.1 "its 4-bitmap is stored in the allocated entry"; for an
// eviction the sectors read while the line was cached); "fetched" = the sectors fetched through
// the MSHR / valid in the line. The thesis names "the 4-bitmap in an MSHR or a cache block"
// without saying whether a whole-line decision rewrites it. With fetched maps the FDR rule is
// absorbing: once more than fdr_threshold of the window is whole lines, every miss fetches the
// whole line, so every later reply and eviction is whole too and no miss is ever partial again
// (traced on spmv, dpc8x8+dfman: the 512 first misses are row_ptr reads asking every sector, the
// window fills with FDRs, and then all 436k misses fetch whole lines, rc.partial = 0). Critical
// maps measure the kernel's own requests, which the decision does not change.
// Request controller, per L1 read miss (Cache::set_fetch_map), in this order (Figure 4.5):
//   1. FDR ratio (FDR bits / events in the window) > fdr_threshold -> whole line;
//   2. an MSHR hit whose earlier requests lack the sectors (an SM miss) -> whole line;
//   3. ICA ratio of the matching window <= ica_threshold -> partial (the missing sectors),
//      else whole line.
// "Whole line" is every sector not already pending (the cache drops the pending ones).
// Choices the thesis leaves open:
//   * "every global read reply": with several fetches for one MSHR (SM), only the reply that
//     clears the MSHR's map pushes, with the MSHR's whole map ("only the last request is
//     considered", §4.1);
//   * matching window of a request of k sectors (ica_consult): "size" = the k-sector window,
//     the 2-sector (64 B) one for a 1-sector request (the smallest ICA size that can hold it);
//     "larger" = the windows of k + 1 .. N sectors pooled (bits over events), the ICA types a
//     fetch of k sectors turns into when a later request needs a sector outside it (a line
//     first read 32 B and then whole, string-match's, is a 128 B ICA, 002 §2.2); a request of
//     every sector fetches the whole line (Decision::FullRequest, after steps 1 and 2);
//   * a ratio over a window holding fewer than window_size events uses the events it holds;
//     an empty window has ratio 0 (nothing seen yet: partial, as a PDR-minded start);
//   * the ICA window an input feeds (ica_window): "map" = the size of its map (window_maps);
//     "first-request" = the window the request that allocated the MSHR (a reply) or installed
//     the line (an eviction) consulted, so a window holds the outcomes of the decisions it made
//     (was a fetch of that size followed by a request for sectors outside it?). The thesis keeps
//     one window "per access size" without saying whose size. With "map" an inconsistent line
//     lands in a window larger than the access that fetched it: string-match's 1-sector reads,
//     later widened by HI misses to 3-4 sectors, feed the 96 and 128 B windows and the 64 B
//     window the next 1-sector read consults stays consistent. "first-request" does not change
//     string-match either (its 64 B window also takes every FM and HI reply, consistent:
//     docs/validation/critical.md, departure 4). Writes do not feed the windows (the cache does
//     not report them).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>

#include "common/params.h"
#include "common/stats.h"
#include "mem/cache.h"

namespace gpusc {

class RequestController : public sc_core::sc_module {
 public:
  struct Params {
    unsigned window_size = 16;    // events kept per window [count] (002 Table 5.1: 8, 16, 32)
    double ica_threshold = 0.5;   // ICA ratio at or under which a miss fetches partially (25/50/75%)
    double fdr_threshold = 0.9;   // FDR ratio over which every miss fetches the line (30/60/90%)
    std::string window_maps = "critical";  // critical | fetched: the map a reply or eviction feeds in
    std::string ica_window = "map";        // map | first-request: the ICA window it feeds
    std::string ica_consult = "size";      // size | larger: the ICA window(s) a miss consults
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(window_maps, "critical|fetched",
                    "the map a reply or eviction feeds into the windows: critical = the sectors its requests "
                    "needed; fetched = the sectors fetched (reply) or valid (eviction); not in 002");
      GPUSC_PARAM_C(ica_window, "map|first-request",
                    "the ICA window a reply or eviction feeds: map = the window of its map's size; first-request = "
                    "the window its MSHR's (reply) or line's (eviction) first request consulted; not in 002");
      GPUSC_PARAM_C(ica_consult, "size|larger",
                    "the ICA window(s) a miss of k sectors consults: size = the k-sector one (the 2-sector one for "
                    "k = 1); larger = every window of more than k sectors, pooled (the ICA sizes a k-sector fetch can "
                    "grow into); not in 002");
      GPUSC_PARAM_R(window_size, 1, 4096, "events kept per window [count] (002 Table 5.1: 16; swept 8, 16, 32)");
      GPUSC_PARAM_R(ica_threshold, 0.0, 1.0,
                    "ICA ratio at or under which a miss fetches only its sectors [ratio] (002: 0.5; swept 0.25-0.75)");
      GPUSC_PARAM_R(fdr_threshold, 0.0, 1.0,
                    "FDR ratio over which every miss fetches the whole line [ratio] (002: 0.9; swept 0.3-0.9)");
    }
  };
  enum class Decision : uint8_t { FullFdr, FullSubsequent, FullIca, FullRequest, Partial };

  // sectors: sectors per line (4 for 128 B lines; 2..32).
  RequestController(sc_core::sc_module_name name, const Params& p, unsigned sectors = 4);
  RequestController(const RequestController&) = delete;
  RequestController& operator=(const RequestController&) = delete;

  // Sets cache's fetch-map policy and adds its fill-complete and sector-eviction observers. The
  // cache must fetch by sector (an error otherwise) and have this controller's sectors per line.
  void attach(Cache& cache);

  // Windows manager inputs (what attach() connects; public for tests).
  // first: the sectors of the request that allocated the MSHR (reply) or installed the line
  // (eviction); 0 = unknown (the map's window is used).
  void on_reply(uint32_t map, bool inconsistent, uint32_t first = 0) { record(map, inconsistent, first); }
  void on_evict(uint32_t map, bool inconsistent, uint32_t first = 0) { record(map, inconsistent, first); }
  // Request controller: the decision for a read miss needing `request` sectors, and the fetch
  // map it gives (missing, or every sector).
  Decision decide(uint32_t request, Cache::MissClass c) const;
  uint32_t fetch_map(uint32_t request, uint32_t missing, Cache::MissClass c);

  // Observers for tests.
  double fdr_ratio() const { return ratio(fdr_); }
  double ica_ratio(unsigned sectors) const;  // the window of `sectors` (2..N) sectors
  size_t fdr_events() const { return fdr_.size(); }
  size_t ica_events(unsigned sectors) const;
  const Params& params() const { return p_; }
  uint64_t partial_decisions() const { return partial_.value(); }
  uint64_t decisions() const {  // fetch maps chosen (every read miss the L1 asked about)
    return full_fdr_.value() + full_sm_.value() + full_ica_.value() + full_request_.value() + partial_.value();
  }

 private:
  void record(uint32_t map, bool inconsistent, uint32_t first);
  void push(std::deque<bool>& w, bool bit);
  double ratio(const std::deque<bool>& w) const;
  const std::deque<bool>& ica_window(unsigned sectors) const;
  // ica_ index of the window a request of k sectors consults (1 sector: the 2-sector one).
  static unsigned window_of(unsigned k) { return (k < 2 ? 2 : k) - 2; }

  const Params p_;
  const bool critical_maps_;   // window_maps == critical
  const bool first_window_;    // ica_window == first-request
  const bool consult_larger_;  // ica_consult == larger
  const unsigned sectors_;
  const uint32_t all_;
  std::deque<bool> fdr_;
  std::vector<std::deque<bool>> ica_;  // [k - 2]: the k-sector window

  StatGroup stats_;
  Counter &full_fdr_, &full_sm_, &full_ica_, &full_request_, &partial_, &replies_, &evictions_;
};

}  // namespace gpusc
