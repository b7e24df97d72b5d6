// Transaction timelines in Chrome / Perfetto trace-event JSON (DESIGN §5, STYLE P12).
// A module that wants a timeline owns a TraceHook (child sc_object "trace"); nothing is
// written until a TraceWriter is attached to the hooks (attach_trace), so tracing is off by
// default and costs one pointer test per event when off. Each unit is one track (its
// hierarchical name); a transaction is an async begin/end pair keyed by its id, so
// overlapping transactions of one unit show as parallel slices.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>
#include <unordered_map>

#include <systemc>

namespace gpusc {

class TraceWriter {
 public:
  // Opens `path` for writing; an unwritable path is an SC_REPORT_ERROR naming it.
  explicit TraceWriter(const std::string& path);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void begin(const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t);
  void end(const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t);
  // Finishes the JSON (later events are dropped); a failed write (a full device) is an error
  // naming the file. The destructor closes too, without the check.
  void close();
  uint64_t events() const { return events_; }

 private:
  const char* separator();  // what goes before the next array element
  unsigned track_id(const std::string& track);
  void event(char ph, const std::string& track, const char* what, uint64_t id, const sc_core::sc_time& t);
  const std::string path_;
  std::ofstream out_;
  std::unordered_map<std::string, unsigned> tracks_;
  uint64_t events_ = 0;
  bool open_ = false;
  bool written_ = false;  // an element of traceEvents has been written
};

class TraceHook : public sc_core::sc_object {
 public:
  TraceHook() : sc_core::sc_object("trace") {}
  const char* kind() const override { return "gpusc_trace_hook"; }
  bool on() const { return w_ != nullptr; }
  void attach(TraceWriter* w) { w_ = w; }
  void begin(const char* what, uint64_t id) {
    if (w_) w_->begin(track(), what, id, sc_core::sc_time_stamp());
  }
  void end(const char* what, uint64_t id) {
    if (w_) w_->end(track(), what, id, sc_core::sc_time_stamp());
  }

 private:
  std::string track() const {
    const sc_core::sc_object* p = get_parent_object();
    return p ? p->name() : name();
  }
  TraceWriter* w_ = nullptr;
};

// Attaches w (or nullptr to detach) to every TraceHook below `top` (nullptr: whole design).
unsigned attach_trace(TraceWriter* w, sc_core::sc_object* top = nullptr);

}  // namespace gpusc
