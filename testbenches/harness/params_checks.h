// Generic checks of a Params struct driven by its describe() table (modules/common/params.h).
//
// check_one_key_overrides<P>() walks the descriptor recursively. For every leaf key (a.b.c in
// nested sections too) it loads a configuration that names only that key, with a valid value
// other than its default, and checks that the effective configuration (params_to_json) is the
// default one with that single key changed. For every nested section it also loads {} and null
// for the section and checks that nothing changes. So a section rebuilt from its type's own
// defaults instead of the enclosing struct's, or any other key that moves, fails with the key.
#pragma once
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "common/params.h"

namespace gpusc::tb {

// A valid value of a field other than `d`, within its range or choices; nullopt if there is none.
template <class T> std::optional<T> other_value(const T& d, const FieldInfo& fi) {
  if constexpr (std::is_same_v<T, bool>) {
    return !d;
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    const double lo = fi.has_range ? fi.lo : double(L::lowest()), hi = fi.has_range ? fi.hi : double(L::max());
    if (d < L::max() && double(d) + 1 <= hi) return T(d + 1);
    if (d > L::lowest() && double(d) - 1 >= lo) return T(d - 1);
    return std::nullopt;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!fi.has_range) return d + 1;
    if (d < fi.hi) return d + (T(fi.hi) - d) / 2;
    if (d > fi.lo) return d - (d - T(fi.lo)) / 2;
    return std::nullopt;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!fi.choices) return d + "_other";
    std::stringstream ss(fi.choices);
    for (std::string c; std::getline(ss, c, '|');)
      if (c != d) return c;
    return std::nullopt;
  } else if constexpr (std::is_same_v<T, json>) {
    json v = d;  // a free-form object: one more key (its owner checks keys when it uses them)
    v["other_key"] = json::object();
    return v;
  } else {
    using E = typename T::value_type;
    T v = d;
    if (!v.empty())
      if (auto e = other_value<E>(v.front(), fi)) {
        v.front() = *e;
        return v;
      }
    E e{};  // an element valid on its own: the low end of the range, the first choice
    if constexpr (std::is_arithmetic_v<E> && !std::is_same_v<E, bool>) {
      if (fi.has_range) e = static_cast<E>(fi.lo);
    } else if constexpr (std::is_same_v<E, std::string>) {
      if (fi.choices) e = std::string(fi.choices).substr(0, std::string(fi.choices).find('|'));
    }
    v.push_back(e);
    return v;
  }
}

namespace detail_checks {
inline json::json_pointer pointer(const std::vector<std::string>& path) {
  json::json_pointer p;
  for (const auto& k : path) p /= k;
  return p;
}
inline std::string dotted(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& k : path) s += (s.empty() ? "" : ".") + k;
  return s;
}
// f(path, default value, FieldInfo) for every leaf; s(path) for every nested section.
template <class P, class Leaf, class Section>
void walk(const P& d, std::vector<std::string>& path, Leaf& leaf, Section& section) {
  P::describe([&](auto member, const FieldInfo& fi) {
    using T = std::decay_t<decltype(d.*member)>;
    path.emplace_back(fi.name);
    if constexpr (gpusc::detail::is_section_t<T>) {
      section(path);
      walk(d.*member, path, leaf, section);
    } else {
      leaf(path, d.*member, fi);
    }
    path.pop_back();
  });
}
}  // namespace detail_checks

struct OneKeyReport {
  std::vector<std::string> keys;      // leaf keys checked (dotted)
  std::vector<std::string> sections;  // nested sections checked (dotted)
  std::vector<std::string> skipped;   // leaf keys with no valid value other than the default
};

// The check described at the top, with Catch2 CHECKs naming the key; returns what it covered.
template <class P> OneKeyReport check_one_key_overrides() {
  OneKeyReport report;
  const P default_params;
  const json defaults = params_to_json(default_params);
  auto load = [](const json& cfg) { return params_to_json(params_from_json<P>(cfg, "")); };
  auto leaf = [&](const std::vector<std::string>& path, const auto& d, const FieldInfo& fi) {
    const std::string key = detail_checks::dotted(path);
    const auto alt = other_value(d, fi);
    if (!alt) {
      report.skipped.push_back(key);
      return;
    }
    json cfg = json::object(), expected = defaults;
    cfg[detail_checks::pointer(path)] = *alt;
    expected[detail_checks::pointer(path)] = *alt;
    INFO("configuration " << cfg.dump());
    json got;
    CHECK_NOTHROW(got = load(cfg));
    if (got.is_null()) return;
    CHECK(got[detail_checks::pointer(path)] == *alt);  // the key itself changed
    // The keys that moved besides this one, as a JSON patch from the defaults: must be none.
    CHECK(json::diff(expected, got) == json::array());
    report.keys.push_back(key);
  };
  auto section = [&](const std::vector<std::string>& path) {
    const std::string key = detail_checks::dotted(path);
    for (const json& empty : {json::object(), json()}) {
      json cfg = json::object();
      cfg[detail_checks::pointer(path)] = empty;
      INFO("configuration " << cfg.dump());
      json got;
      CHECK_NOTHROW(got = load(cfg));
      CHECK(json::diff(defaults, got) == json::array());  // the keys that moved: none
    }
    report.sections.push_back(key);
  };
  std::vector<std::string> path;
  detail_checks::walk(default_params, path, leaf, section);
  return report;
}

}  // namespace gpusc::tb
