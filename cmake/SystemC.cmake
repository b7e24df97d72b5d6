# Debian ships SystemC without a CMake package: find it through pkg-config and expose
# an imported target SystemC::systemc (TLM-2.0 headers come with it).
find_package(PkgConfig REQUIRED)
pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc>=2.3.3)
add_library(SystemC::systemc ALIAS PkgConfig::SYSTEMC)
