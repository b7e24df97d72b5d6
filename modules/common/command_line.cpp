#include "common/command_line.h"

#include <cstdlib>
#include <iostream>

namespace gpusc::cli {

namespace {
std::string& program_name() {
  static std::string name;
  return name;
}

const char* severity_word(sc_core::sc_severity s) {
  switch (s) {
    case sc_core::SC_INFO: return "info";
    case sc_core::SC_WARNING: return "warning";
    case sc_core::SC_ERROR: return "error";
    default: return "fatal error";
  }
}

void plain_handler(const sc_core::sc_report& r, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY)
    std::cerr << program_name() << ": " << severity_word(r.get_severity()) << ": " << sentence(r) << std::endl;
  sc_core::sc_report_handler::default_handler(r, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

bool no_systemc_banner() { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0) == 0; }

std::string sentence(const sc_core::sc_report& r) { return std::string(r.get_msg_type()) + ": " + r.get_msg(); }

void plain_reports(const std::string& program) {
  program_name() = program;
  sc_core::sc_report_handler::set_handler(plain_handler);
}

}  // namespace gpusc::cli
