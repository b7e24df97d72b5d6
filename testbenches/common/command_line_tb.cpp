// Command-line helpers: displayed reports print as one plain line, an error still throws and
// its sentence() carries no "In file:" decoration. The banner and the binaries' own output are
// checked on mesh_gpu itself (testbenches/platforms/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <string>

#include "common/command_line.h"
#include "common/report.h"

using namespace gpusc;

TEST_CASE("Command line: a warning prints as one plain line and an error throws a clean sentence") {
  cli::plain_reports("prog");
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  warning("gpu.l1", "queue of ", 4, " entries is small");
  std::cerr.rdbuf(old);
  CHECK(err.str() == "prog: warning: gpu.l1: queue of 4 entries is small\n");

  bool thrown = false;
  try {
    error("gpusc.params", "unknown parameter 'x'");
  } catch (const sc_core::sc_report& r) {
    thrown = true;
    CHECK(cli::sentence(r) == "gpusc.params: unknown parameter 'x'");
    CHECK_THAT(std::string(r.what()), Catch::Contains("In file:"));  // what SystemC composes
  }
  CHECK(thrown);
}
