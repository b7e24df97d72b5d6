// Memory-controller placement on a k x m mesh (paper 001 §5.4, after Jang et al.): which nodes
// host MCs; the remaining nodes host SMs. Node id = y * k + x, y = 0 is the bottom row.
//   bottom     : all MCs on row 0, spread evenly along x
//   top-bottom : half on row 0, half on row m-1 (the odd one at the bottom), each spread
//   edge       : half on column 0, half on column k-1, spread along y
//   diamond    : spread evenly around the diamond |x - cx| + |y - cy| = r, r = min(k, m) / 2 - 1
//                (the paper names the shape only; this ring of points is our choice)
//   interleaved: spread evenly over all k*m node ids (MC i at node floor((2i + 1) k m / (2 count))):
//                no row or column of a large mesh is an MC wall, and an SM's distance to the MCs is
//                about the mesh's mean; for a die with many partitions (paper 003's monolithic
//                references: 64 partitions among 320 nodes), where rows and edges are too few
//   gpgpusim   : GPGPU-Sim v3's preset memory-node map for meshes (intersim2, use_map = 1, its
//                default), defined for (mesh nodes, MCs) = (16, 8), (36, 8), (64, 8), (121, 11):
//                e.g. a 6x6 mesh with 8 MCs (28 SMs, paper 000) has MCs at nodes 3, 7, 10, 12, 23,
//                25, 28, 32, spread so that no row or column holds more than two
// Errors when the MCs do not fit (more MCs than places, or a mesh too small for the shape).
#pragma once
#include <string>
#include <vector>

namespace gpusc::noc {

std::vector<unsigned> mc_placement(unsigned k, unsigned m, unsigned count, const std::string& style);

}  // namespace gpusc::noc
