// Configuration of the mesh GPU: overriding one key, in library use (params_from_json), through a
// preset or an overlay, or as a command-line --set over a preset, changes that key only. The
// sections MeshGpu gives defaults of its own (l1, noc, mc.l2, mc.dram) are where a section
// rebuilt from its type's defaults would show. The same check at the command line, through the
// mesh_gpu binary and its --out JSON, is the "one_key" check of mesh_gpu_runs.cmake.
#include <algorithm>

#include <catch2/catch.hpp>

#include "harness/params_checks.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"

using namespace gpusc;
using P = MeshGpu::Params;

TEST_CASE("mesh_gpu params: every key of every nested section, overridden alone, changes that key only",
          "[mesh_gpu][config]") {
  const tb::OneKeyReport r = tb::check_one_key_overrides<P>();
  for (const char* s : {"noc", "noc.router", "noc.ni", "sm", "l1", "mc", "mc.l2", "mc.dram",
                        "mc.bandwidth_memory", "mc.locality", "cta"}) {
    INFO(s);
    CHECK(std::find(r.sections.begin(), r.sections.end(), s) != r.sections.end());
  }
  CHECK(r.keys.size() > 60);
  CHECK(r.skipped.empty());
}

TEST_CASE("mesh_gpu params: mc.l2.sets alone keeps the L2, NoC and L1 defaults of the platform", "[mesh_gpu][config]") {
  const P d;
  const P p = params_from_json<P>(json{{"mc", {{"l2", {{"sets", 128}}}}}}, "");
  CHECK(p.mc.l2.sets == 128);
  CHECK(p.mc.l2.hit_latency == d.mc.l2.hit_latency);
  CHECK(p.mc.l2.hit_latency > 1);
  CHECK(p.mc.l2.write_policy == "write-back");
  CHECK(p.mc.l2.sectored == d.mc.l2.sectored);
  CHECK(p.noc.router.vc_depth == d.noc.router.vc_depth);
  CHECK(p.noc.routing == d.noc.routing);
  const P q = params_from_json<P>(json{{"noc", {{"k", 4}}}, {"l1", {{"sets", 64}}}}, "");
  CHECK(q.noc.router.vc_depth == d.noc.router.vc_depth);
  CHECK(q.noc.routing == d.noc.routing);
  CHECK(q.noc.ni.flit_bytes == d.noc.ni.flit_bytes);
  CHECK(q.l1.ways == d.l1.ways);
  CHECK(params_to_json(params_from_json<P>(json{{"mc", {{"l2", json::object()}}}}, "")) == params_to_json(d));
}

TEST_CASE("mesh_gpu params: a preset or overlay changes only the keys it names", "[mesh_gpu][config]") {
  // The effective configuration of a preset is the defaults with the preset's keys merged in:
  // a key the preset does not name keeps the platform's default, however deep its section.
  const P d;
  const json defaults = params_to_json(d);
  for (const std::string& name : mesh_gpu::preset_names()) {
    INFO("preset " << name);
    const json cfg = mesh_gpu::preset(name);
    json expected = defaults;
    expected.merge_patch(cfg);
    CHECK(json::diff(expected, params_to_json(params_from_json<P>(cfg, ""))) == json::array());
  }
}

TEST_CASE("mesh_gpu params: --set mc.l2.sets=128 over ics8x8 changes mc.l2.sets only", "[mesh_gpu][config]") {
  // What the command line does with --preset ics8x8 --set mc.l2.sets=128 (main.cpp).
  json base = mesh_gpu::preset("ics8x8"), cfg = base;
  apply_override(cfg, "mc.l2.sets=128");
  json expected = params_to_json(params_from_json<P>(base, ""));
  expected["mc"]["l2"]["sets"] = 128;
  const json got = params_to_json(params_from_json<P>(cfg, ""));
  CHECK(json::diff(expected, got) == json::array());
  const P d;
  CHECK(got["mc"]["l2"]["sectored"] == d.mc.l2.sectored);
}
