#include "workload/edge_list_reader.h"

#include <fstream>
#include <unordered_map>

#include "common/report.h"
#include "workload/text_parse.h"

namespace gpusc {
namespace {
constexpr const char* kWho = "gpusc.workload.edge_list";
}

CsrGraph read_edge_list(const std::string& path, const EdgeListOptions& opt,
                        std::vector<uint64_t>* original_ids) {
  std::ifstream in;
  text::open_input(in, path, kWho, "edge-list file");
  return read_edge_list(in, path, opt, original_ids);
}

CsrGraph read_edge_list(std::istream& in, const std::string& name, const EdgeListOptions& opt,
                        std::vector<uint64_t>* original_ids) {
  std::unordered_map<uint64_t, uint32_t> remap;
  std::vector<uint64_t> ids;
  std::vector<CooEntry> arcs;
  auto vertex = [&](uint64_t id) {
    auto [it, fresh] = remap.emplace(id, static_cast<uint32_t>(ids.size()));
    if (fresh) {
      if (ids.size() == UINT32_MAX) error(kWho, name, ": more than 2^32-1 distinct vertex ids");
      ids.push_back(id);
    }
    return it->second;
  };
  std::string line;
  std::vector<std::string_view> t;
  uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (text::blank(line)) continue;
    text::split(line, t);
    if (t[0][0] == '#' || t[0][0] == '%') continue;
    uint64_t a = 0, b = 0;
    if (t.size() < 2)
      error(kWho, name, ":", lineno, ": expected two vertex ids '<from> <to>', got '", line, "'");
    if (!text::to_u64(t[0], a) || !text::to_u64(t[1], b))
      error(kWho, name, ":", lineno, ": vertex ids must be non-negative integers, got '", t[0], "' and '", t[1], "'");
    const uint32_t u = vertex(a), v = vertex(b);
    if (u == v && !opt.keep_self_loops) continue;
    arcs.push_back(CooEntry{u, v, 1.0f});
  }
  const auto n = static_cast<uint32_t>(ids.size());
  if (original_ids) *original_ids = std::move(ids);
  CsrGraph g = CsrGraph::from_coo(n, n, std::move(arcs), /*has_values=*/false);
  return opt.symmetrize ? g.symmetrized() : g;
}

}  // namespace gpusc
