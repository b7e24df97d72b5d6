// Helpers for gpusc's command-line programs (platforms/*/main.cpp, examples/*): no SystemC
// banner, and messages printed as the sentence a user acts on, without the "In file:
// .../report.h:17" and "In process:" lines SystemC adds (they name gpusc's reporting helper,
// not the cause). Library code and tests are unaffected: errors still throw sc_core::sc_report.
#pragma once
#include <string>

#include <systemc>

namespace gpusc::cli {

// Sets SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 unless the environment sets it already. SystemC
// prints its banner on its way into sc_main, which is too late, so a program calls this from a
// static initializer: `const bool quiet = gpusc::cli::no_systemc_banner();` in its main.cpp.
bool no_systemc_banner();

// "who: message" of a report: its message type and message, no file, line or process.
std::string sentence(const sc_core::sc_report& r);

// Reports SystemC displays (warnings, infos) print as "<program>: warning: who: message" on
// stderr; the other actions (throw, stop, abort, count, cache) stay SystemC's. Errors throw as
// before: print them with sentence().
void plain_reports(const std::string& program);

}  // namespace gpusc::cli
