// Every input of fuzz/corpus/<target>/ (seeds, and each input a fuzzer once broke, kept as a
// regression) through its fuzz target in the normal build: each must end normally or in the
// input's own clear error (fuzz_targets.h). A crash, an abort or an unexpected exception fails.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_targets.h"

namespace fs = std::filesystem;

TEST_CASE("fuzz corpus: every seed and regression input ends normally or in a clear error", "[fuzz]") {
  unsigned inputs = 0;
  for (const auto& t : gpusc::fuzz::targets()) {
    const fs::path dir = fs::path(GPUSC_FUZZ_CORPUS) / t.name;
    REQUIRE(fs::is_directory(dir));
    unsigned n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      std::ifstream in(e.path(), std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      INFO(t.name << ": " << e.path().filename().string());
      CHECK(t.run(bytes.data(), bytes.size()) == 0);
      ++n;
    }
    INFO(t.name);
    CHECK(n > 0);  // every target has at least its seeds
    inputs += n;
  }
  CHECK(inputs >= 5);
}
