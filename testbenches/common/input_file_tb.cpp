// open_input (common/input_file.h): the errors a user gets for a path that is not a readable,
// non-empty file name the path, what was expected and what is wrong; a good file opens with its size.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "common/input_file.h"

using namespace gpusc;
using Catch::Contains;

namespace {

// A fresh folder of this test process, removed at the end of the test.
struct Scratch {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gpusc_input_file_tb_" + std::to_string(::getpid()));
  Scratch() { std::filesystem::create_directories(dir); }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

}  // namespace

TEST_CASE("open_input: a missing path, a folder and an empty file are errors naming the path", "[input_file]") {
  Scratch s;
  std::ifstream in;
  const std::string missing = (s.dir / "nope.mtx").string();
  REQUIRE_THROWS_WITH(open_input(in, missing, "reader", "Matrix Market file"),
                      Contains("reader") && Contains("cannot open Matrix Market file '" + missing + "': no such file"));
  REQUIRE_THROWS_WITH(open_input(in, s.dir.string(), "reader", "graph"),
                      Contains("cannot read graph '" + s.dir.string() + "': it is a directory"));
  const std::string empty = s.file("empty.json", "");
  REQUIRE_THROWS_WITH(open_input(in, empty, "loader", "configuration file"),
                      Contains("configuration file '" + empty + "' is empty"));
}

TEST_CASE("open_input: a readable file opens and its size is returned", "[input_file]") {
  Scratch s;
  const std::string path = s.file("m.txt", "%%MatrixMarket\n1 1 1\n");
  std::ifstream in;
  CHECK(open_input(in, path, "reader", "Matrix Market file") == 21);
  std::string first;
  std::getline(in, first);
  CHECK(first == "%%MatrixMarket");
}
