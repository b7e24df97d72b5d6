// Edge-list reader for SNAP-style graph files: one arc "<from> <to>" per line, separated by
// spaces or tabs, '#' (SNAP) or '%' (KONECT) comment lines, blank lines skipped, CRLF line
// endings tolerated. Vertex ids need not be contiguous: they are renumbered 0..n-1 in the
// order they are first seen (from before to on each line), so the graph has exactly as many
// vertices as distinct ids. Columns after the second (weights, timestamps) are ignored.
// Choices: a vertex seen only in a dropped self loop still exists (isolated), so the vertex
// count does not depend on the self-loop flag; each row is sorted by destination; duplicates
// are kept unless `symmetrize` (union with the reverse arcs, duplicates removed).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "workload/csr_graph.h"

namespace gpusc {

struct EdgeListOptions {
  bool symmetrize = false;      // add v -> u for every u -> v, then drop duplicate arcs
  bool keep_self_loops = true;  // keep u -> u lines
};

// Reads `path` (a missing file is an error naming it). original_ids, when given, receives the
// file's id of every vertex: original_ids[new_id].
CsrGraph read_edge_list(const std::string& path, const EdgeListOptions& opt = {},
                        std::vector<uint64_t>* original_ids = nullptr);
CsrGraph read_edge_list(std::istream& in, const std::string& name, const EdgeListOptions& opt = {},
                        std::vector<uint64_t>* original_ids = nullptr);

}  // namespace gpusc
