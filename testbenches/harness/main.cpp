// Catch2 runner for gpusc testbenches. ctest runs one TEST_CASE per process (catch_discover_tests)
// because SystemC cannot elaborate a second design in the same process.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <systemc>

// libsystemc references sc_main; testbenches elaborate and run SystemC from inside test cases,
// so the library's own main (which would call this) is never used.
int sc_main(int, char*[]) { return 0; }
