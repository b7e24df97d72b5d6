// MaskMshrStage and RdmaWordSelector (paper 004 §4.1.2, §4.1.3): a real L1 (mem/cache.h) with the
// stage behind it, driven by scripted SM reads; a "remote GPU" behind the stage answers each
// fine-grained read after a fixed delay with the whole line (as the serving L2 would) cut to its
// words by an RdmaWordSelector. Line contents are a function of the address, so every reply's
// data can be checked word by word.
// Covered: remote reads bypass the L1 (no tag, no fill) and carry their own words back; case A
// (a read whose mask is inside an in-flight entry's) sends nothing and its reply holds only its
// words taken from the entry's response; case B (same line, a mask not inside) sends a second
// request; local reads take the L1 (a line fetch passes the stage unchanged); a full table
// refuses until a response frees an entry and every read is still answered exactly once; a
// selector turns a line reply into its mask's words and leaves other messages alone; bad
// configurations are clear errors.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <vector>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "mem/cache.h"
#include "multigpu/mask_mshr_stage.h"
#include "multigpu/rdma_packet.h"
#include "multigpu/rdma_word_selector.h"

using namespace gpusc;
using multigpu::MaskMshrStage;
using multigpu::RdmaWordSelector;

namespace {

constexpr uint64_t kRemote = 0x100000;  // addresses at or above it are remote

uint32_t word_at(uint64_t addr) { return static_cast<uint32_t>(addr * 2654435761u + 7); }

// The serving GPU: takes a request, after `delay` cycles returns it as a reply carrying the
// whole 64 B line (data from word_at) through an RdmaWordSelector, or a full line for a
// request without a response ID (an L1 fetch).
class RemoteGpu : public sc_core::sc_module, private Tickable {
 public:
  MsgIn in{"in"};
  MsgOut to_selector{"to_selector"};
  RdmaWordSelector selector;
  std::vector<uint64_t> fine_lines, line_fetches;  // requests seen
  std::vector<uint32_t> fine_masks;                 // the word masks of the fine-grained ones

  RemoteGpu(sc_core::sc_module_name n, ClockDomain& clk, unsigned delay)
      : sc_core::sc_module(n), selector("selector", RdmaWordSelector::Params{}), clk_(clk), delay_(delay) {
    to_selector.bind(selector.in);
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const MemExt& e = *gp.get_extension<MemExt>();
      (multigpu::rdma_id(gp) ? fine_lines : line_fetches).push_back(gp.get_address() & ~uint64_t{63});
      if (multigpu::rdma_id(gp)) fine_masks.push_back(e.word_mask);
      q_.push_back({clk_.now() + delay_, &gp});
      clk_.wake(*this, clk_.now() + delay_);
      return true;
    });
    to_selector.on_accept([this] { clk_.wake_after_now(*this); });
  }

 private:
  bool tick(uint64_t cycle) override {
    if (q_.empty() || to_selector.busy()) return false;
    if (q_.front().first > cycle) {
      clk_.wake(*this, q_.front().first);
      return false;
    }
    tlm::tlm_generic_payload& gp = *q_.front().second;
    q_.pop_front();
    MemExt& e = *gp.get_extension<MemExt>();
    const uint64_t line = gp.get_address() & ~uint64_t{63};
    if (unsigned char* d = gp.get_data_ptr())
      for (unsigned w = 0; w < 16; ++w) {
        const uint32_t v = word_at(line + 4 * w);
        std::memcpy(d + 4 * w, &v, 4);
      }
    gp.set_data_length(64);
    e.is_reply = true;
    e.dst = e.src;
    to_selector.send(gp);
    return !q_.empty();
  }
  ClockDomain& clk_;
  unsigned delay_;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> q_;
};

// Receives the L1's replies to the SM and checks their words.
class SmSink : public sc_core::sc_module {
 public:
  MsgIn in{"in"};
  std::map<uint64_t, unsigned> answered;  // MemExt::pc -> replies
  std::map<uint64_t, uint32_t> mask_of;   // MemExt::pc -> the word mask of its reply
  unsigned wrong_data = 0;
  sc_core::sc_time last;  // when the latest reply arrived
  explicit SmSink(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const MemExt& e = *gp.get_extension<MemExt>();
      last = sc_core::sc_time_stamp();
      ++answered[e.pc];
      mask_of[e.pc] = e.word_mask;
      if (gp.get_address() >= kRemote) {  // fine-grained: its mask's words, packed
        const uint64_t line = gp.get_address() & ~uint64_t{63};
        unsigned k = 0;
        for (unsigned w = 0; w < 16; ++w) {
          if (!((e.word_mask >> w) & 1u)) continue;
          uint32_t v;
          std::memcpy(&v, gp.get_data_ptr() + 4 * k++, 4);
          wrong_data += v != word_at(line + 4 * w);
        }
        wrong_data += gp.get_data_length() != 4 * k;
      }
      gp.release();
      return true;
    });
  }
};

// Records what reaches it (length and data).
struct Collect : sc_core::sc_module {
  struct Got {
    unsigned len;
    std::vector<uint8_t> data;
  };
  MsgIn in{"in"};
  std::vector<Got> got;
  explicit Collect(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      got.push_back({gp.get_data_length(), std::vector<uint8_t>(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length())});
      gp.release();
      return true;
    });
  }
};

struct Bench {
  ClockDomain clk{"clk", 1000};
  PayloadPool pool{64};
  tb::ScriptedInitiator sm{"sm", clk, pool};
  Cache l1;
  MaskMshrStage stage;
  RemoteGpu remote;
  SmSink sink{"sink"};
  explicit Bench(const MaskMshrStage::Params& p = MaskMshrStage::Params{}, unsigned delay = 50)
      : l1("l1", l1_params(), clk, 3),
        stage("stage", p, clk, l1, [](const tlm::tlm_generic_payload& gp) {
          return gp.get_address() >= kRemote && gp.get_extension<MemExt>()->kind == MemKind::Read;
        }),
        remote("remote", clk, delay) {
    sm.out.bind(l1.up_in);
    l1.up_out.bind(sink.in);
    l1.down_out.bind(stage.from_l1());
    stage.to_l1().bind(l1.down_in);
    stage.to_net().bind(remote.in);
    remote.selector.out.bind(stage.from_net());
  }
  static Cache::Params l1_params() {
    Cache::Params c;
    c.line_bytes = 64;
    c.sets = 64;
    c.ways = 4;
    return c;
  }
  // A read of `addr` by request `seq` with word mask `mask`, at cycle `at`.
  void read(uint64_t at, uint64_t seq, uint64_t addr, uint32_t mask) {
    sm.at(at, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = 1;
      e.pc = seq;
      e.word_mask = mask;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(addr);
      gp.set_data_length(64);
    });
  }
};

}  // namespace

TEST_CASE("MaskMshrStage: a remote read bypasses the L1 and gets exactly its own words back", "[multigpu][mask_mshr]") {
  Bench b;
  b.read(1, 1, kRemote + 0x40, 0b0000'0000'0010'0100);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.sink.answered[1] == 1);
  CHECK(b.sink.wrong_data == 0);
  CHECK(b.remote.fine_lines.size() == 1);
  CHECK(b.remote.line_fetches.empty());
  CHECK(!b.l1.present(kRemote + 0x40));  // bypassed: no fill
  CHECK(b.stage.idle());
}

TEST_CASE("MaskMshrStage: case A merges a contained mask (one request below, its own words back)",
          "[multigpu][mask_mshr]") {
  Bench b;
  b.read(1, 1, kRemote, 0b1111'0000);
  b.read(3, 2, kRemote + 0x10, 0b0011'0000);  // inside the first one's mask: case A
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.remote.fine_lines.size() == 1);
  CHECK(b.stage.merges() == 1);
  CHECK(b.sink.answered[1] == 1);
  CHECK(b.sink.answered[2] == 1);
  CHECK(b.sink.wrong_data == 0);
  CHECK(b.stage.idle());
}

TEST_CASE("MaskMshrStage: case B sends a second request for a mask not contained", "[multigpu][mask_mshr]") {
  Bench b;
  b.read(1, 1, kRemote, 0b1000'0000);
  b.read(3, 2, kRemote, 0b0100'0000);  // the paper's Fig. 8(a) example: disjoint, so case B
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.remote.fine_lines.size() == 2);
  CHECK(b.stage.merges() == 0);
  CHECK(b.sink.answered[1] == 1);
  CHECK(b.sink.answered[2] == 1);
  CHECK(b.sink.wrong_data == 0);
}

TEST_CASE("MaskMshrStage: 16 B transfer units: reads ask for whole units and merge by unit and each reply holds its own "
          "words",
          "[multigpu][mask_mshr][granularity]") {
  MaskMshrStage::Params p;
  p.transfer_bytes = 16;
  Bench b(p);
  b.read(1, 1, kRemote, 0b0000'0010);       // word 1: asks for unit 0 (words 0-3)
  b.read(3, 2, kRemote, 0b0000'0100);       // word 2: inside unit 0, case A (with 4 B units: case B)
  b.read(5, 3, kRemote, 0b0001'0000);       // word 4: unit 1, not inside: case B
  b.read(7, 4, kRemote + 0x40, 0b1000'0000'0000'0000);  // word 15 of another line: unit 3
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.remote.fine_masks == std::vector<uint32_t>{0x000f, 0x00f0, 0xf000});
  CHECK(b.stage.merges() == 1);
  for (uint64_t pc = 1; pc <= 4; ++pc) CHECK(b.sink.answered[pc] == 1);
  CHECK(b.sink.mask_of[1] == 0b0000'0010);  // its own mask back, not the unit it asked for
  CHECK(b.sink.mask_of[2] == 0b0000'0100);
  CHECK(b.sink.mask_of[3] == 0b0001'0000);
  CHECK(b.sink.mask_of[4] == 0b1000'0000'0000'0000);
  CHECK(b.sink.wrong_data == 0);  // and only its own words, with their data
  CHECK(b.stage.idle());
}

TEST_CASE("MaskMshrStage: transfer_bytes of a whole line makes every bypassed read a line read merged by line",
          "[multigpu][mask_mshr][granularity]") {
  MaskMshrStage::Params p;
  p.transfer_bytes = 64;
  Bench b(p);
  b.read(1, 1, kRemote, 0b0000'0001);
  b.read(3, 2, kRemote, 0b1000'0000'0000'0000);  // the other end of the line: merged
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.remote.fine_masks == std::vector<uint32_t>{0xffff});
  CHECK(b.stage.merges() == 1);
  CHECK(b.sink.mask_of[1] == 0b0000'0001);
  CHECK(b.sink.mask_of[2] == 0b1000'0000'0000'0000);
  CHECK(b.sink.wrong_data == 0);
}

TEST_CASE("MaskMshrStage: local reads take the L1 and their line fetch passes the stage unchanged",
          "[multigpu][mask_mshr]") {
  Bench b;
  b.read(1, 1, 0x2000, 0b1);
  b.read(200, 2, 0x2004, 0b10);  // a hit in the L1 after the fill
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(b.remote.line_fetches.size() == 1);
  CHECK(b.remote.fine_lines.empty());
  CHECK(b.l1.present(0x2000));
  CHECK(b.sink.answered[1] == 1);
  CHECK(b.sink.answered[2] == 1);
}

TEST_CASE("MaskMshrStage: a full table holds reads back until a response frees an entry and all are answered once",
          "[multigpu][mask_mshr]") {
  MaskMshrStage::Params p;
  p.mshr.entries = 2;
  Bench b(p, 100);
  for (unsigned i = 0; i < 6; ++i) b.read(1 + i, 10 + i, kRemote + 64 * i, 1u << i);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
  for (unsigned i = 0; i < 6; ++i) CHECK(b.sink.answered[10 + i] == 1);
  CHECK(b.sink.wrong_data == 0);
  CHECK(b.remote.fine_lines.size() == 6);
  // With 2 entries and 100 cycles per round trip the 6 reads took 3 round trips (with enough
  // entries they would all be back after one, near cycle 110).
  CHECK(b.sink.last >= sc_core::sc_time(300, sc_core::SC_NS));
  CHECK(b.stage.idle());
}

TEST_CASE("RdmaWordSelector: a fine-grained reply leaves with its words only and others pass unchanged",
          "[multigpu][word_selector]") {
  ClockDomain clk("clk", 1000);
  PayloadPool pool(64);
  tb::ScriptedInitiator src("src", clk, pool);
  RdmaWordSelector sel("sel", RdmaWordSelector::Params{});
  Collect sink("sink");
  auto& got = sink.got;
  src.out.bind(sel.in);
  sel.out.bind(sink.in);
  auto line = [](tlm::tlm_generic_payload& gp) {
    for (unsigned i = 0; i < 64; ++i) gp.get_data_ptr()[i] = static_cast<uint8_t>(i);
    gp.set_data_length(64);
  };
  src.at(1, [&](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.kind = MemKind::Read, e.is_reply = true, e.word_mask = 0b1000'0000'0000'0101;
    line(gp);
    multigpu::set_rdma_id(gp, 7);
  });
  src.at(2, [&](tlm::tlm_generic_payload& gp, MemExt& e) {  // a line reply without ID: unchanged
    e.kind = MemKind::Read, e.is_reply = true, e.word_mask = 0b1;
    line(gp);
    multigpu::clear_rdma_id(gp);
  });
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  REQUIRE(got.size() == 2);
  CHECK(got[0].len == 12);
  CHECK(got[0].data == std::vector<uint8_t>{0, 1, 2, 3, 8, 9, 10, 11, 60, 61, 62, 63});
  CHECK(got[1].len == 64);
  CHECK(sel.selected() == 1);
}

TEST_CASE("MaskMshrStage and RdmaWordSelector: bad configurations are clear errors", "[multigpu][config]") {
  ClockDomain clk("clk", 1000);
  Cache l1("l1", Bench::l1_params(), clk, 0);
  MaskMshrStage::Params p;
  p.mshr.mask_bits = 32;  // 64 B lines hold 16 words
  REQUIRE_THROWS_WITH(MaskMshrStage("s", p, clk, l1, [](const tlm::tlm_generic_payload&) { return false; }),
                      Catch::Contains("mshr.mask_bits = 32"));
  REQUIRE_THROWS_WITH(MaskMshrStage("s2", MaskMshrStage::Params{}, clk, l1, nullptr),
                      Catch::Contains("needs the SCBU's bypass decision"));
  for (unsigned t : {12u, 128u}) {
    p = {};
    p.transfer_bytes = t;
    REQUIRE_THROWS_WITH(MaskMshrStage(("s" + std::to_string(t)).c_str(), p, clk, l1,
                                      [](const tlm::tlm_generic_payload&) { return false; }),
                        Catch::Contains("transfer_bytes = " + std::to_string(t) + " must be a power of two"));
  }
  RdmaWordSelector::Params w;
  w.line_bytes = 256;
  REQUIRE_THROWS_WITH(RdmaWordSelector("w", w), Catch::Contains("line_bytes"));
}
