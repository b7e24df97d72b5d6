// Params: the describe() table drives defaults, JSON loading, unknown-key/type/range/choice
// errors naming the full dotted key, overrides, the effective-config dump and the docs rows;
// one key of a nested section changes that key only (the generic check of harness/params_checks.h).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "common/params.h"
#include "harness/params_checks.h"

using namespace gpusc;
using Catch::Contains;

namespace {

struct TestParams {
  bool enabled = true;                    // unit on/off
  unsigned depth = 4;                     // queue slots [entries]
  int offset = -2;                        // signed knob [cycles]
  double rate = 0.5;                      // fraction [ratio]
  std::string policy = "lru";             // replacement policy
  std::vector<unsigned> sizes = {32, 64}; // line sizes [bytes]
  std::string label = "l1";               // free text
  template <class F> static void describe(F&& f) {
    using S = TestParams;
    GPUSC_PARAM(enabled, "unit on/off");
    GPUSC_PARAM_R(depth, 1, 64, "queue slots [entries]");
    GPUSC_PARAM_R(offset, -10, 10, "signed knob [cycles]");
    GPUSC_PARAM_R(rate, 0, 1, "fraction [ratio]");
    GPUSC_PARAM_C(policy, "lru|fifo|random", "replacement policy");
    GPUSC_PARAM_R(sizes, 1, 1024, "line sizes [bytes]");
    GPUSC_PARAM(label, "free text");
  }
};

// A unit whose configuration holds a nested section.
struct OuterParams {
  unsigned banks = 2;  // [count]
  TestParams l1;       // nested section: keys l1.depth, l1.policy, ...
  template <class F> static void describe(F&& f) {
    using S = OuterParams;
    GPUSC_PARAM_R(banks, 1, 8, "banks [count]");
    GPUSC_PARAM(l1, "first-level cache");
  }
};

TestParams load(const json& j) { return params_from_json<TestParams>(j, "gpu.l1"); }

std::string temp_path(const char* stem) {
  const std::string file = std::string(stem) + "_" + std::to_string(getpid()) + ".json";
  return (std::filesystem::temp_directory_path() / file).string();
}

}  // namespace

TEST_CASE("Params: null and empty objects give the defaults") {
  for (const json& j : {json(), json::object()}) {
    const TestParams p = load(j);
    CHECK(p.enabled);
    CHECK(p.depth == 4);
    CHECK(p.offset == -2);
    CHECK(p.rate == 0.5);
    CHECK(p.policy == "lru");
    CHECK(p.sizes == std::vector<unsigned>{32, 64});
    CHECK(p.label == "l1");
  }
}

TEST_CASE("Params: every field type loads from JSON") {
  const TestParams p = load(json::parse(R"({"enabled": false, "depth": 64, "offset": -10, "rate": 1,
      "policy": "random", "sizes": [1, 1024, 128], "label": "l1.5"})"));
  CHECK_FALSE(p.enabled);
  CHECK(p.depth == 64);    // upper bound is inclusive
  CHECK(p.offset == -10);  // lower bound is inclusive
  CHECK(p.rate == 1.0);    // an integer is a valid double
  CHECK(p.policy == "random");
  CHECK(p.sizes == std::vector<unsigned>{1, 1024, 128});
  CHECK(p.label == "l1.5");
  // Built in C++ rather than parsed, json stores a non-negative integer as signed.
  CHECK(load(json{{"depth", 8}}).depth == 8);
  CHECK(load(json{{"sizes", {16u, 8}}}).sizes == std::vector<unsigned>{16, 8});
}

TEST_CASE("Params: an unknown key names the full key and lists all known keys") {
  REQUIRE_THROWS_WITH(load(json{{"dept", 3}}),
                      Contains("unknown parameter 'gpu.l1.dept'") &&
                          Contains("known keys: enabled, depth, offset, rate, policy, sizes, label"));
  // At the top level the key has no prefix.
  REQUIRE_THROWS_WITH(params_from_json<TestParams>(json{{"x", 1}}, ""), Contains("unknown parameter 'x'"));
}

TEST_CASE("Params: a value of the wrong type names the full key and the expected type") {
  REQUIRE_THROWS_WITH(load(json{{"depth", "4"}}), Contains("'gpu.l1.depth'") && Contains("unsigned integer"));
  REQUIRE_THROWS_WITH(load(json{{"depth", -1}}), Contains("'gpu.l1.depth'") && Contains("unsigned integer"));
  REQUIRE_THROWS_WITH(load(json{{"offset", 4.5}}), Contains("'gpu.l1.offset'") && Contains("integer"));
  REQUIRE_THROWS_WITH(load(json{{"depth", 4.5}}), Contains("'gpu.l1.depth'"));
  REQUIRE_THROWS_WITH(load(json{{"enabled", 1}}), Contains("'gpu.l1.enabled'") && Contains("bool"));
  REQUIRE_THROWS_WITH(load(json{{"rate", "0.5"}}), Contains("'gpu.l1.rate'") && Contains("number"));
  REQUIRE_THROWS_WITH(load(json{{"policy", 3}}), Contains("'gpu.l1.policy'") && Contains("string"));
  REQUIRE_THROWS_WITH(load(json::parse(R"({"sizes": [32, "64"]})")),
                      Contains("'gpu.l1.sizes' must be a list of unsigned integers from 0 to 4294967295"));
  REQUIRE_THROWS_WITH(load(json{{"sizes", 32}}), Contains("'gpu.l1.sizes'"));
  REQUIRE_THROWS_WITH(load(json::array()), Contains("'gpu.l1' must be a JSON object"));
}

TEST_CASE("Params: integers too large for the field are errors not silent wrap-around") {
  // 2^32 = 4294967296 does not fit a 32-bit unsigned: as a cast it would become depth 0 ...
  // The message gives the field's width, which is why a larger value is refused.
  REQUIRE_THROWS_WITH(load(json::parse(R"({"depth": 4294967296})")),
                      Contains("'gpu.l1.depth' must be an unsigned integer from 0 to 4294967295, got 4294967296"));
  // ... and 2^32 + 4 would become 4, which passes the range check.
  REQUIRE_THROWS_WITH(load(json::parse(R"({"depth": 4294967300})")), Contains("'gpu.l1.depth'"));
  REQUIRE_THROWS_WITH(load(json::parse(R"({"offset": 4294967298})")),
                      Contains("'gpu.l1.offset' must be an integer from -2147483648 to 2147483647"));
  REQUIRE_THROWS_WITH(load(json::parse(R"({"offset": -4294967294})")), Contains("'gpu.l1.offset'"));
  REQUIRE_THROWS_WITH(load(json::parse(R"({"sizes": [4294967328]})")), Contains("'gpu.l1.sizes'"));
}

TEST_CASE("Params: values out of range or not among the choices name key value and bounds") {
  REQUIRE_THROWS_WITH(load(json{{"depth", 65}}), Contains("'gpu.l1.depth' = 65 is out of range [1, 64]"));
  REQUIRE_THROWS_WITH(load(json{{"depth", 0}}), Contains("'gpu.l1.depth' = 0 is out of range [1, 64]"));
  REQUIRE_THROWS_WITH(load(json{{"offset", -11}}),
                      Contains("'gpu.l1.offset' = -11 is out of range [-10, 10]"));
  REQUIRE_THROWS_WITH(load(json{{"rate", 1.5}}), Contains("'gpu.l1.rate' = 1.5 is out of range [0, 1]"));
  REQUIRE_THROWS_WITH(load(json::parse(R"({"sizes": [32, 2048]})")),
                      Contains("'gpu.l1.sizes' = 2048 is out of range [1, 1024]"));
  REQUIRE_THROWS_WITH(load(json{{"policy", "plru"}}),
                      Contains("'gpu.l1.policy' = \"plru\" is not one of lru|fifo|random"));
  // validate() applies the same checks to a struct filled in code.
  TestParams p;
  p.depth = 100;
  REQUIRE_THROWS_WITH(validate(p, "gpu.l2"), Contains("'gpu.l2.depth' = 100"));
}

TEST_CASE("Params: malformed JSON text and a missing file are errors naming the source") {
  REQUIRE_THROWS_WITH(parse_json("{\"depth\": 4,", "preset mesh"), Contains("malformed JSON in preset mesh"));
  REQUIRE_THROWS_WITH(load_json_file("/nonexistent/gpusc/cfg.json"),
                      Contains("cannot open configuration file '/nonexistent/gpusc/cfg.json'"));
  const std::string bad = temp_path("gpusc_params_bad");
  std::ofstream(bad) << "{\"depth\": }";
  REQUIRE_THROWS_WITH(load_json_file(bad), Contains("malformed JSON in '" + bad + "'"));
  std::remove(bad.c_str());

  const std::string good = temp_path("gpusc_params_good");
  std::ofstream(good) << R"({"l1": {"depth": 16}})";
  const json cfg = load_json_file(good);
  std::remove(good.c_str());
  CHECK(load(cfg["l1"]).depth == 16);
}

TEST_CASE("Params: a configuration file that is a folder or empty is an error saying so") {
  const std::string dir = temp_path("gpusc_params_dir");
  std::filesystem::create_directory(dir);
  REQUIRE_THROWS_WITH(load_json_file(dir), Contains("cannot read configuration file '" + dir + "': it is a directory"));
  std::filesystem::remove(dir);
  const std::string empty = temp_path("gpusc_params_empty");
  std::ofstream{empty};
  REQUIRE_THROWS_WITH(load_json_file(empty), Contains("configuration file '" + empty + "' is empty"));
  std::remove(empty.c_str());
}

TEST_CASE("Params: an override to null is refused, not a silent removal of the section") {
  json cfg = {{"mc", {{"depth", 2}}}};
  REQUIRE_THROWS_WITH(apply_override(cfg, "mc=null"), Contains("would drop 'mc'"));
  REQUIRE_THROWS_WITH(apply_override(cfg, "mc.depth=null"), Contains("would drop 'mc.depth'"));
  CHECK(cfg["mc"]["depth"] == 2);
}

TEST_CASE("Params: apply_override sets nested keys numbers strings and arrays") {
  json cfg = {{"gpu", {{"l1", {{"label", "keep"}, {"depth", 2}}}}}};
  apply_override(cfg, "gpu.l1.depth=8");          // replaces an existing value
  apply_override(cfg, "gpu.l1.rate=0.25");        // JSON number
  apply_override(cfg, "gpu.l1.policy=fifo");      // not JSON: taken as the string fifo
  apply_override(cfg, "gpu.l1.sizes=[16,32]");    // JSON array
  apply_override(cfg, "gpu.l1.enabled=false");    // JSON bool
  apply_override(cfg, "gpu.l2.label=\"a=b\"");    // quoted JSON string, '=' after the first one
  apply_override(cfg, "top=3");                   // one component
  CHECK(cfg["gpu"]["l1"]["depth"] == 8);
  CHECK(cfg["gpu"]["l1"]["rate"] == 0.25);
  CHECK(cfg["gpu"]["l1"]["policy"] == "fifo");
  CHECK(cfg["gpu"]["l1"]["sizes"] == json::array({16, 32}));
  CHECK(cfg["gpu"]["l1"]["enabled"] == false);
  CHECK(cfg["gpu"]["l1"]["label"] == "keep");  // siblings untouched
  CHECK(cfg["gpu"]["l2"]["label"] == "a=b");   // intermediate section created
  CHECK(cfg["top"] == 3);
  const TestParams p = load(cfg["gpu"]["l1"]);
  CHECK(p.depth == 8);
  CHECK(p.rate == 0.25);
  CHECK(p.policy == "fifo");
  CHECK(p.sizes == std::vector<unsigned>{16, 32});
  CHECK_FALSE(p.enabled);
}

TEST_CASE("Params: bad override syntax is an error") {
  json cfg = {{"gpu", {{"depth", 4}}}};
  REQUIRE_THROWS_WITH(apply_override(cfg, "noequals"), Contains("'noequals' must look like key.path=value"));
  REQUIRE_THROWS_WITH(apply_override(cfg, "=4"), Contains("'=4' must look like key.path=value"));
  REQUIRE_THROWS_WITH(apply_override(cfg, "a..b=1"), Contains("'a..b=1' has an empty key component"));
  REQUIRE_THROWS_WITH(apply_override(cfg, ".a=1"), Contains("empty key component"));
  REQUIRE_THROWS_WITH(apply_override(cfg, "a.=1"), Contains("empty key component"));
  REQUIRE_THROWS_WITH(apply_override(cfg, "gpu.depth.x=1"), Contains("'gpu.depth' is not a section"));
  CHECK(cfg == json{{"gpu", {{"depth", 4}}}});  // nothing half-applied
}

TEST_CASE("Params: params_to_json round trips through params_from_json") {
  TestParams p;
  p.enabled = false;
  p.depth = 9;
  p.offset = 7;
  p.rate = 0.125;
  p.policy = "fifo";
  p.sizes = {8, 16, 24};
  p.label = "x";
  const json j = params_to_json(p);
  CHECK(j.size() == 7);
  CHECK(j["depth"] == 9);
  const TestParams q = load(j);
  CHECK(q.enabled == p.enabled);
  CHECK(q.depth == p.depth);
  CHECK(q.offset == p.offset);
  CHECK(q.rate == p.rate);
  CHECK(q.policy == p.policy);
  CHECK(q.sizes == p.sizes);
  CHECK(q.label == p.label);
  CHECK(params_to_json(q) == j);
}

TEST_CASE("Params: params_doc has one row per field in declaration order") {
  const json rows = params_doc<TestParams>();
  REQUIRE(rows.size() == 7);
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r["name"].get<std::string>());
  CHECK(names == std::vector<std::string>{"enabled", "depth", "offset", "rate", "policy", "sizes", "label"});
  CHECK(rows[0]["type"] == "bool");
  CHECK(rows[0]["default"] == true);
  CHECK_FALSE(rows[0].contains("range"));
  CHECK(rows[1]["type"] == "unsigned integer");
  CHECK(rows[1]["default"] == 4);
  CHECK(rows[1]["range"] == json::array({1.0, 64.0}));
  CHECK(rows[1]["doc"] == "queue slots [entries]");
  CHECK(rows[2]["type"] == "integer");
  CHECK(rows[2]["default"] == -2);
  CHECK(rows[3]["type"] == "number");
  CHECK(rows[4]["type"] == "string");
  CHECK(rows[4]["choices"] == "lru|fifo|random");
  CHECK(rows[5]["type"] == "list of unsigned integers");
  CHECK(rows[5]["default"] == json::array({32, 64}));
  CHECK(rows[6]["default"] == "l1");
  CHECK_FALSE(rows[6].contains("choices"));
  CHECK_FALSE(rows[6].contains("range"));
}

TEST_CASE("Params: a nested section loads dumps documents and names its keys") {
  const OuterParams d = params_from_json<OuterParams>(json::parse(R"({"l1": {"depth": 16}})"), "gpu");
  CHECK(d.banks == 2);
  CHECK(d.l1.depth == 16);
  CHECK(d.l1.policy == "lru");  // untouched fields of the section keep their defaults
  CHECK(params_from_json<OuterParams>(json::parse(R"({"l1": null})"), "gpu").l1.depth == 4);
  REQUIRE_THROWS_WITH(params_from_json<OuterParams>(json::parse(R"({"l1": {"dept": 1}})"), "gpu"),
                      Contains("unknown parameter 'gpu.l1.dept'") && Contains("known keys: enabled, depth"));
  REQUIRE_THROWS_WITH(params_from_json<OuterParams>(json::parse(R"({"l1": {"depth": 99}})"), "gpu"),
                      Contains("'gpu.l1.depth' = 99 is out of range [1, 64]"));
  REQUIRE_THROWS_WITH(params_from_json<OuterParams>(json::parse(R"({"l1": 3})"), "gpu"),
                      Contains("'gpu.l1' must be a JSON object"));
  OuterParams p;
  p.l1.rate = 0.75;
  const json j = params_to_json(p);
  CHECK(j["l1"]["rate"] == 0.75);
  CHECK(j["banks"] == 2);
  CHECK(params_to_json(params_from_json<OuterParams>(j, "gpu")) == j);
  p.l1.depth = 0;
  REQUIRE_THROWS_WITH(validate(p, "gpu"), Contains("'gpu.l1.depth' = 0"));
  const json doc = params_doc<OuterParams>();
  REQUIRE(doc.size() == 2);
  CHECK(doc[1]["name"] == "l1");
  CHECK(doc[1]["type"] == "section");
  CHECK_FALSE(doc[1].contains("default"));
  CHECK(doc[1]["fields"] == params_doc<TestParams>());
}

namespace {

// Sections whose enclosing struct gives them defaults other than their type's own (as MeshGpu
// does for its L1, NoC and, inside the memory partition, L2), two levels deep.
struct MidParams {
  unsigned ways = 4;                       // [count]
  TestParams cache = cache_defaults();     // nested, non-T{} defaults
  template <class F> static void describe(F&& f) {
    using S = MidParams;
    GPUSC_PARAM_R(ways, 1, 32, "ways [count]");
    GPUSC_PARAM(cache, "a cache with its own defaults");
  }
  static TestParams cache_defaults() {
    TestParams t;
    t.enabled = false;
    t.depth = 8;
    t.policy = "fifo";
    t.sizes = {16};
    return t;
  }
};

struct TopParams {
  double mhz = 1000;                       // [MHz]
  MidParams mem = mem_defaults();          // nested twice, defaults set at both levels
  TestParams l1;                           // nested, the type's own defaults
  template <class F> static void describe(F&& f) {
    using S = TopParams;
    GPUSC_PARAM_R(mhz, 1, 1e5, "clock [MHz]");
    GPUSC_PARAM(mem, "memory side");
    GPUSC_PARAM(l1, "first-level cache");
  }
  static MidParams mem_defaults() {
    MidParams m;
    m.ways = 16;
    m.cache.depth = 32;
    m.cache.rate = 0.25;
    return m;
  }
};

}  // namespace

TEST_CASE("Params: one key of a nested section keeps the enclosing struct's defaults of the others") {
  const TopParams d;
  const TopParams p = params_from_json<TopParams>(json::parse(R"({"mem": {"cache": {"label": "l2"}}})"), "gpu");
  CHECK(p.mem.cache.label == "l2");
  CHECK(p.mem.ways == 16);                 // TopParams::mem_defaults, not MidParams{}
  CHECK(p.mem.cache.depth == 32);          // TopParams::mem_defaults
  CHECK(p.mem.cache.rate == 0.25);
  CHECK(p.mem.cache.policy == "fifo");     // MidParams::cache_defaults, not TestParams{}
  CHECK_FALSE(p.mem.cache.enabled);
  CHECK(p.mem.cache.sizes == std::vector<unsigned>{16});
  CHECK(params_to_json(params_from_json<TopParams>(json::parse(R"({"mem": {"ways": 16}})"), "gpu")) ==
        params_to_json(d));
  CHECK(params_to_json(params_from_json<TopParams>(json::parse(R"({"mem": null})"), "gpu")) == params_to_json(d));
  CHECK(params_to_json(params_from_json<TopParams>(json::parse(R"({"mem": {"cache": {}}})"), "gpu")) ==
        params_to_json(d));
  // An explicit base: the keys of j override it, the rest is kept.
  TestParams base;
  base.depth = 60;
  base.label = "base";
  const TestParams q = params_from_json<TestParams>(json{{"rate", 1.0}}, "x", base);
  CHECK(q.depth == 60);
  CHECK(q.label == "base");
  CHECK(q.rate == 1.0);
  // The docs show the defaults a section has where it sits.
  const json doc = params_doc<TopParams>();
  REQUIRE(doc[1]["name"] == "mem");
  CHECK(doc[1]["fields"][0]["default"] == 16);
  REQUIRE(doc[1]["fields"][1]["name"] == "cache");
  CHECK(doc[1]["fields"][1]["fields"][1]["default"] == 32);
  CHECK(doc[1]["fields"][1]["fields"][4]["default"] == "fifo");
}

TEST_CASE("Params: every key of every nested section, overridden alone, changes that key only") {
  const tb::OneKeyReport r = tb::check_one_key_overrides<TopParams>();
  CHECK(r.sections == std::vector<std::string>{"mem", "mem.cache", "l1"});
  CHECK(r.keys.size() == 1 + 1 + 7 + 7);  // mhz, mem.ways, mem.cache.*, l1.*
  CHECK(r.skipped.empty());
}

TEST_CASE("Params: a --set value with bytes that are not UTF-8 gives the field's own clear error") {
  // Found by scripts/fuzz (fuzz/corpus/config/crash-9187...): the error message dumped the bad
  // value with json::dump(), which threw a type_error that no one caught.
  json cfg = json::object();
  apply_override(cfg, std::string("depth=0H\x80H"));
  CHECK_THROWS_WITH(params_from_json<TestParams>(cfg, "q"), Catch::Contains("q.depth") && Catch::Contains("\xEF\xBF\xBD"));
  CHECK(json_text(cfg) == "{\"depth\":\"0H\xEF\xBF\xBDH\"}");
}

TEST_CASE("Params: a JSON number too large for a double is malformed JSON, not an uncaught exception") {
  // Found by scripts/fuzz (fuzz/corpus/config/crash-5036...): nlohmann throws out_of_range for
  // '1e999', which parse_json did not catch.
  CHECK_THROWS_WITH(parse_json("{\"depth\": 551.1e111111110}", "the test text"),
                    Catch::Contains("malformed JSON in the test text") && Catch::Contains("number overflow"));
  json cfg = json::object();
  apply_override(cfg, "depth=1e999");  // not JSON: taken as the string, refused by the field's type
  CHECK_THROWS_WITH(params_from_json<TestParams>(cfg, "q"), Catch::Contains("q.depth"));
}

TEST_CASE("Params: field_info finds a field's descriptor by its key path, sections included") {
  const auto depth = field_info<OuterParams>("l1.depth");
  REQUIRE(depth);
  CHECK(std::string(depth->name) == "depth");
  CHECK((depth->has_range && depth->lo == 1 && depth->hi == 64));
  const auto policy = field_info<OuterParams>("l1.policy");
  REQUIRE(policy);
  CHECK(std::string(policy->choices) == "lru|fifo|random");
  CHECK(field_info<OuterParams>("banks")->hi == 8);
  CHECK_FALSE(field_info<OuterParams>("l1"));        // a section, not a field
  CHECK_FALSE(field_info<OuterParams>("l1.nope"));
  CHECK_FALSE(field_info<OuterParams>("banks.x"));   // a field has no sub-keys
  CHECK_FALSE(field_info<OuterParams>(""));
}
