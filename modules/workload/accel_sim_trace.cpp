#include "workload/accel_sim_trace.h"

#include <charconv>
#include <vector>

#include "common/report.h"
#include "workload/text_parse.h"

namespace gpusc {
namespace {

constexpr uint64_t kSharedWindow = uint64_t{1} << 24;  // generic addresses of shared memory [bytes]

bool hex(std::string_view s, uint64_t& v) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string_view base_of(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

// Bytes per lane from the opcode's modifiers; 0 when a width modifier is not 1, 2, 4, 8 or 16 B.
unsigned width_of(std::string_view opcode) {
  size_t i = opcode.find('.');
  while (i != std::string_view::npos) {
    const size_t j = opcode.find('.', i + 1);
    std::string_view t = opcode.substr(i + 1, j == std::string_view::npos ? j : j - i - 1);
    i = j;
    if (!t.empty() && (t[0] == 'U' || t[0] == 'S') && t.size() > 1) t.remove_prefix(1);
    uint64_t bits;
    if (!text::to_u64(t, bits)) continue;
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128 ? static_cast<unsigned>(bits / 8) : 0;
  }
  return 4;
}

enum class Kind { Global, Generic, Shared, Other };

Kind kind_of(std::string_view base, WarpInstr::Op& op) {
  if (base == "LDG" || base == "LDL" || base == "LDGSTS") return op = WarpInstr::Op::Load, Kind::Global;
  if (base == "STG" || base == "STL") return op = WarpInstr::Op::Store, Kind::Global;
  if (base == "ATOMG" || base == "RED") return op = WarpInstr::Op::Atomic, Kind::Global;
  if (base == "LD") return op = WarpInstr::Op::Load, Kind::Generic;
  if (base == "ST") return op = WarpInstr::Op::Store, Kind::Generic;
  if (base == "ATOM") return op = WarpInstr::Op::Atomic, Kind::Generic;
  if (base == "LDS" || base == "STS" || base == "ATOMS" || base == "LDSM") return Kind::Shared;
  return Kind::Other;
}

uint16_t compute_cycles(std::string_view base, Kind k) {
  if (k == Kind::Shared || base == "MUFU" || base == "BAR" || (base.size() > 1 && base[0] == 'D' &&
      (base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DSETP" || base == "DMNMX")))
    return kSfuCycles;
  return kAluCycles;
}

template <class T> bool dec(std::string_view s, T& v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

TraceKernelHeader read_trace_header(const TraceFile& f, const std::string& who) {
  TraceKernelHeader h;
  TraceFile::LineReader r(f);
  std::string line;
  bool grid = false, block = false;
  auto where = [&] { return f.path() + ":" + std::to_string(r.line_number()); };
  auto dims = [&](std::string_view v, unsigned* d) {
    // "(x,y,z)"
    if (v.size() < 7 || v.front() != '(' || v.back() != ')') return false;
    v = v.substr(1, v.size() - 2);
    for (int k = 0; k < 3; ++k) {
      const size_t c = v.find(',');
      if ((c == std::string_view::npos) != (k == 2)) return false;
      if (!dec(v.substr(0, c), d[k]) || d[k] == 0) return false;
      v = k == 2 ? std::string_view{} : v.substr(c + 1);
    }
    return true;
  };
  while (r.next(line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      h.body_offset = r.line_offset();
      h.body_line = r.line_number();
      break;
    }
    if (line[0] != '-') error(who, where(), ": expected a '-key = value' header line, got '", line, "'");
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos) error(who, where(), ": header line without ' = ': '", line, "'");
    const std::string key = line.substr(1, eq - 1);
    std::string_view v = std::string_view(line).substr(eq + 3);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    bool ok = true;
    if (key == "kernel name") h.kernel_name = std::string(v);
    else if (key == "kernel id") ok = dec(v, h.kernel_id);
    else if (key == "grid dim") ok = grid = dims(v, h.grid);
    else if (key == "block dim") ok = block = dims(v, h.block);
    else if (key == "shmem") ok = dec(v, h.shmem);
    else if (key == "nregs") ok = dec(v, h.nregs);
    else if (key == "binary version") ok = dec(v, h.binary_version);
    else if (key == "accelsim tracer version") ok = dec(v, h.tracer_version);
    else if (key == "enable lineinfo") {
      unsigned x = 0;
      ok = dec(v, x) && x <= 1;
      h.lineinfo = x == 1;
    } else if (key == "shmem base_addr") ok = hex(v, h.shmem_base);
    else if (key == "local mem base_addr") ok = hex(v, h.local_base);
    // other keys (cuda stream id, nvbit version, ...) are not needed
    if (!ok) error(who, where(), ": malformed value of '", key, "': '", std::string(v), "'");
  }
  if (h.body_line == 0) error(who, f.path(), ": no instruction section (the header is not followed by a '#' line)");
  if (!grid) error(who, f.path(), ": the header has no '-grid dim = (x,y,z)' line");
  if (!block) error(who, f.path(), ": the header has no '-block dim = (x,y,z)' line");
  return h;
}

bool parse_trace_instruction(std::string_view line, const TraceKernelHeader& h, WarpInstr& out, std::string& why) {
  thread_local std::vector<std::string_view> t;
  text::split(line, t);
  size_t i = 0;
  auto need = [&](size_t n) { return i + n <= t.size(); };
  if (h.tracer_version < 3) i += 4;  // tb x, y, z, warp of the old layout
  if (h.lineinfo) ++i;
  if (!need(4)) return why = "too few fields", false;
  uint64_t pc = 0, mask = 0;
  if (!hex(t[i++], pc)) return why = "PC is not hexadecimal", false;
  if (!hex(t[i++], mask) || mask > 0xffffffffull) return why = "active mask is not a 32-bit hexadecimal number", false;
  unsigned ndst = 0, nsrc = 0, width = 0, mode = 0;
  if (!dec(t[i++], ndst) || ndst > 8 || !need(ndst + 2)) return why = "bad destination register count", false;
  i += ndst;
  const std::string_view opcode = t[i++];
  if (!dec(t[i++], nsrc) || nsrc > 16 || !need(nsrc + 1)) return why = "bad source register count", false;
  i += nsrc;
  if (!dec(t[i++], width)) return why = "memory width is not a number", false;

  out.pc = static_cast<uint32_t>(pc);
  out.active_mask = static_cast<uint32_t>(mask);
  out.compute_cycles = 0;
  out.access_bytes = 0;
  out.op = WarpInstr::Op::Compute;
  const std::string_view base = base_of(opcode);
  WarpInstr::Op op = WarpInstr::Op::Compute;
  Kind kind = kind_of(base, op);
  if (width > 0) {
    if (!need(1) || !dec(t[i++], mode) || mode > 2) return why = "address mode is not 0, 1 or 2", false;
    const unsigned lanes = static_cast<unsigned>(__builtin_popcount(out.active_mask));
    if (mode == 0) {
      if (!need(lanes)) return why = "fewer addresses than active lanes", false;
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (out.lane_active(l) && !hex(t[i++], out.addr[l])) return why = "an address is not hexadecimal", false;
    } else {  // base (and stride) are written even when no lane is active
      uint64_t a = 0;
      int64_t step = 0;
      if (!need(1) || !hex(t[i++], a)) return why = "base address is not hexadecimal", false;
      if (mode == 1 && (!need(1) || !dec(t[i++], step))) return why = "stride is not a decimal number", false;
      bool first = true;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!out.lane_active(l)) continue;
        if (!first) {
          if (mode == 2 && (!need(1) || !dec(t[i++], step))) return why = "fewer deltas than active lanes - 1", false;
          a += static_cast<uint64_t>(step);
        }
        out.addr[l] = a;
        first = false;
      }
    }
    const unsigned bytes = width_of(opcode);
    if (bytes == 0) return why = "unsupported access width in the opcode", false;
    if (kind == Kind::Generic && lanes > 0) {
      const uint64_t a0 = out.addr[static_cast<unsigned>(__builtin_ctz(out.active_mask))];
      if (h.shmem_base != 0 && a0 >= h.shmem_base && a0 - h.shmem_base < kSharedWindow) kind = Kind::Shared;
    }
    if ((kind == Kind::Global || kind == Kind::Generic) && lanes > 0) {
      out.op = op;
      out.access_bytes = static_cast<uint8_t>(bytes);
    }
  } else if (kind == Kind::Global || kind == Kind::Generic) {
    // A global memory opcode without addresses: the tracer writes them for every memory instruction.
    if (out.active_mask != 0) return why = "memory instruction with active lanes but memory width 0", false;
  }
  if (need(2)) return why = "unexpected fields after the instruction", false;
  int64_t imm;
  uint64_t uimm;
  if (need(1) && !dec(t[i], imm) && !hex(t[i], uimm)) return why = "trailing field is not an immediate", false;
  if (out.op == WarpInstr::Op::Compute) out.compute_cycles = compute_cycles(base, kind);
  return true;
}

}  // namespace gpusc
