#include "common/trace.h"

#include <iomanip>

#include <nlohmann/json.hpp>

#include "common/params.h"
#include "common/report.h"

namespace gpusc {

namespace {
// A JSON string literal (quotes and escapes) for names that come from users.
std::string quoted(const std::string& s) { return json_text(nlohmann::json(s)); }
}  // namespace

TraceWriter::TraceWriter(const std::string& path) : path_(path), out_(path) {
  if (!out_) error("gpusc.trace", "cannot write trace file '", path, "': check that the folder exists and is writable");
  // ts is in us: 6 fixed decimals keep 1 ps (the default 6 significant digits lose ps past 1 us).
  out_ << std::fixed << std::setprecision(6);
  out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  open_ = true;
}

TraceWriter::~TraceWriter() {
  if (!open_) return;
  out_ << "\n]}\n";
  out_.close();
}

void TraceWriter::close() {
  if (!open_) return;
  open_ = false;
  out_ << "\n]}\n";
  out_.close();
  if (out_.fail()) error("gpusc.trace", "writing trace file '", path_, "' failed (device full or write error)");
}

const char* TraceWriter::separator() {
  const bool first = !written_;
  written_ = true;
  return first ? "\n" : ",\n";  // between array elements only: no trailing comma, no placeholder
}

unsigned TraceWriter::track_id(const std::string& track) {
  auto [it, fresh] = tracks_.emplace(track, static_cast<unsigned>(tracks_.size() + 1));
  if (fresh && open_)
    out_ << separator() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" << it->second
         << ",\"args\":{\"name\":" << quoted(track) << "}}";
  return it->second;
}

void TraceWriter::event(char ph, const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t) {
  if (!open_) return;
  const unsigned tid = track_id(track);
  // ts in microseconds; ps resolution kept as a fraction
  out_ << separator() << "{\"ph\":\"" << ph << "\",\"cat\":" << quoted(track) << ",\"name\":" << quoted(what)
       << ",\"id\":" << id << ",\"pid\":1,\"tid\":" << tid << ",\"ts\":" << t.to_seconds() * 1e6 << "}";
  ++events_;
}

void TraceWriter::begin(const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t) {
  event('b', track, what, id, t);
}

void TraceWriter::end(const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t) {
  event('e', track, what, id, t);
}

namespace {
unsigned walk(sc_core::sc_object* o, TraceWriter* w) {
  unsigned n = 0;
  if (auto* h = dynamic_cast<TraceHook*>(o)) { h->attach(w); ++n; }
  for (sc_core::sc_object* c : o->get_child_objects()) n += walk(c, w);
  return n;
}
}  // namespace

unsigned attach_trace(TraceWriter* w, sc_core::sc_object* top) {
  if (top) return walk(top, w);
  unsigned n = 0;
  for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) n += walk(o, w);
  return n;
}

}  // namespace gpusc
