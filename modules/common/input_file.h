// Opening a file a user names (a configuration, a matrix, a graph, a trace list) with errors that
// say what is wrong with the path: missing, a directory, unreadable, or empty. Shared by the
// configuration loader (common/params.cpp) and the input readers (workload/text_parse.h).
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "common/report.h"

namespace gpusc {

// Opens `path` for reading into `in`: a missing path, a directory, an unreadable file and an
// empty file are errors from `who` naming the path and `what` ("Matrix Market file"). Returns
// the file's size in bytes (readers bound what a header declares by it).
inline uint64_t open_input(std::ifstream& in, const std::string& path, const char* who, const char* what) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) error(who, "cannot open ", what, " '", path, "': no such file");
  if (std::filesystem::is_directory(st)) error(who, "cannot read ", what, " '", path, "': it is a directory");
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  in.open(path, std::ios::binary);
  if (!in) error(who, "cannot open ", what, " '", path, "'");
  if (!ec && bytes == 0) error(who, what, " '", path, "' is empty");
  return ec ? UINT64_MAX : bytes;
}

}  // namespace gpusc
