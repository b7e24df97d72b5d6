// Text helpers shared by the input readers: opening an input file with clear errors (common/input_file.h),
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

#include "common/input_file.h"
#include "common/report.h"

namespace gpusc::text {

using gpusc::open_input;  // common/input_file.h: missing, directory, unreadable and empty files named

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
