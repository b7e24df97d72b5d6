// Paper 000's probing wired into the mesh GPU through the SM-side stage chain
// (gpu/sm_front_stage.h, sm_front.stages = ["probe"]): on the small platform (hpca6x6 shrunk to a
// 4x4 mesh, 12 SMs + 4 MCs, separate request and reply networks) every load is answered exactly
// once with probing on, every unit drains, probes answer only reads, and the summary carries the
// probe lines (oracle runs labelled as such).
// The 'probe' SM-side stage comes from probe/probe_stages.h (register_probe_stages), through
// platforms/paper_stages.h.
#include <catch2/catch.hpp>

#include "platforms/mesh_gpu_fixture.h"
#include "probe/last_sharer_llc.h"
#include "probe/probe_handler.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {

json probe_overlay(const std::string& sharing, unsigned c, unsigned s, double p, const std::string& selector) {
  return {{"sm_front",
           {{"stages", {"probe"}},
            {"stage_params", {{"probe", {{"sharing", sharing}, {"c", c}, {"s", s}, {"p", p}, {"selector", selector}}}}}}}};
}

// Router-level deflection (§III-F) as the hpca6x6 overlays configure it: on an escape VC of the
// request network (noc.escape_vcs); `incoming` = incoming probe queue size.
json router_deflection(json overlay, unsigned incoming) {
  auto& probe = overlay["sm_front"]["stage_params"]["probe"];
  probe["deflection"] = "router";
  probe["incoming_queue"] = incoming;
  overlay["noc"] = {{"escape_vcs", 1}, {"router", {{"vcs_per_vnet", 2}}}};
  return overlay;
}

const json kSmall = {{"size", "small"}};

struct Sums {
  double reads = 0, probed = 0, nonshared = 0, remote = 0, l2 = 0, writes_atomics = 0, probes = 0, data_sent = 0,
         data_recv = 0;
};

Sums check_handlers(GpuBench& b) {
  Sums s;
  for (unsigned i = 0; i < b.gpu.sm_count(); ++i) {
    INFO("SM " << i);
    auto& n = b.gpu.block().sm(i);
    REQUIRE(n.front_count() == 1);
    const auto& h = dynamic_cast<const probe::ProbeHandler&>(n.front(0));
    REQUIRE(h.idle());
    REQUIRE(h.outstanding_probes() == 0);
    s.reads += double(h.stat("read_misses"));
    s.probed += double(h.stat("probed_misses"));
    s.nonshared += double(h.stat("nonshared_reads"));
    s.remote += double(h.stat("remote_answers"));
    s.l2 += double(h.stat("selective_l2_answers"));
    s.writes_atomics += double(h.stat("writes_atomics"));
    s.probes += double(h.stat("probes_sent"));
    s.data_sent += double(h.stat("data_replies_sent"));
    s.data_recv += double(h.stat("data_replies_received"));
  }
  // Every probed miss answered once: by a remote L1 or by the L2; every line read the L1 sent
  // down is a read miss seen here; writes and atomics all passed through unprobed.
  CHECK(s.reads == s.probed + s.nonshared);
  CHECK(s.remote + s.l2 == s.probed);
  CHECK(s.reads == b.sum_over_l1s(".fetches"));
  CHECK(s.writes_atomics == b.sum_over_l1s(".writes") + b.sum_over_l1s(".atomics"));
  CHECK(s.data_sent == s.data_recv);
  return s;
}

json run_answered_once(const json& overlay, const std::string& kernel) {
  GpuBench b(small_params("hpca6x6", overlay), kernel, kSmall);
  REQUIRE(b.run(5000000));
  require_drained_and_answered_once(b);
  const Sums s = check_handlers(b);
  INFO(kernel << ": reads " << s.reads << " probed " << s.probed << " remote " << s.remote);
  CHECK(s.probed > 0);
  const json m = b.gpu.mechanism_summary();
  CHECK(m.contains("probe_remote_hit_rate"));
  CHECK(m.at("probe_remote_hit_rate").get<double>() == Approx(s.remote / s.reads));
  return m;
}

}  // namespace

TEST_CASE("mesh_gpu probe: IP oracle on bfs: every load answered once, all drained", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("oracle", 6, 2, 0.2, "supplier"), "bfs");
}
TEST_CASE("mesh_gpu probe: IP oracle on spmv: every load answered once, all drained", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("oracle", 6, 2, 0.2, "supplier"), "spmv");
}
TEST_CASE("mesh_gpu probe: IP oracle on polybench-gemm: every load answered once, all drained", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("oracle", 6, 2, 0.2, "supplier"), "polybench-gemm");
}
TEST_CASE("mesh_gpu probe: IP oracle on 2mm, router deflection on the escape VC: every load answered once, all drained",
          "[mesh_gpu][probe][deflection]") {
  // On one VC the turns a redirect adds deadlocked this run's request network (before 2026-12).
  const json m = run_answered_once(router_deflection(probe_overlay("oracle", 6, 2, 0.2, "supplier"), 2), "2mm");
  CHECK(m.at("probe_deflections").get<double>() > 0);
}
TEST_CASE("mesh_gpu probe: RP predictor on bfs: every load answered once, all drained", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("predictor", 5, 2, 0.5, "supplier"), "bfs");
}
TEST_CASE("mesh_gpu probe: RP predictor on 2mm: every load answered once, all drained", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("predictor", 5, 2, 0.5, "supplier"), "2mm");
}
TEST_CASE("mesh_gpu probe: CCN-like RP(11,1,1) index selector on spmv: every load answered once", "[mesh_gpu][probe]") {
  run_answered_once(probe_overlay("predictor", 11, 1, 1, "index"), "spmv");
}

TEST_CASE("mesh_gpu probe: with every read probed, writes and atomics still never are (histogram)", "[mesh_gpu][probe]") {
  GpuBench b(small_params("hpca6x6", probe_overlay("always", 4, 2, 0.5, "supplier")), "histogram", kSmall);
  REQUIRE(b.run(5000000));
  require_drained_and_answered_once(b);
  const Sums s = check_handlers(b);
  REQUIRE(b.sum_over_l1s(".atomics") > 0);
  CHECK(s.probed > 0);         // always: read misses probed (those finding 32 probed requests out go to the L2) ...
  CHECK(s.writes_atomics > 0); // ... and every write / atomic went to the L2 untouched
}

TEST_CASE("mesh_gpu probe: the summary labels oracle sharing and splits reply bytes", "[mesh_gpu][probe]") {
  GpuBench b(small_params("hpca6x6", probe_overlay("oracle", 6, 2, 0.2, "supplier")), "2mm", kSmall);
  REQUIRE(b.run(5000000));
  const json m = b.gpu.mechanism_summary();
  CHECK(m.at("probe_sharing").get<std::string>().rfind("ORACLE", 0) == 0);
  CHECK(m.at("probe_scheme").get<std::string>() == "IP(6,2,0.2) supplier selector");
  CHECK(m.at("probe_reply_bytes_remote").get<double>() > 0);
  CHECK(m.at("probe_reply_bytes_l2").get<double>() > 0);
  CHECK(!m.contains("probe_predictor_precision"));  // no predictor in an oracle run
  CHECK(b.gpu.params().sm_front.stage_params.at("probe").at("c") == 6);
}

TEST_CASE("mesh_gpu probe: without SM-side stages no probe line and an empty chain", "[mesh_gpu][probe]") {
  GpuBench b(small_params("hpca6x6"), "2mm", kSmall);
  REQUIRE(b.run(5000000));
  require_drained_and_answered_once(b);
  CHECK(b.gpu.block().sm(0).front_count() == 0);
  CHECK(!b.gpu.mechanism_summary().contains("probe_remote_hit_rate"));
}

TEST_CASE("mesh_gpu probe: an unknown SM-side stage is an error naming the known ones", "[mesh_gpu][probe]") {
  REQUIRE_THROWS_WITH(GpuBench(small_params("hpca6x6", {{"sm_front", {{"stages", {"prob"}}}}}), "2mm", kSmall),
                      Catch::Contains("unknown SM-side stage 'prob'") && Catch::Contains("known stages: probe"));
}

// LA-LLC (probe/last_sharer_llc.h): every L2-hit read whose last sharer is another core is
// forwarded there; each forward ends either as the sharer's data at the requester or as the read
// back at its partition, which then serves it: exactly one answer per load, no probes of the cores.
TEST_CASE("mesh_gpu probe: LA-LLC forwards L2-hit reads to the last sharer, each answered once", "[mesh_gpu][probe][la_llc]") {
  json overlay = probe_overlay("never", 1, 1, 1, "supplier");
  overlay["mc"] = {{"stages", {"la_llc"}}};
  GpuBench b(small_params("hpca6x6", overlay), "bfs", kSmall);
  REQUIRE(b.run(5000000));
  require_drained_and_answered_once(b);
  double forwards = 0, returned = 0;
  for (unsigned i = 0; i < b.gpu.block().mc_count(); ++i) {
    const auto* st = dynamic_cast<const probe::LastSharerLlc*>(b.gpu.block().mc(i).stage("la_llc"));
    REQUIRE(st);
    REQUIRE(st->idle());
    forwards += double(st->forwards());
    returned += double(st->returned());
  }
  double received = 0, sent = 0, remote = 0, probes = 0, reads = 0;
  for (unsigned i = 0; i < b.gpu.sm_count(); ++i) {
    const auto& h = dynamic_cast<const probe::ProbeHandler&>(b.gpu.block().sm(i).front(0));
    REQUIRE(h.idle());
    received += double(h.stat("llc_forwards_received"));
    sent += double(h.stat("data_replies_sent"));
    remote += double(h.stat("remote_answers"));
    probes += double(h.stat("probes_sent"));
    reads += double(h.stat("read_misses"));
  }
  INFO("forwards " << forwards << " returned " << returned << " sharer hits " << sent);
  CHECK(forwards > 0);
  CHECK(returned > 0);              // some sharers evicted the line meanwhile
  CHECK(received == forwards);      // every forward reached its sharer
  CHECK(sent + returned == forwards);  // ... and ended as data or as the read back at the L2
  CHECK(remote == sent);            // each sharer's data answered its requester
  CHECK(probes == 0);               // the cores themselves never probe
  CHECK(reads == b.sum_over_l1s(".fetches"));
  const json m = b.gpu.mechanism_summary();
  CHECK(m.at("la_llc_precision").get<double>() == Approx(sent / forwards));
}

// LA-LLC is the L2's read policy (Cache::set_read_policy), not a stage on the message paths: it
// adds no queue or latch in front of the L2 (an earlier model's queues alone made histogram 7.6%
// faster with nothing forwarded).
TEST_CASE("mesh_gpu probe: LA-LLC adds no queue to a partition: its ports are its L2's own", "[mesh_gpu][probe][la_llc]") {
  json overlay = probe_overlay("never", 1, 1, 1, "supplier");
  overlay["mc"] = {{"stages", {"la_llc"}}};
  GpuBench b(small_params("hpca6x6", overlay), "bfs", kSmall);
  REQUIRE(b.gpu.block().mc_count() > 0);
  for (unsigned i = 0; i < b.gpu.block().mc_count(); ++i) {
    auto& mc = b.gpu.block().mc(i);
    REQUIRE(mc.stage("la_llc"));
    CHECK(&mc.in() == &mc.l2().up_in);
    CHECK(&mc.out() == &mc.l2().up_out);
  }
}
