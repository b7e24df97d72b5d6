// Cache: the one set-associative cache unit of gpusc (issue 4 item 2), used as the L1 data cache
// (paper 000 Table II: 16 KB 4-way, 128 B lines; write-through, no write-allocate), as an L2 slice
// (paper 000 Table II: 128 KB 8-way per channel; paper 001 Table 1: 120-cycle minimum L2 hit
// latency; write-back, write-allocate) and later as L1.5 and RDMA cache. Messages follow
// docs/gpu-model.md: a request is answered with its own payload (is_reply, dst = src).
//
// Per cycle, in this order:
//   1. hit pipeline: replies whose hit_latency has elapsed enter the out queue (while it has room);
//   2. from below: the fill being answered moves its next merged request into the out queue, or
//      else the next message from down_in is taken: a read reply is a fill (matched to its MSHR by
//      line address, installed, its merged requests answered in order, one per cycle); any other
//      reply (write ack, atomic at a write-through cache) is forwarded up unchanged;
//   3. lookup pipeline: messages a lookup sends down (misses, write-throughs) whose
//      lookup_latency has elapsed enter the miss queue (while it has room), oldest first;
//   4. lookup: up to accesses_per_cycle requests from the input queue, only while the out queue
//      has room before this cycle's send (a full out queue stops the cache: paper 001 §2.1,
//      "MC reply queue"); peer lookups take the slots left (see peer_lookup), and peer results
//      whose latency has elapsed are delivered;
//   5. one message leaves on up_out and one on down_out, if the port is free.
// Steps 2 and 5 happen messages_per_cycle times (default 1): a cache between ports that carry
// several messages per cycle (DUALOPT's RDMA cache behind a GPU's several boundary nodes) is as
// wide as they are.
// Policies and observers attach at the hook points below (set_bypass, set_allocate, on_evict,
// on_miss, peer_lookup); with none set the cache behaves as described here.
// A request latched in cycle a (handed over in cycle a - 1) is looked up in cycle a; a hit is sent
// on up_out in cycle a + hit_latency; a miss goes down in cycle a + lookup_latency. A fill latched
// in cycle f sends its first reply in cycle f, the next in f + 1, ...
//
// Latency split (lookup_latency <= hit_latency): hit_latency is the whole hit pipeline, request
// latched to reply ready to leave, data read included; lookup_latency is the part of it in front
// of the hit/miss decision, which a miss pays before it leaves. For the L2 both are 120 cycles
// (MemoryPartition): in GPGPU-Sim, which papers 000 and 001 used, an L2 request first waits the
// ROP latency (rop_latency = 120 in its Fermi configs, paper 001's "min L2 latency") and is then
// looked up; a hit is answered at once, a miss enters the L2-to-DRAM queue at once. A design
// whose data array read follows the tag check sets lookup_latency below hit_latency. The L1
// default (lookup_latency 0, hit_latency 1) sends a miss down in the cycle of its lookup. Tag,
// LRU and MSHR state change in the lookup cycle a; the latencies are pure delays (pipelines of
// one entry per lookup, not counted in in_queue or miss_queue).
//
// Reservation fail: a read that finds no free MSHR, a full merge list, or a full miss queue (for
// any access that sends something down) stays at the head of the input queue and retries next
// cycle; every failed cycle counts once. A full input queue withholds END_REQ on up_in.
//
// Stats identities (checked as invariants at every dump):
//   reads == read_hits + read_misses + mshr_merges   (a merged read is neither hit nor miss)
//   fetches == read_misses + atomic_misses           (one Read of line_bytes sent down per MSHR)
//   fills + MSHRs waiting for their fill == fetches
// So for an L1 (atomic_misses = 0): reads - read_hits = L2 reads from this L1 (= fetches) +
// mshr_merges. sector_misses is the part of read_misses whose tag matched but whose needed
// sectors were not valid.
//
// Choices the papers leave open:
//   * lines are allocated when the fill arrives (LRU victim, invalid ways first), not at the
//     miss; a fill for a line that is present (sector miss) makes every sector valid, even when
//     the allocation hook said no (it is asked once per read miss, with the first request);
//   * valid bits are kept per 32 B sector (one bit for lines under 32 B). `sectored` decides what
//     a read needs: its own sectors (MemExt::sector_mask, 0 = whole line) or the whole line. So a
//     write-back cache never returns sectors it did not fetch or write, sectored or not;
//   * the fetch sent down carries the first request's MemExt (warp, pc, kernel, cta, t_issue,
//     sector and word masks), not the union of the merged requests;
//   * an MSHR stays busy until its last merged request has entered the out queue;
//   * write-through: a write hit makes the written sectors valid and refreshes LRU; atomics bypass
//     the cache (the line, if present, is left as it is);
//   * write-back: atomics are performed here like reads that dirty the line (atomic misses merge
//     into a read MSHR and vice versa; an MSHR with an atomic always allocates); write acks and
//     atomic replies take hit_latency like read hits;
//   * fill replies (and forwarded replies) do not pay hit_latency again (GPGPU-Sim: a fill goes
//     from the DRAM-to-L2 queue into the L2 and its reply to the L2-to-network queue, no ROP);
//   * a write-back caused by a fill or by flush() is queued even past miss_queue (at most one per
//     fill): a fill never waits for the path down, which could deadlock request and reply paths.
//     Write-backs (those of a write-allocate victim too) do not pay lookup_latency, so one may
//     reach the miss queue before misses still in the lookup pipeline;
//   * reply_stall_cycles counts cycles in which up_out was blocked (a reply handed over but not
//     yet taken by the receiver), plus cycles in which a ready reply found the out queue full
//     while up_out was free;
//   * t_done is set on every reply sent up (the last cache on the way, the L1, sets it last);
//   * with a BackingStore attached, payloads with a data pointer get real bytes: a read or atomic
//     reply copies the line from the store; a write stores its data, packed in word_mask order
//     (4 B per set bit; whole data_length at the address when word_mask is 0). The data buffer
//     of a read must hold line_bytes. The cache's own payloads carry no data pointer;
//   * b_transport (functional): the same tag, LRU, dirty and stats updates without timing;
//     misses, write-throughs and write-backs go down with b_transport at once. Not to be mixed
//     with timed traffic in flight.
//
// Sector fetch (fetch_granularity = "sector"): the critical data tracker of paper 002 §3.2-3.3
// and §3.5 (the default "line" is the behaviour above, unchanged). Needs `sectored`. Sectors are
// the 32 B units of MemExt::sector_mask (line_bytes / 32 of them: 4 for 128 B lines). Each line
// keeps its valid map, each MSHR a pending map (sectors asked below, not yet returned) and, per
// waiting request, the sectors it still waits for. A read looks up:
//   hit: tag present and the request's sectors a subset of the line's valid map;
//   MSHR merge: an MSHR of the line is waiting and every needed sector not valid is pending:
//     the request waits in the MSHR (counted in mshr_merges, as in line mode);
//   SM (subsequent miss): an MSHR of the line is waiting but lacks some needed sectors: a fetch
//     for the missing sectors is sent (a read miss: one more fetch), its bits are ORed into the
//     pending map and the request waits in that MSHR (it needs a merge slot);
//   HI (hit but invalid): tag present, sectors missing, no MSHR: an MSHR is allocated for the
//     missing sectors and a fetch sent;
//   FM (first miss): no tag, no MSHR: an MSHR and a fetch for the request's sectors.
// The fetch map is the missing sectors (needed, not valid, not pending), ORed with the fetch-map
// policy's answer when one is set (set_fetch_map), minus the pending ones. A reply from below
// carries its map (MemExt::sector_mask, 0 = the whole line): those sectors leave the pending map
// and become valid in the line (installed at the first reply when it allocates; LRU refreshed at
// every reply); each waiting request whose sectors have all arrived is answered, in arrival
// order, one per cycle. When the pending map is clear the MSHR frees (after its last answer).
// A read needing a sector that is still pending is never a hit: a sector is valid only once the
// reply carrying it has arrived. Stats added in this mode: first_misses, subsequent_misses,
// hit_but_invalid (read_misses = FM + SM + HI), sectors_fetched. Departures and choices (the
// thesis is silent or differs):
//   * §3.5 makes the whole block valid only when the MSHR map clears; here each sector is valid
//     when its reply arrives, so a request whose sectors are already back is answered before the
//     rest of the block arrives (it never waits for sectors it does not need);
//   * an SM fetch asks only the sectors still missing (not the request's whole map);
//   * a reply that matches no waiting MSHR (a reply carrying more than its fetch asked, e.g. a
//     full line from a filter that had no table entry, has already cleared the MSHR) only adds
//     its sectors to the line if present; it still counts as a fill. So `fills <= fetches`
//     replaces the line-mode identity, and sectors_fetched == sectors returned + pending;
//   * the fetch carries the allocating request's MemExt with sector_mask = the fetch map;
//   * consistency bits (002 §4.1): an MSHR's is set by an SM, a line's by an HI; they reach the
//     fill-complete and sector-eviction observers (a request-controller's windows);
//   * b_transport: a read miss fetches its missing sectors at once (FM or HI, never SM).
// sector_stats (either mode) counts, per line replaced by an allocation, the sectors read while
// it was cached (hits, and the requests its fills answered; writes do not count) against its
// sectors: the "block used before eviction" of 002 §2.1 (Fig. 2.1: ~40%) and the histogram of
// Fig. 2.3. Lines still cached at the end and flushed lines are not counted.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "common/trace.h"

namespace gpusc {

class BackingStore;

class Cache : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned line_bytes = 128;                  // line (block) size [bytes] (000 Table II)
    unsigned sets = 32;                         // sets [count], power of two (16 KB / 128 B / 4)
    unsigned ways = 4;                          // associativity [count] (000 Table II L1: 4-way)
    unsigned hit_latency = 1;                   // lookup to reply on a hit [cycles]
    unsigned lookup_latency = 0;                // lookup to sending a miss / write-through down [cycles]
    unsigned mshrs = 32;                        // MSHR entries [count]
    unsigned mshr_merge = 8;                    // requests per MSHR entry [count]
    std::string write_policy = "write-through"; // write-through (no allocate) | write-back (allocate)
    bool sectored = false;                      // a read needs only its own 32 B sectors valid
    unsigned in_queue = 8;                      // requests accepted and waiting for lookup [messages]
    unsigned out_queue = 8;                     // replies waiting for up_out [messages]
    unsigned miss_queue = 8;                    // messages waiting for down_out [messages]
    unsigned fill_queue = 8;                    // messages from below waiting to be handled [messages]
    unsigned accesses_per_cycle = 1;            // lookups per cycle [count]
    unsigned messages_per_cycle = 1;            // sends per port and messages from below handled per cycle
    bool reservation_fail_takes_slot = true;    // a failed local lookup keeps peers off its slot
    std::string fetch_granularity = "line";     // line | sector (002 §3.2: critical data tracker)
    bool sector_stats = false;                  // count sectors read per line until eviction (002 §2.1)

    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(line_bytes, 4, 1024, "line size [bytes], power of two (000 Table II: 128)");
      GPUSC_PARAM_R(sets, 1, 1 << 24, "sets [count], power of two (L1 16 KB 4-way 128 B: 32)");
      GPUSC_PARAM_R(ways, 1, 1024, "associativity [count] (000 Table II: L1 4, L2 8)");
      GPUSC_PARAM_R(hit_latency, 1, 100000, "lookup to reply on a hit [cycles] (001 Table 1: L2 120)");
      GPUSC_PARAM_R(lookup_latency, 0, 100000,
                    "lookup to sending a miss or write-through down, the part of hit_latency a miss pays, "
                    "at most hit_latency [cycles] (L2: 120, GPGPU-Sim's ROP latency is in front of the tag lookup)");
      GPUSC_PARAM_R(mshrs, 1, 65536, "MSHR entries [count]");
      GPUSC_PARAM_R(mshr_merge, 1, 65536, "requests merged per MSHR entry [count]");
      GPUSC_PARAM_C(write_policy, "write-through|write-back",
                    "write-through: no write-allocate (L1); write-back: write-allocate, dirty write-back (L2)");
      GPUSC_PARAM(sectored, "per-read check of 32 B sector valid bits (false: a read needs the whole line)");
      GPUSC_PARAM_R(in_queue, 1, 65536, "input queue: requests accepted, waiting for lookup [messages]");
      GPUSC_PARAM_R(out_queue, 1, 65536, "out queue: replies waiting for up_out (001 §2.1 MC reply queue) [messages]");
      GPUSC_PARAM_R(miss_queue, 1, 65536, "miss queue: messages waiting for down_out [messages]");
      GPUSC_PARAM_R(fill_queue, 1, 65536, "messages from below (fills, acks) waiting to be handled [messages]");
      GPUSC_PARAM_R(accesses_per_cycle, 1, 64, "lookups per cycle [count]");
      GPUSC_PARAM_R(messages_per_cycle, 1, 64,
                    "messages sent per cycle on up_out and on down_out each, while the receiver takes them, and "
                    "messages from below handled per cycle (a write ack passed up, one reply of a fill) [count]");
      GPUSC_PARAM(reservation_fail_takes_slot,
                  "a local lookup that fails reservation (no MSHR or miss-queue room) takes its lookup slot "
                  "from peer lookups; false: a stalled head leaves the slot to them (paper 000: probes use "
                  "the L1 port in any cycle no local access uses it)");
      GPUSC_PARAM_C(fetch_granularity, "line|sector",
                    "line: a miss fetches the whole line, MSHRs merge by line, a fill validates every sector; "
                    "sector: 002 §3.2-3.3 critical data tracker, a miss fetches its missing 32 B sectors, "
                    "MSHRs keep a sector map (FM/SM/HI misses), a reply validates the sectors it carries (needs sectored)");
      GPUSC_PARAM(sector_stats, "count the 32 B sectors read per line until its eviction (002 §2.1 block usage)");
    }
  };
  using Payload = tlm::tlm_generic_payload;

  MsgIn up_in{"up_in"};        // requests from above (SM or NI); also b_transport (functional)
  MsgOut up_out{"up_out"};     // replies to above
  MsgOut down_out{"down_out"}; // misses, write-throughs, atomics (write-through), write-backs
  MsgIn down_in{"down_in"};    // fills and forwarded replies from below

  // node: the network node id written into MemExt::src of the cache's own payloads.
  Cache(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned node);
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Fills MemExt::dst of every message sent down (default: leaves it as it is).
  void set_route(std::function<void(Payload&, MemExt&)> f) { route_ = std::move(f); }
  // Address used for set indexing (default identity; an L2 slice passes AddressMap::local).
  void set_index_address(std::function<uint64_t(uint64_t)> f) { index_addr_ = std::move(f); }
  void set_backing_store(BackingStore* s) { store_ = s; }

  // ---- policy and observer hook points (DESIGN.md §6; none set: default behaviour) ----
  // A hook not set costs one empty/null check where it would be asked, and adds no stats. Set
  // hooks before the simulation starts; set_bypass adds the counter `bypassed`, the first
  // peer_lookup `peer_lookups` and `peer_hits`.
  //
  // Allocation policy: whether a read miss allocates the line when its fill arrives, asked once
  // per MSHR with the first request (default: always; an atomic miss always allocates; writes
  // follow write_policy).
  void set_allocate(std::function<bool(const Payload&)> f) { allocate_ = std::move(f); }
  // Per-request bypass: asked for every request from above when it reaches the lookup (timed and
  // b_transport). True: the request goes straight down without tag lookup, LRU update, MSHR or
  // allocation: it takes its lookup slot but not lookup_latency (nothing is looked up; a disabled
  // RDMA cache must not delay the requests that pass it), needs a miss-queue slot (reservation
  // fail otherwise; the policy is asked again in each cycle it waits) and is counted only in
  // `bypassed`. Its reply from below (if any) is passed up unchanged; a bypassed read's
  // reply must come back as the same payload (gpusc's convention, docs/gpu-model.md), which is
  // how it is told from a fill. The tag array is not consulted, so the policy must not bypass
  // lines the cache may hold dirty (e.g. an L1.5 bypassing local addresses it never caches).
  void set_bypass(std::function<bool(const Payload&)> f);
  // Eviction observers: called once per valid line replaced by an allocation (the `evictions`
  // counter), with the line address and whether it was dirty, before its write-back is queued.
  // flush() invalidates without calling them. Any number of listeners, called in order.
  void on_evict(std::function<void(uint64_t line, bool dirty)> f) { evict_obs_.push_back(std::move(f)); }
  // Miss observers: called once per fetch sent down (read_misses + atomic_misses, = `fetches`),
  // in the lookup cycle, with the request that allocated the MSHR (with sector fetch: the request
  // whose FM, SM or HI sent the fetch) and its line address. Merged reads and bypassed requests
  // are not misses. Any number of listeners, called in order.
  void on_miss(std::function<void(const Payload& req, uint64_t line)> f) { miss_obs_.push_back(std::move(f)); }
  // Read policy (a memory-side cache's, e.g. paper 000's LA-LLC; fetch_granularity = line only,
  // an error otherwise): asked once per read from above when the lookup takes it (a hit, an MSHR
  // merge or a new miss; not atomics, writes or bypassed requests; a read that waits for an MSHR
  // is asked when it is taken), with whether it hit. On a hit it may answer the read otherwise:
  // it rewrites the payload into another message (MemExt::is_reply, dst, kind) and returns true,
  // and the cache sends that up after hit_latency in place of the data reply (the tag was looked
  // up, the data array not read). Its return value for a miss is ignored. The timed path only
  // (b_transport serves every read). Adds the counter `redirected_hits`.
  void set_read_policy(std::function<bool(Payload& req, MemExt& e, bool hit)> f);

  // Fetch-map policy (fetch_granularity = sector only; an error otherwise): asked once per read
  // miss (FM, SM, HI) in the lookup cycle, with the request, its class and the sectors it lacks
  // (needed, not valid, not pending). Returns the sectors to fetch; the cache ORs in `missing`,
  // drops the pending sectors and sends the rest (e.g. all_sectors() to fetch the whole line).
  // Atomic misses are not asked.
  enum class MissClass : uint8_t { First, Subsequent, HitInvalid };  // FM, SM, HI (002 Table 3.1)
  void set_fetch_map(std::function<uint32_t(const Payload& req, MissClass c, uint32_t missing)> f);
  // Sector observers (fetch_granularity = sector only; an error otherwise): one line's sector map
  // and consistency bit. on_fill_complete: called once per MSHR, at the reply that clears its
  // pending map, with every sector fetched through it, the sectors its requests needed and its
  // consistency bit (set by an SM). on_sector_evict: called per eviction (as on_evict), with the
  // line's valid map, the sectors read while it was cached and its consistency bit (set by an
  // HI). Any number of listeners, called in order.
  struct SectorEvent {
    uint64_t line;
    uint32_t map;       // sectors fetched (fill) or valid (eviction) (bit i = 32 B sector i)
    bool inconsistent;  // a later request needed sectors outside the present or pending map
    uint32_t critical;  // sectors the requests needed: the MSHR's requests (fill), read since installed (eviction)
    uint32_t first;     // sectors of the request whose miss allocated the MSHR (fill) / installed the line (eviction)
  };
  void on_fill_complete(std::function<void(const SectorEvent&)> f);
  void on_sector_evict(std::function<void(const SectorEvent&)> f);
  uint32_t all_sectors() const { return all_sectors_; }

  // Peer lookup: another unit (a peer core probing this L1, paper 000) asks whether a line is
  // here. It reads the tag array only: no LRU, dirty, MSHR or stats change of the local path.
  // Timing contract: a peer lookup requested in cycle r (at any time in it, also from another
  // unit's tick) may be served from cycle r + 1. It is served in the first such cycle in which the
  // lookup stage has a slot local requests do not use: of accesses_per_cycle slots, each local
  // lookup attempt takes one (a reservation fail too, unless reservation_fail_takes_slot is
  // false) and peers share the rest, oldest first; so a peer never delays a local access. Lines are checked in the serving cycle s (after that
  // cycle's local lookups and fill), and `done` is called in cycle s + lookup_latency (from the
  // cache's tick; with lookup_latency 0 in cycle s itself). A line whose fill is still outstanding
  // is not present. A new peer lookup requested from `done` is served from the next cycle on.
  struct PeerResult {
    uint64_t line;    // line address looked up
    bool present;     // tag present (some sector valid)
    bool hit;         // present with every sector of the request's mask valid
    uint32_t valid;   // valid sector bits (0 when absent)
    bool dirty;
  };
  // sectors: the sectors wanted (0: the whole line); `hit` is decided as for a local read (not
  // sectored: the whole line must be valid).
  void peer_lookup(uint64_t addr, uint32_t sectors, std::function<void(const PeerResult&)> done);

  // Kernel boundary: a write-back cache queues every dirty line down, then all lines are
  // invalidated. Only while idle() (an error otherwise).
  void flush();
  // Invalidates every valid line `which` accepts (every line when empty), queuing dirty ones down
  // first as flush() does; returns how many. Allowed with requests in flight (a shoot-down, paper
  // 004 §2.3): a line whose fill is outstanding is not present yet and is installed when the fill
  // arrives; hits already looked up are still answered. No eviction observer is called.
  uint64_t invalidate(const std::function<bool(uint64_t line)>& which = {});
  // Nothing queued, in flight (bypassed reads and peer lookups included), or held in an MSHR, and
  // both output ports free.
  bool idle() const;

  // Observers for tests and platforms.
  const Params& params() const { return p_; }
  unsigned node() const { return node_; }
  bool present(uint64_t addr) const { return find_line(line_of(addr)) != nullptr; }
  bool is_dirty(uint64_t addr) const;
  uint32_t valid_sectors(uint64_t addr) const;  // 0 when the line is absent
  unsigned mshrs_in_use() const;
  // Sector fetch: the pending map of the MSHR waiting for addr's line (0 when none).
  uint32_t pending_sectors(uint64_t addr) const;
  size_t input_backlog() const { return in_q_.size(); }
  size_t out_backlog() const { return out_q_.size(); }
  // Cycles a reply waited: for up_out's receiver, or for room in the out queue.
  uint64_t reply_stall_cycles() const { return reply_stall_cycles_.value(); }
  // Cycles up_out's receiver withheld a reply (at an L2: the MC stall time of paper 001 §2.1).
  uint64_t up_blocked_cycles() const { return up_blocked_cycles_.value(); }

 private:
  struct Line {
    uint64_t tag = 0;    // line address
    uint32_t valid = 0;  // sector valid bits (0: invalid)
    bool dirty = false;
    uint64_t lru = 0;    // last-use stamp
    uint32_t touched = 0;       // sector_stats: sectors read since installed
    uint32_t first = 0;         // sector fetch: sectors of the request whose miss installed it
    bool inconsistent = false;  // sector fetch: an HI happened on the line
  };
  struct Mshr {
    bool busy = false;
    bool filled = false;    // fill arrived, merged requests being answered
    bool allocate = true;   // install the line on fill
    bool dirty = false;     // an atomic merged: the installed line is dirty
    uint64_t line = 0;
    std::vector<Payload*> reqs;
    // Sector fetch: sectors asked below and not yet returned, every sector asked, the sectors
    // each waiting request (reqs[i]) still waits for, the requests ready to answer.
    uint32_t pending = 0, requested = 0;
    bool inconsistent = false;
    std::vector<uint32_t> waits;
    std::vector<Payload*> ready;
    uint32_t touched = 0;  // sector_stats: sectors its requests read
    uint32_t first = 0;    // sector fetch: sectors of the request that allocated it
  };
  struct Timed {
    uint64_t ready;  // cycle from which it may be handled
    Payload* gp;
  };

  struct PeerReq {
    uint64_t ready;  // first cycle it may be served, then the cycle its result is due
    uint64_t line;
    uint32_t sectors;
    PeerResult result;
    std::function<void(const PeerResult&)> done;
  };

  bool tick(uint64_t cycle) override;
  bool accept_up(Payload& gp);
  bool accept_down(Payload& gp);
  // Takes gp into q (usable from the next edge) unless q holds `limit` messages.
  bool latch(std::deque<Timed>& q, size_t limit, Payload& gp);
  void retire_hits(uint64_t cycle);
  void handle_down(uint64_t cycle);
  void release_looked_up(uint64_t cycle);
  unsigned lookups(uint64_t cycle);  // returns the lookup attempts made (slots used)
  void serve_peers(uint64_t cycle, unsigned slots);
  void deliver_peers(uint64_t cycle);
  bool bypassed(Payload& gp);  // false: reservation fail
  bool lookup(Payload& gp, MemExt& e, uint64_t cycle);  // false: reservation fail
  bool read_path(Payload& gp, MemExt& e, uint64_t cycle, bool atomic);
  // fetch_granularity = sector: a read or atomic that did not hit (l: the line, if present).
  bool sector_miss(Payload& gp, MemExt& e, uint64_t cycle, bool atomic, uint64_t line, Line* l, uint32_t need);
  uint32_t fetch_map(const Payload& gp, bool atomic, MissClass c, uint32_t missing);
  void sector_fill(Payload& gp);  // a read reply in sector mode (taken from down_q_)
  void free_mshr_entry(Mshr& m);
  void require_sector_mode(const char* hook) const;
  bool write_path(Payload& gp, MemExt& e, uint64_t cycle);  // false: reservation fail
  void send_ports(uint64_t cycle);
  void functional(Payload& gp, sc_core::sc_time& t);

  uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t(p_.line_bytes - 1); }
  unsigned set_of(uint64_t line) const;
  Line* find_line(uint64_t line);
  const Line* find_line(uint64_t line) const;
  Line& victim(uint64_t line);   // invalid way first, else least recently used
  Line& install(uint64_t line);  // evicts the victim (writing it back if dirty), empty line
  void touch(Line& l) { l.lru = ++lru_clock_; }
  uint32_t sectors_of(const MemExt& e) const { return sectors_of_mask(e.sector_mask); }
  uint32_t sectors_of_mask(uint32_t mask) const;  // 0: every sector
  bool is_bypassed_read(const Payload& gp) const;
  void forget_bypassed_read(const Payload& gp);
  Mshr* find_mshr(uint64_t line);
  Mshr* free_mshr();
  Payload& make_fetch(const MemExt& first, uint64_t line);  // Read of the line, from our pool
  Payload& make_fetch(const MemExt& first, uint64_t line, uint32_t sectors);  // with this sector_mask
  void make_reply(Payload& gp);  // request -> its reply (is_reply, dst = src, line bytes)
  void send_down(Payload& gp);   // hands over one reference
  void send_looked_up(Payload& gp, uint64_t cycle);  // send_down after lookup_latency
  void write_back(uint64_t line);
  void store_write(Payload& gp, const MemExt& e);
  bool miss_queue_full() const { return to_down_.size() >= p_.miss_queue; }
  bool out_full() const { return out_q_.size() >= p_.out_queue; }
  bool up_blocked(uint64_t cycle) const { return up_out.busy() || cycle < up_free_at_; }

  const Params p_;
  ClockDomain& clk_;
  const unsigned node_;
  const bool write_back_;
  const unsigned sector_count_;
  const uint32_t all_sectors_;
  const bool sector_fetch_;  // fetch_granularity == "sector"
  PayloadPool pool_;
  BackingStore* store_ = nullptr;
  std::function<void(Payload&, MemExt&)> route_;
  std::function<uint64_t(uint64_t)> index_addr_;
  std::function<bool(const Payload&)> allocate_;  // empty: always allocate
  std::function<bool(const Payload&)> bypass_;    // empty: nothing bypasses
  std::function<bool(Payload&, MemExt&, bool)> read_policy_;  // empty: every hit answered with data
  std::vector<std::function<void(uint64_t, bool)>> evict_obs_;
  std::vector<std::function<void(const Payload&, uint64_t)>> miss_obs_;
  std::function<uint32_t(const Payload&, MissClass, uint32_t)> fetch_map_;  // empty: the missing sectors
  std::vector<std::function<void(const SectorEvent&)>> fill_done_obs_, sector_evict_obs_;

  std::vector<Line> lines_;  // [set * ways + way]
  std::vector<Mshr> mshrs_;
  std::deque<Timed> in_q_, down_q_, hits_;  // hits_: replies in the hit pipeline
  std::deque<Timed> looked_up_;             // misses and write-throughs in the lookup pipeline
  std::deque<Payload*> out_q_, to_down_;
  std::vector<Payload*> bypassed_reads_;   // bypassed reads waiting for their reply from below
  std::deque<PeerReq> peer_q_, peer_done_;  // peer lookups waiting for a slot / for their latency
  bool peers_active_ = false;               // peer_q_ or peer_done_ not empty
  Mshr* answering_ = nullptr;  // fill whose merged requests are being answered
  size_t answered_ = 0;
  uint64_t lru_clock_ = 0;
  uint64_t up_free_at_ = 0, down_free_at_ = 0;  // first cycle a port may send after a withheld message
  uint64_t up_blocked_since_ = 0;
  bool reply_blocked_ = false;               // this cycle a ready reply found the out queue full
  sc_core::sc_time* lt_time_ = nullptr;      // set during b_transport: sends go down functionally

  TraceHook trace_;  // one "miss" slice per MSHR, allocation to fill
  StatGroup stats_;
  Counter &reads_, &writes_, &atomics_, &read_hits_, &read_misses_, &sector_misses_, &mshr_merges_,
      &atomic_misses_, &fetches_, &reservation_fails_, &fills_, &evictions_, &writebacks_,
      &reply_stall_cycles_, &up_blocked_cycles_;
  Counter* bypassed_ = nullptr;                            // added by set_bypass
  Counter* redirected_hits_ = nullptr;                     // added by set_read_policy
  Counter* peer_lookups_ = nullptr, *peer_hits_ = nullptr;  // added by the first peer_lookup
  // fetch_granularity = sector only
  Counter* first_misses_ = nullptr, *subsequent_misses_ = nullptr, *hit_invalid_ = nullptr, *sectors_fetched_ = nullptr,
         *sectors_returned_ = nullptr;
  // sector_stats only
  Counter* evicted_sectors_ = nullptr, *evicted_used_ = nullptr, *evicted_valid_ = nullptr;
  Histogram* used_hist_ = nullptr;
};

}  // namespace gpusc
