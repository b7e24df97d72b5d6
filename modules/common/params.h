// Params: every module's configuration is a plain struct with defaults (taken from the papers)
// plus one descriptor, describe(), that names each field once with its doc and optional range
// or choices. That single table drives loading from JSON, the unknown-key and type errors,
// range checks, the dump of the effective configuration and the generated docs (STYLE P3).
//
//   struct Params {
//     unsigned num_vcs = 4;
//     std::string routing = "xy";
//     template <class F> static void describe(F&& f) {
//       using S = Params;
//       GPUSC_PARAM_R(num_vcs, 1, 64, "virtual channels per virtual network [count]");
//       GPUSC_PARAM_C(routing, "xy|yx", "dimension-order routing function");
//     }
//   };
//
// Config key = member name. Supported field types: bool, integers, double, std::string,
// std::vector of those, nested sections (a struct with its own describe(): keys a.b.c; a
// section's defaults are those the enclosing struct gives it, which may differ from its type's),
// and `json` for a free-form object whose keys the owner checks itself when it uses them (e.g.
// the parameters of configurable stages, mem/mc_stage.h). A json field is loaded as a JSON merge
// patch over its current value, so one key still changes one key.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/report.h"

namespace gpusc {

using json = nlohmann::json;

// JSON text of `j` for messages and files. Strings may hold bytes that are not UTF-8 (a --set
// value or a path from the command line); they are shown with U+FFFD instead of making dump()
// throw, so an error about a bad value is still that error.
inline std::string json_text(const json& j, int indent = -1) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

// Field metadata handed to a describe() visitor.
struct FieldInfo {
  const char* name;
  const char* doc;
  bool has_range = false;
  double lo = 0, hi = 0;
  const char* choices = nullptr;  // "a|b|c" for string fields
};

#define GPUSC_PARAM(m, doc) f(&S::m, ::gpusc::FieldInfo{#m, doc})
#define GPUSC_PARAM_R(m, lo, hi, doc) f(&S::m, ::gpusc::FieldInfo{#m, doc, true, double(lo), double(hi)})
#define GPUSC_PARAM_C(m, choices, doc) f(&S::m, ::gpusc::FieldInfo{#m, doc, false, 0, 0, choices})

// Loading: `base` (P{} when not given) with the keys of `j` overridden. A section `j` names keeps
// the fields it does not name as they are in `base`, i.e. the enclosing struct's defaults (a
// platform's L2 keeps its own hit latency, not Cache::Params{}'s), so one key changes one key.
template <class P> P params_from_json(const json& j, const std::string& where, const P& base);
template <class P> P params_from_json(const json& j, const std::string& where);  // base: P{}
template <class P> json params_to_json(const P& p);
template <class P> void validate(const P& p, const std::string& where);
template <class P> json params_doc(const P& defaults = P{});

namespace detail {
// A nested section: a field whose type has its own describe().
struct AnyVisitor {
  template <class M> void operator()(M, const FieldInfo&) const {}
};
template <class T> struct is_section {
  template <class U> static auto test(int) -> decltype(U::describe(AnyVisitor{}), std::true_type{});
  template <class U> static std::false_type test(...);
  static constexpr bool value = decltype(test<T>(0))::value;
};
template <class T> constexpr bool is_section_t = is_section<T>::value;

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

// The type a field takes, as docs and messages name it: "unsigned integer", "list of strings".
template <class T> std::string type_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) return "unsigned integer";
  else if constexpr (std::is_integral_v<T>) return "integer";
  else if constexpr (std::is_floating_point_v<T>) return "number";
  else if constexpr (std::is_same_v<T, std::string>) return "string";
  else if constexpr (std::is_same_v<T, json>) return "JSON object";
  else if constexpr (is_section_t<T>) return "section";
  else if constexpr (is_vector<typename T::value_type>::value) return "list of lists";
  else return "list of " + type_name<typename T::value_type>() + "s";
}

// What a value of a field must be, for an error message: "an unsigned integer from 0 to
// 4294967295" (the width is why a larger value is refused), "a list of strings".
template <class T> std::string expected() {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return "an " + type_name<T>() + " from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
           std::to_string(std::numeric_limits<T>::max());
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    if constexpr (std::is_integral_v<E> && !std::is_same_v<E, bool>)
      return "a " + type_name<T>() + " from " + std::to_string(std::numeric_limits<E>::min()) + " to " +
             std::to_string(std::numeric_limits<E>::max());
    else
      return "a " + type_name<T>();
  } else {
    return "a " + type_name<T>();
  }
}

// Converts j into T or returns false (wrong type).
template <class T> bool convert(const json& j, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return false;
    out = j.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    // Any JSON integer that fits T. Not the storage type: json{{"n", 4}} built in C++ stores 4
    // as signed, while parsed text stores it as unsigned. A value that does not fit is a type
    // error, never a silent wrap-around.
    if (!j.is_number_integer()) return false;
    if (j.is_number_unsigned()) {
      const uint64_t v = j.get<uint64_t>();
      if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
      out = static_cast<T>(v);
    } else {
      const int64_t v = j.get<int64_t>();
      using L = std::numeric_limits<T>;
      if (v < 0 && (std::is_unsigned_v<T> || v < static_cast<int64_t>(L::min()))) return false;
      if (v > 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(L::max())) return false;
      out = static_cast<T>(v);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return false;
    out = j.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) return false;
    out = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, json>) {
    if (!j.is_object()) return false;
    out.merge_patch(j);  // over the current value: one key changes one key
  } else {
    static_assert(is_vector<T>::value, "unsupported Params field type");
    if (!j.is_array()) return false;
    T v;
    for (const auto& e : j) {
      typename T::value_type x{};
      if (!convert(e, x)) return false;
      v.push_back(x);
    }
    out = std::move(v);
  }
  return true;
}

std::string known_keys_sentence(const std::vector<std::string>& keys);
void check_range(const std::string& key, double v, const FieldInfo& fi);
void check_choice(const std::string& key, const std::string& v, const FieldInfo& fi);

template <class T> void check_field(const std::string& key, const T& v, const FieldInfo& fi) {
  if constexpr (is_section_t<T>) {
    validate(v, key);
  } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if (fi.has_range) check_range(key, static_cast<double>(v), fi);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (fi.choices) check_choice(key, v, fi);
  } else if constexpr (is_vector<T>::value) {
    for (const auto& x : v) check_field(key, x, fi);
  }
}

inline std::string join_key(const std::string& where, const char* name) {
  return where.empty() ? std::string(name) : where + "." + name;
}

}  // namespace detail

// Range and choice checks of an already filled struct; errors name `where.key`.
template <class P> void validate(const P& p, const std::string& where) {
  P::describe([&](auto member, const FieldInfo& fi) {
    detail::check_field(detail::join_key(where, fi.name), p.*member, fi);
  });
}

namespace detail {
// Overrides, in place, the fields of p that object j names; a nested section is overridden in
// place too, so the fields it does not name keep the values they had (the enclosing struct's
// defaults, not the section type's). Unknown key, wrong type: SC_REPORT_ERROR naming the key.
template <class P> void override_fields(P& p, const json& j, const std::string& where) {
  if (j.is_null()) return;
  if (!j.is_object())
    error("gpusc.params", "configuration '", where.empty() ? "<top>" : where, "' must be a JSON object, got ", json_text(j));
  std::vector<std::string> known;
  P::describe([&](auto, const FieldInfo& fi) { known.emplace_back(fi.name); });
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool found = false;
    P::describe([&](auto member, const FieldInfo& fi) {
      if (found || it.key() != fi.name) return;
      found = true;
      using T = std::decay_t<decltype(p.*member)>;
      if constexpr (is_section_t<T>) {
        override_fields(p.*member, it.value(), join_key(where, fi.name));
      } else if (!convert(it.value(), p.*member))
        error("gpusc.params", "parameter '", join_key(where, fi.name), "' must be ", expected<T>(), ", got ",
              json_text(it.value()));
    });
    if (!found)
      error("gpusc.params", "unknown parameter '", join_key(where, it.key().c_str()), "'; ",
            known_keys_sentence(known));
  }
}
}  // namespace detail

// `base` (P's defaults without it) overridden by the keys of object `j` (null: none); a nested
// section starts from base's value of that member, recursively. Unknown key, wrong type, value
// out of range: SC_REPORT_ERROR naming `where.key` and the known keys / allowed values.
template <class P> P params_from_json(const json& j, const std::string& where, const P& base) {
  P p = base;
  detail::override_fields(p, j, where);
  validate(p, where);
  return p;
}

template <class P> P params_from_json(const json& j, const std::string& where) {
  P p{};
  detail::override_fields(p, j, where);
  validate(p, where);
  return p;
}

// The effective values as a JSON object (key = member name).
template <class P> json params_to_json(const P& p) {
  json j = json::object();
  P::describe([&](auto member, const FieldInfo& fi) {
    using T = std::decay_t<decltype(p.*member)>;
    if constexpr (detail::is_section_t<T>) j[fi.name] = params_to_json(p.*member);
    else j[fi.name] = p.*member;
  });
  return j;
}

// Per-field documentation: [{name, type, default, doc, range|choices}], for docs and --help.
// A nested section documents the defaults it has inside `defaults`, not its type's own.
template <class P> json params_doc(const P& d) {
  json rows = json::array();
  P::describe([&](auto member, const FieldInfo& fi) {
    using T = std::decay_t<decltype(d.*member)>;
    json r = {{"name", fi.name}, {"type", detail::type_name<T>()}, {"doc", fi.doc}};
    if constexpr (detail::is_section_t<T>) r["fields"] = params_doc<T>(d.*member);
    else r["default"] = d.*member;
    if (fi.has_range) r["range"] = {fi.lo, fi.hi};
    if (fi.choices) r["choices"] = fi.choices;
    rows.push_back(r);
  });
  return rows;
}

// The descriptor of the field at `path` ("router.pipeline": sections joined by '.') of P, or none.
// For a front end that maps its own options onto fields (noc_synth's flags) and checks a value
// against the field's range or choices itself, so its message names the option, not the key.
template <class P> std::optional<FieldInfo> field_info(const std::string& path) {
  const size_t dot = path.find('.');
  const std::string head = path.substr(0, dot);
  std::optional<FieldInfo> r;
  P::describe([&](auto member, const FieldInfo& fi) {
    if (r || head != fi.name) return;
    using T = std::decay_t<decltype(std::declval<P&>().*member)>;
    if constexpr (detail::is_section_t<T>) {
      if (dot != std::string::npos) r = field_info<T>(path.substr(dot + 1));
    } else if (dot == std::string::npos) {
      r = fi;
    }
  });
  return r;
}

// Reads a JSON file; a missing or malformed file is an error naming the file and the position.
json load_json_file(const std::string& path);
// Parses JSON text; `what` names the source in the error message.
json parse_json(const std::string& text, const std::string& what);
// Applies "a.b.c=value" onto cfg. The value is parsed as JSON when it is valid JSON (4, 2.5,
// true, "x", [1,2]) and taken as a string otherwise (xy). Intermediate objects are created.
void apply_override(json& cfg, const std::string& assignment);

}  // namespace gpusc
