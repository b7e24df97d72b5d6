// Text helpers shared by the input readers: opening an input file with clear errors,
// whitespace tokenising and locale-independent number parsing (std::from_chars), so a file
// reads the same on every platform.
#pragma once
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "common/report.h"

namespace gpusc::text {

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

// Splits on spaces and tabs; a trailing '\r' (CRLF files) counts as whitespace.
inline void split(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (i < line.size()) {
    while (i < line.size() && ws(line[i])) ++i;
    const size_t b = i;
    while (i < line.size() && !ws(line[i])) ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
}

inline bool to_u64(std::string_view s, uint64_t& v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline bool to_i64(std::string_view s, int64_t& v) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline bool to_double(std::string_view s, double& v) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return o;
}

// True when the line holds only whitespace.
inline bool blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  return true;
}

}  // namespace gpusc::text
