#include "common/params.h"

#include <fstream>
#include <sstream>

#include "common/input_file.h"

namespace gpusc {
namespace detail {

std::string known_keys_sentence(const std::vector<std::string>& keys) {
  std::string s = "known keys: ";
  for (size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + keys[i];
  return s;
}

void check_range(const std::string& key, double v, const FieldInfo& fi) {
  if (v < fi.lo || v > fi.hi)
    error("gpusc.params", "parameter '", key, "' = ", v, " is out of range [", fi.lo, ", ", fi.hi, "]");
}

void check_choice(const std::string& key, const std::string& v, const FieldInfo& fi) {
  std::stringstream ss(fi.choices);
  for (std::string c; std::getline(ss, c, '|');)
    if (c == v) return;
  error("gpusc.params", "parameter '", key, "' = \"", v, "\" is not one of ", fi.choices);
}

}  // namespace detail

json parse_json(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too large for a double
    error("gpusc.params", "malformed JSON in ", what, ": ", e.what());
  }
}

json load_json_file(const std::string& path) {
  std::ifstream in;
  open_input(in, path, "gpusc.params", "configuration file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_json(ss.str(), "'" + path + "'");
}

void apply_override(json& cfg, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    error("gpusc.params", "override '", assignment, "' must look like key.path=value");
  const std::string path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;
  if (value.is_null())
    error("gpusc.params", "override '", assignment, "' would drop '", path,
          "' from the configuration (a null removes what the preset set); give the values to change");
  std::stringstream ss(path);
  std::vector<std::string> parts;
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) error("gpusc.params", "override '", assignment, "' has an empty key component");
    parts.push_back(p);
  }
  if (path.back() == '.')  // getline drops a trailing empty component
    error("gpusc.params", "override '", assignment, "' has an empty key component");
  json* node = &cfg;
  if (node->is_null()) *node = json::object();
  if (!node->is_object())
    error("gpusc.params", "override '", assignment, "': the configuration is not a section");
  std::string prefix;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    prefix += (i ? "." : "") + parts[i];
    node = &(*node)[parts[i]];
    if (node->is_null()) *node = json::object();
    if (!node->is_object())
      error("gpusc.params", "override '", assignment, "': '", prefix, "' is not a section");
  }
  (*node)[parts.back()] = value;
}

}  // namespace gpusc
