// Error reporting helpers: every configuration or protocol error is an SC_REPORT_ERROR whose
// message a user can act on (DESIGN §5). With SystemC's default actions it throws
// sc_core::sc_report, which tests catch and command lines print.
#pragma once
#include <sstream>
#include <string>

#include <systemc>

namespace gpusc {

// Builds the message from any streamable parts: error(who, "key ", k, " must be > 0").
template <class... A>
[[noreturn]] void error(const std::string& who, const A&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  SC_REPORT_ERROR(who.c_str(), os.str().c_str());
  throw std::logic_error("unreachable: SC_REPORT_ERROR returned");  // if actions were changed
}

template <class... A>
void warning(const std::string& who, const A&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  SC_REPORT_WARNING(who.c_str(), os.str().c_str());
}

}  // namespace gpusc
