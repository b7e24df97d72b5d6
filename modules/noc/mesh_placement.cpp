#include "noc/mesh_placement.h"

#include <algorithm>
#include <cstdlib>

#include "common/report.h"

namespace gpusc::noc {

namespace {
// `count` positions spread evenly over [0, len).
std::vector<unsigned> spread(unsigned count, unsigned len) {
  std::vector<unsigned> v;
  for (unsigned i = 0; i < count; ++i) v.push_back(static_cast<unsigned>((2ull * i + 1) * len / (2ull * count)));
  return v;
}
}  // namespace

std::vector<unsigned> mc_placement(unsigned k, unsigned m, unsigned count, const std::string& style) {
  const char* who = "gpusc.noc.mc_placement";
  if (count == 0) return {};
  std::vector<unsigned> nodes;
  if (style == "bottom") {
    if (count > k) error(who, "bottom placement puts ", count, " MCs on a row of ", k, " nodes");
    for (unsigned x : spread(count, k)) nodes.push_back(x);
  } else if (style == "top-bottom") {
    const unsigned bot = (count + 1) / 2, top = count / 2;
    if (bot > k || m < 2) error(who, "top-bottom placement of ", count, " MCs does not fit a ", k, "x", m, " mesh");
    for (unsigned x : spread(bot, k)) nodes.push_back(x);
    for (unsigned x : spread(top, k)) nodes.push_back((m - 1) * k + x);
  } else if (style == "edge") {
    const unsigned left = (count + 1) / 2, right = count / 2;
    if (left > m || k < 2) error(who, "edge placement of ", count, " MCs does not fit a ", k, "x", m, " mesh");
    for (unsigned y : spread(left, m)) nodes.push_back(y * k);
    for (unsigned y : spread(right, m)) nodes.push_back(y * k + k - 1);
  } else if (style == "diamond") {
    const unsigned r = std::min(k, m) / 2 >= 2 ? std::min(k, m) / 2 - 1 : 0;
    const int cx = static_cast<int>(k / 2), cy = static_cast<int>(m / 2);
    std::vector<unsigned> ring;  // perimeter points, counter-clockwise from the bottom
    for (int t = 0; t < static_cast<int>(4 * r); ++t) {
      const int side = t / static_cast<int>(r), s = t % static_cast<int>(r), R = static_cast<int>(r);
      int dx = 0, dy = 0;
      if (side == 0) { dx = s; dy = -(R - s); }
      else if (side == 1) { dx = R - s; dy = s; }
      else if (side == 2) { dx = -s; dy = R - s; }
      else { dx = -(R - s); dy = -s; }
      const int x = cx + dx, y = cy + dy;
      if (x >= 0 && y >= 0 && x < static_cast<int>(k) && y < static_cast<int>(m))
        ring.push_back(static_cast<unsigned>(y) * k + static_cast<unsigned>(x));
    }
    if (count > ring.size()) error(who, "diamond placement has ", ring.size(), " places on a ", k, "x", m, " mesh, need ", count);
    for (unsigned i : spread(count, static_cast<unsigned>(ring.size()))) nodes.push_back(ring[i]);
  } else if (style == "interleaved") {
    if (count > k * m) error(who, "interleaved placement of ", count, " MCs does not fit a ", k, "x", m, " mesh");
    nodes = spread(count, k * m);
  } else if (style == "gpgpusim") {
    // GPGPU-Sim v3 intersim2's preset maps (node = row * k + column), keyed by node count and MCs.
    struct Map {
      unsigned nodes, mcs;
      std::vector<unsigned> at;
    };
    static const Map maps[] = {{16, 8, {1, 3, 4, 6, 9, 11, 12, 14}},
                               {36, 8, {3, 7, 10, 12, 23, 25, 28, 32}},
                               {64, 8, {3, 15, 17, 29, 36, 47, 49, 61}},
                               {121, 11, {12, 20, 25, 28, 57, 60, 63, 92, 95, 100, 108}}};
    for (const Map& mp : maps)
      if (mp.nodes == k * m && mp.mcs == count && k == m) nodes = mp.at;
    if (nodes.empty())
      error(who, "gpgpusim placement has no map for ", count, " MCs on a ", k, "x", m,
            " mesh; GPGPU-Sim's maps: 8 MCs on 4x4, 6x6 or 8x8, 11 MCs on 11x11");
  } else {
    error(who, "unknown MC placement '", style, "'; known: bottom, top-bottom, edge, diamond, interleaved, gpgpusim");
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace gpusc::noc
