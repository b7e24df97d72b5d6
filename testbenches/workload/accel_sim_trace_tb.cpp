// Accel-Sim trace lines (accel_sim_trace.h) one at a time: each layout and address mode, widths,
// opcode classes, and malformed lines. Expected addresses are worked out by hand in comments.
#include <catch2/catch.hpp>

#include "workload/accel_sim_trace.h"

using namespace gpusc;

namespace {

TraceKernelHeader header(unsigned version, bool lineinfo) {
  TraceKernelHeader h;
  h.tracer_version = version;
  h.lineinfo = lineinfo;
  h.shmem_base = 0x7f0000000000ull;
  return h;
}

WarpInstr parse(const std::string& line, const TraceKernelHeader& h = header(5, false)) {
  WarpInstr w;
  std::string why;
  INFO(line);
  REQUIRE(parse_trace_instruction(line, h, w, why));
  return w;
}

std::string refusal(const std::string& line, const TraceKernelHeader& h = header(5, false)) {
  WarpInstr w;
  std::string why;
  CHECK_FALSE(parse_trace_instruction(line, h, w, why));
  return why;
}

}  // namespace

TEST_CASE("accel-sim line: base + stride strides over the active lanes, holes skipped", "[trace]") {
  // Mask 0x0000000d: lanes 0, 2, 3. Lane 0 = base, lane 2 = base + 8, lane 3 = base + 16.
  const WarpInstr w = parse("0040 0000000d 1 R4 LDG.E.64.SYS 1 R2 8 1 0x1000 8 0");
  CHECK(w.op == WarpInstr::Op::Load);
  CHECK(w.access_bytes == 8);
  CHECK(w.addr[0] == 0x1000u);
  CHECK(w.addr[2] == 0x1008u);
  CHECK(w.addr[3] == 0x1010u);
  CHECK(w.pc == 0x40);
}

TEST_CASE("accel-sim line: base + deltas, negative deltas, and the list mode", "[trace]") {
  // Mask 0x7 (3 lanes): 0x2000, then +0x100 = 0x2100, then -0x200 = 0x1f00.
  const WarpInstr d = parse("0000 00000007 0 STG.E.SYS 2 R2 R3 4 2 0x2000 256 -512");
  CHECK(d.op == WarpInstr::Op::Store);
  CHECK(d.addr[1] == 0x2100u);
  CHECK(d.addr[2] == 0x1f00u);
  const WarpInstr l = parse("0000 00000005 1 R1 LDG.E.U16 1 R2 2 0 0xa 0x14");  // lanes 0 and 2, no immediate
  CHECK(l.access_bytes == 2);
  CHECK(l.addr[0] == 0xau);
  CHECK(l.addr[2] == 0x14u);
}

TEST_CASE("accel-sim line: old layout ids and line numbers come before the PC", "[trace]") {
  const WarpInstr w = parse("3 0 0 1 77 0070 00000001 1 R4 LDG.E 1 R2 4 0 0x30", header(2, true));
  CHECK(w.pc == 0x70);
  CHECK(w.addr[0] == 0x30u);
  CHECK(parse("88 0070 00000001 1 R4 LDG.E 1 R2 4 0 0x30 0", header(5, true)).pc == 0x70);
}

TEST_CASE("accel-sim line: opcode classes become memory operations or compute slots", "[trace]") {
  CHECK(parse("0 1 1 R1 ATOMG.E.ADD 1 R2 4 0 0x40 0").op == WarpInstr::Op::Atomic);
  CHECK(parse("0 1 0 RED.E.ADD 2 R2 R3 4 0 0x40 0").op == WarpInstr::Op::Atomic);
  CHECK(parse("0 1 1 R1 LDL 1 R2 4 0 0x40 0").op == WarpInstr::Op::Load);  // local memory lives in DRAM
  const WarpInstr s = parse("0 1 1 R1 LDS.U.32 1 R2 4 0 0x40 0");
  CHECK(s.op == WarpInstr::Op::Compute);
  CHECK(s.compute_cycles == kSfuCycles);
  CHECK(parse("0 1 1 R1 LD.E 1 R2 4 0 0x7f0000000040 0").op == WarpInstr::Op::Compute);  // generic, shared window
  CHECK(parse("0 1 1 R1 LD.E 1 R2 4 0 0x7e0000000040 0").op == WarpInstr::Op::Load);     // generic, outside it
  CHECK(parse("0 ffffffff 1 R1 DFMA 3 R2 R4 R6 0 0").compute_cycles == kSfuCycles);
  CHECK(parse("0 ffffffff 1 R1 FFMA 3 R2 R4 R6 0 0").compute_cycles == kAluCycles);
  CHECK(parse("0 ffffffff 1 R1 LDG.E.128 1 R2 16 1 0x100 16 0").access_bytes == 16);
  CHECK(parse("0 ffffffff 1 R1 LDG.E.S8 1 R2 1 1 0x100 1 0").access_bytes == 1);
}

TEST_CASE("accel-sim line: malformed lines say what is wrong", "[trace][errors]") {
  CHECK(refusal("0000 ffffffff") == "too few fields");
  CHECK(refusal("00g0 ffffffff 1 R1 MOV 0 0 0") == "PC is not hexadecimal");
  CHECK(refusal("0000 1ffffffff 1 R1 MOV 0 0 0") == "active mask is not a 32-bit hexadecimal number");
  CHECK(refusal("0000 ffffffff 9 R1 MOV 0 0 0") == "bad destination register count");
  CHECK(refusal("0000 ffffffff 1 R1 MOV 3 R1 0") == "bad source register count");
  CHECK(refusal("0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10") == "fewer addresses than active lanes");
  CHECK(refusal("0000 00000003 1 R1 LDG.E 1 R2 4 1 0x10 x4 0") == "stride is not a decimal number");
  CHECK(refusal("0000 00000001 1 R1 LDG.E.256 1 R2 32 1 0x10 4 0") == "unsupported access width in the opcode");
  CHECK(refusal("0000 00000001 1 R1 LDG.E 1 R2 0 0") == "memory instruction with active lanes but memory width 0");
  CHECK(refusal("0000 ffffffff 1 R1 MOV 0 0 zz") == "trailing field is not an immediate");
}
