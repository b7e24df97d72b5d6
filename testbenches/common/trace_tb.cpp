// Trace: TraceHooks are off until a TraceWriter is attached; attached, they produce a valid
// Chrome/Perfetto JSON file (every traceEvents element an event, no placeholder) with one named
// track per unit and begin/end events at the simulation time of the call.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "common/params.h"
#include "common/trace.h"

using namespace gpusc;
using Catch::Contains;
using sc_core::sc_time;
using sc_core::SC_PS;

namespace {

struct TracedUnit : sc_core::sc_module {
  TraceHook trace;
  explicit TracedUnit(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
struct Gpu : sc_core::sc_module {
  TracedUnit l1{"l1"}, l2{"l2"};
  explicit Gpu(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

std::string temp_path(const char* stem) {
  const std::string file = std::string(stem) + "_" + std::to_string(getpid()) + ".json";
  return (std::filesystem::temp_directory_path() / file).string();
}

}  // namespace

TEST_CASE("Trace: an unwritable trace path is an error naming it") {
  REQUIRE_THROWS_WITH(TraceWriter("/nonexistent/dir/trace.json"), Contains("/nonexistent/dir/trace.json"));
}

TEST_CASE("Trace: attached hooks write a valid JSON timeline with one track per unit") {
  Gpu gpu("gpu");
  const std::string path = temp_path("gpusc_trace");
  {
    TraceWriter w(path);
    CHECK(attach_trace(&w) == 2);
    CHECK(gpu.l1.trace.on());
    CHECK(gpu.l2.trace.on());
    sc_core::sc_start(sc_time(10000, SC_PS));  // t = 10 ns = 0.01 us
    gpu.l1.trace.begin("read", 7);
    gpu.l2.trace.begin("fill \"A\"", 9);  // quotes in a name must not break the JSON
    sc_core::sc_start(sc_time(1224567, SC_PS));  // t = 1234567 ps = 1.234567 us
    gpu.l1.trace.end("read", 7);
    gpu.l2.trace.end("fill \"A\"", 9);
    gpu.l1.trace.begin("write", 8);
    CHECK(w.events() == 5);
    w.close();
    gpu.l1.trace.end("write", 8);  // after close(): dropped
    CHECK(w.events() == 5);
  }
  std::ifstream in(path);
  REQUIRE(in);
  const json doc = json::parse(in);  // throws (fails the test) if the file is not valid JSON
  std::remove(path.c_str());

  const json& ev = doc.at("traceEvents");
  std::map<std::string, int> tid_of;  // track name -> tid, from the metadata rows
  std::vector<json> events;
  for (const json& e : ev) {
    INFO("element " << e.dump());
    REQUIRE(e.contains("ph"));  // every element is an event: no placeholder object
    if (e.at("ph") == "M") {
      CHECK(e.at("name") == "thread_name");
      tid_of[e.at("args").at("name").get<std::string>()] = e.at("tid").get<int>();
    } else {
      events.push_back(e);
    }
  }
  REQUIRE(tid_of.size() == 2);
  REQUIRE(tid_of.count("gpu.l1") == 1);
  REQUIRE(tid_of.count("gpu.l2") == 1);
  CHECK(tid_of["gpu.l1"] != tid_of["gpu.l2"]);
  REQUIRE(events.size() == 5);
  struct Want { const char* ph; const char* track; const char* name; int id; double ts_us; };
  const Want want[] = {{"b", "gpu.l1", "read", 7, 0.01},      {"b", "gpu.l2", "fill \"A\"", 9, 0.01},
                       {"e", "gpu.l1", "read", 7, 1.234567},  {"e", "gpu.l2", "fill \"A\"", 9, 1.234567},
                       {"b", "gpu.l1", "write", 8, 1.234567}};
  for (size_t i = 0; i < events.size(); ++i) {
    INFO("event " << i << ": " << events[i].dump());
    CHECK(events[i].at("ph") == want[i].ph);
    CHECK(events[i].at("name") == want[i].name);
    CHECK(events[i].at("cat") == want[i].track);
    CHECK(events[i].at("id") == want[i].id);
    CHECK(events[i].at("tid") == tid_of[want[i].track]);
    // ps resolution: 1.234567 us must not be rounded to 1.23457 (a 430 ps error).
    CHECK(events[i].at("ts").get<double>() == Approx(want[i].ts_us).margin(1e-7));
  }
}

TEST_CASE("Trace: attach_trace below a subtree only turns on that subtree") {
  Gpu gpu("gpu");
  const std::string path = temp_path("gpusc_trace_sub");
  TraceWriter w(path);
  CHECK(attach_trace(&w, &gpu.l2) == 1);
  CHECK_FALSE(gpu.l1.trace.on());
  CHECK(gpu.l2.trace.on());
  gpu.l1.trace.begin("read", 1);
  CHECK(w.events() == 0);
  gpu.l2.trace.begin("read", 1);
  CHECK(w.events() == 1);
  w.close();
  std::remove(path.c_str());
}

TEST_CASE("Trace: with no writer attached hooks are off and write nothing") {
  Gpu gpu("gpu");
  const std::string path = temp_path("gpusc_trace_off");
  TraceWriter w(path);  // exists but is never attached
  CHECK_FALSE(gpu.l1.trace.on());
  CHECK_FALSE(gpu.l2.trace.on());
  gpu.l1.trace.begin("read", 1);
  gpu.l1.trace.end("read", 1);
  CHECK(w.events() == 0);
  // Attached then detached: off again.
  CHECK(attach_trace(&w) == 2);
  CHECK(attach_trace(nullptr) == 2);
  CHECK_FALSE(gpu.l1.trace.on());
  gpu.l2.trace.begin("read", 2);
  CHECK(w.events() == 0);
  w.close();
  std::ifstream in(path);
  const json doc = json::parse(in);
  std::remove(path.c_str());
  CHECK(doc.at("traceEvents") == json::array());  // no events, and no placeholder either
}

TEST_CASE("Trace: a trace written to a full device is an error at close, not a silent empty file", "[trace]") {
  TraceWriter w("/dev/full");
  w.begin("t", "x", 1, sc_core::SC_ZERO_TIME);
  REQUIRE_THROWS_WITH(w.close(), Catch::Contains("writing trace file '/dev/full' failed"));
}
