#include "noc/network.h"

#include <sstream>

#include "common/report.h"

namespace gpusc::noc {

namespace {
std::vector<std::string> split_dash(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, '-');) out.push_back(t);
  return out;
}
}  // namespace

Network::Network(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name), p_(p), clk_(clk), routers_("router"), nis_("ni") {
  validate(p_, this->name());
  check_config();
  route_ = make_route();
  const unsigned lanes = clk_.lanes();
  for (unsigned l = 0; l < lanes; ++l) pools_.emplace_back(l + 1, lanes);
  if (lanes > 1) mail_.resize(size_t{lanes} * lanes * 2);
  build_routers();
  build_interfaces();
  if (p_.topology == "mesh") connect_mesh();
  else if (p_.topology == "ring") connect_ring();
  else connect_crossbar();
  connect_interfaces();
  if (lanes > 1)
    for (unsigned l = 0; l < lanes; ++l) clk_.at_lane_start(l, [this, l] { deliver_mail(l); });
}

// The mail other lanes sent to `lane` in the previous edge (the half not being filled now).
void Network::deliver_mail(unsigned lane) {
  const unsigned lanes = clk_.lanes(), half = clk_.exchange_half() ^ 1;
  for (unsigned from = 0; from < lanes; ++from) {
    if (from == lane) continue;
    std::vector<LaneMail>& box = mail_[(size_t{from} * lanes + lane) * 2 + half].mail;
    for (const LaneMail& m : box) m.link->deliver(m);
    box.clear();
  }
}

unsigned Network::lane_of(unsigned node) const {
  const unsigned lanes = clk_.lanes();
  if (p_.topology == "mesh") return (node / p_.k) * lanes / p_.m;
  if (p_.topology == "ring") return node * lanes / p_.k;
  return 0;
}

uint64_t Network::packets_in_flight() const {
  uint64_t n = 0;
  for (const PacketPool& p : pools_) n += p.in_flight();
  return n;
}

void Network::check_config() const {
  const unsigned n = p_.topology == "mesh" ? p_.k * p_.m : p_.k;
  if (n > DestSet::kMaxNodes)
    error(name(), "a ", p_.topology, " of ", n, " nodes exceeds the ", DestSet::kMaxNodes, "-node limit");
  if (p_.topology == "crossbar" && n > 64) error(name(), "crossbar has ", n, " ports; at most 64 are supported");
  if (p_.topology == "ring" && p_.router.vcs_per_vnet < 2)
    error(name(), "ring needs router.vcs_per_vnet >= 2 (two dateline VC classes to stay deadlock-free), got ",
          p_.router.vcs_per_vnet);
  if (p_.topology == "ring" && n < 2) error(name(), "ring needs at least 2 nodes");
  if (p_.escape_vcs > 0 && p_.topology != "mesh")
    error(name(), "escape_vcs = ", p_.escape_vcs, " is for a mesh; a ", p_.topology, " has no escape VCs");
  if (p_.escape_vcs >= p_.router.vcs_per_vnet)
    error(name(), "escape_vcs = ", p_.escape_vcs, " leaves no VC for other packets: router.vcs_per_vnet = ",
          p_.router.vcs_per_vnet, " must be larger");
  const unsigned groups = p_.topology == "mesh" ? p_.m : p_.topology == "ring" ? p_.k : 1;
  if (clk_.lanes() > 1 && p_.topology != "crossbar" && clk_.lanes() > groups)
    error(name(), "the clock domain has ", clk_.lanes(), " lanes but the ", p_.topology, " has ", groups,
          p_.topology == "mesh" ? " rows" : " nodes", " to split among them");
  if (p_.topology != "mesh" && !p_.routing.empty())
    error(name(), "routing '", p_.routing, "' is a mesh routing; a ", p_.topology,
          p_.topology == "ring" ? " routes by the shortest direction with dateline virtual channels"
                                : " routes by destination tag",
          " and takes no routing: leave routing empty");
  if (p_.topology == "mesh" && !p_.routing.empty()) {
    const auto r = split_dash(p_.routing);
    if (r.size() != 1 && r.size() != p_.router.vnets)
      error(name(), "routing '", p_.routing, "' names ", r.size(), " functions for ", p_.router.vnets,
            " virtual networks; give one, or one per virtual network");
    for (const auto& f : r)
      if (f != "xy" && f != "yx") error(name(), "routing function '", f, "' is not one of xy, yx");
  }
}

std::unique_ptr<RouteFunc> Network::make_route() const {
  if (p_.topology == "ring") return std::make_unique<RingRoute>(p_.k, p_.router.vcs_per_vnet);
  if (p_.topology == "crossbar") return std::make_unique<CrossbarRoute>(p_.router.vcs_per_vnet);
  const auto r = split_dash(p_.routing.empty() ? "xy" : p_.routing);
  std::vector<bool> yx(p_.router.vnets);
  for (unsigned v = 0; v < p_.router.vnets; ++v) yx[v] = (r.size() == 1 ? r[0] : r[v]) == "yx";
  if (p_.escape_vcs > 0) return std::make_unique<MeshEscapeRoute>(p_.k, p_.m, yx, p_.router.vcs_per_vnet, p_.escape_vcs);
  return std::make_unique<MeshDorRoute>(p_.k, p_.m, yx, p_.router.vcs_per_vnet);
}

unsigned Network::router_ports() const {
  if (p_.topology == "mesh") return 5;
  if (p_.topology == "ring") return 3;
  return p_.k;
}

void Network::build_routers() {
  const unsigned n = p_.topology == "mesh" ? p_.k * p_.m : p_.topology == "ring" ? p_.k : 1;
  const unsigned ports = router_ports();
  routers_.init(n, [&](const char* nm, size_t i) {
    return new Router(nm, p_.router, static_cast<unsigned>(i), ports, clk_, *route_, lane_of(static_cast<unsigned>(i)));
  });
}

void Network::build_interfaces() {
  const unsigned n = p_.topology == "mesh" ? p_.k * p_.m : p_.k;
  nis_.init(n, [&](const char* nm, size_t i) {
    const unsigned lane = lane_of(static_cast<unsigned>(i));
    return new NetworkInterface(nm, p_.ni, static_cast<unsigned>(i), n, p_.router.vnets, p_.router.vcs_per_vnet,
                                p_.router.vc_depth, clk_, pools_[lane], lane, p_.escape_vcs);
  });
}

FlitLink& Network::link(FlitPortOwner& up, unsigned up_port, FlitPortOwner& down, unsigned down_port) {
  FlitLink& l = links_.emplace_back();
  l.up = &up;
  l.up_port = up_port;
  l.down = &down;
  l.down_port = down_port;
  l.latency = p_.link_latency;
  l.credit_latency = p_.credit_latency;
  return l;
}

void Network::router_link(unsigned a, unsigned a_port, unsigned b, unsigned b_port) {
  FlitLink& l = link(routers_[a], a_port, routers_[b], b_port);
  if (const unsigned la = lane_of(a), lb = lane_of(b); la != lb) {
    const unsigned lanes = clk_.lanes();
    l.mail_down = &mail_[(size_t{la} * lanes + lb) * 2];
    l.mail_up = &mail_[(size_t{lb} * lanes + la) * 2];
    l.clk = &clk_;
  }
  routers_[a].connect_out(a_port, l);
  routers_[b].connect_in(b_port, l);
}

void Network::connect_mesh() {
  using P = MeshDorRoute::Port;
  for (unsigned y = 0; y < p_.m; ++y)
    for (unsigned x = 0; x < p_.k; ++x) {
      const unsigned r = y * p_.k + x;
      if (x + 1 < p_.k) {
        router_link(r, P::kEast, r + 1, P::kWest);
        router_link(r + 1, P::kWest, r, P::kEast);
      }
      if (y + 1 < p_.m) {
        router_link(r, P::kNorth, r + p_.k, P::kSouth);
        router_link(r + p_.k, P::kSouth, r, P::kNorth);
      }
    }
}

void Network::connect_ring() {
  const unsigned n = p_.k;
  for (unsigned r = 0; r < n; ++r) {
    router_link(r, 1, (r + 1) % n, 2);      // clockwise out -> arrives on the neighbour's port 2
    router_link((r + 1) % n, 2, r, 1);      // counter-clockwise back
  }
}

void Network::connect_crossbar() {}  // terminals only; see connect_interfaces

void Network::connect_interfaces() {
  const bool xbar = p_.topology == "crossbar";
  for (unsigned i = 0; i < nis_.size(); ++i) {
    Router& r = routers_[xbar ? 0 : i];
    const unsigned port = xbar ? i : 0;
    FlitLink& inj = link(nis_[i], 0, r, port);
    nis_[i].connect_inject(inj);
    r.connect_in(port, inj);
    FlitLink& ej = link(r, port, nis_[i], 0);
    r.connect_out(port, ej);
    nis_[i].connect_eject(ej);
  }
}

uint64_t Network::flit_hops() const {
  uint64_t n = 0;
  for (const Router& r : routers_) n += r.flits_switched();
  return n;
}

unsigned Network::hops(unsigned src, unsigned dst) const {
  if (p_.topology == "crossbar") return 1;
  if (p_.topology == "ring") {
    const unsigned cw = (dst + p_.k - src) % p_.k;
    return std::min(cw, p_.k - cw) + 1;
  }
  const int dx = static_cast<int>(src % p_.k) - static_cast<int>(dst % p_.k);
  const int dy = static_cast<int>(src / p_.k) - static_cast<int>(dst / p_.k);
  return static_cast<unsigned>(std::abs(dx) + std::abs(dy)) + 1;
}

void Network::set_node_map(NodeMap m) {
  for (unsigned n : m.node)
    if (n != NodeMap::kNone && n >= nodes()) error(name(), "node map names node ", n, " but the network has ", nodes());
  for (unsigned b : m.boundaries)
    if (b >= nodes()) error(name(), "node map's boundary node ", b, " but the network has ", nodes());
  node_map_ = std::move(m);
  for (auto& ni : nis_) ni.set_node_map(&node_map_);
}

void Network::set_head_hook(HeadHook* hook) {
  for (unsigned r = 0; r < routers(); ++r) routers_[r].set_head_hook(hook, nodes(), p_.escape_vcs);
}

}  // namespace gpusc::noc
