// pcu_rgr: the request grouping registers of one packet coalescing unit (paper 001 §3.2, Figure
// 3: "RGR has 1-bit valid field, 41-bit block address field, and 64-bit destination bits field";
// 128 RGRs per PCU in §5.1, 64..1024 in §5.4), as synthesizable Verilog-2005: N registers
// searched as a block-address CAM, with the three operations stage 1 and the merge unit perform.
// Bit-exact with the C++ model gpusc::RequestGroupingRegisters (modules/coalesce/
// request_grouping_registers.h); the equivalence testbench (testbenches/rtl/
// pcu_rgr_equivalence_tb.cpp) runs both on random operation sequences.
//
// Two command ports and two response ports, valid/ready each (as rtl/dpc_compressor.v):
//   req  (a read at stage 1): req_data = {src[SW-1:0], block[BW-1:0]}. A valid RGR holding the
//        block is a hit: src's destination bit is set (unless it is already set: dup, nothing
//        changes). Otherwise the lowest-numbered free RGR below cfg_entries is allocated with the
//        block and src's bit alone; none free: full, nothing changes.
//        Response reqr_data = {full, dup, hit, index[IW-1:0]} (index: the hit or allocated RGR).
//   rel  (a read reply at the merge unit): rel_data = block. The valid RGR holding it is cleared
//        and its destination bits returned; none: found = 0.
//        Response relr_data = {dests[NODES-1:0], found, index[IW-1:0]}.
// Both commands may move on the same rising edge; the release is applied first (a read arriving
// in the cycle its block's reply is merged allocates a new RGR, as in the C++ PCU), so the
// request sees the register file without the released entry and may allocate it.
// Latency: 1 cycle: a command taken on edge e has its response on the port after e; a command
// port is ready while its response register is empty or moves on (combinational from the
// response's ready). cfg_entries (0..N) is static configuration: the number of RGRs in use, so
// one netlist serves every rgrs setting up to N. rst is synchronous, active high: every RGR
// becomes free.
// Choices the paper leaves open: "all valid RGRs are sequentially accessed" becomes a parallel
// CAM (the same result in one cycle, as the C++ PCU assumes); the free RGR taken is the lowest-
// numbered one (a priority encoder; which one is invisible outside the unit); the block field
// is BW bits (41, the paper's, by default: blocks above 2^BW cannot be held, the wrapper
// refuses them); responses are registered.
`default_nettype none

module pcu_rgr #(
  parameter N     = 128,  // RGRs
  parameter IW    = 7,    // index bits: 2^IW >= N
  parameter BW    = 41,   // block address bits (001 §3.2)
  parameter NODES = 64,   // destination bits (001 §3.2)
  parameter SW    = 6     // source id bits: 2^SW >= NODES
) (
  input  wire                   clk,
  input  wire                   rst,
  input  wire [IW:0]            cfg_entries,
  input  wire                   req_valid,
  output wire                   req_ready,
  input  wire [SW+BW-1:0]       req_data,
  output reg                    reqr_valid,
  input  wire                   reqr_ready,
  output reg  [IW+2:0]          reqr_data,
  input  wire                   rel_valid,
  output wire                   rel_ready,
  input  wire [BW-1:0]          rel_data,
  output reg                    relr_valid,
  input  wire                   relr_ready,
  output reg  [NODES+IW:0]      relr_data
);
  reg [N-1:0]       valid;
  reg [N*BW-1:0]    blocks;
  reg [N*NODES-1:0] dests;

  assign req_ready = !reqr_valid || reqr_ready;
  assign rel_ready = !relr_valid || relr_ready;
  wire req_fire = req_valid && req_ready;
  wire rel_fire = rel_valid && rel_ready;

  wire [BW-1:0] req_block = req_data[BW-1:0];
  wire [SW-1:0] req_src   = req_data[SW+BW-1:BW];
  wire [BW-1:0] rel_block = rel_data;
  wire [NODES-1:0] src_bit = {{(NODES-1){1'b0}}, 1'b1} << req_src;

  // The CAM, twice: the release's block, then the request's block without the released entry;
  // and the lowest-numbered free RGR, one-hot.
  reg [N-1:0]     rel_hit, req_hit, free, valid_after_rel, free_first;
  reg [IW-1:0]    rel_idx, req_idx, free_idx;
  reg [NODES-1:0] rel_dests, req_dests;
  integer i;
  always @* begin
    rel_idx = {IW{1'b0}};
    rel_dests = {NODES{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      rel_hit[i] = valid[i] && blocks[i*BW +: BW] == rel_block;
      if (rel_hit[i]) begin
        rel_idx = rel_idx | i[IW-1:0];
        rel_dests = rel_dests | dests[i*NODES +: NODES];
      end
    end
    valid_after_rel = valid & ~(rel_fire ? rel_hit : {N{1'b0}});
    req_idx = {IW{1'b0}};
    req_dests = {NODES{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      req_hit[i] = valid_after_rel[i] && blocks[i*BW +: BW] == req_block;
      if (req_hit[i]) begin
        req_idx = req_idx | i[IW-1:0];
        req_dests = req_dests | dests[i*NODES +: NODES];
      end
      free[i] = !valid_after_rel[i] && i < cfg_entries;
    end
    free_first = free & (~free + {{(N-1){1'b0}}, 1'b1});
    free_idx = {IW{1'b0}};
    for (i = 0; i < N; i = i + 1)
      if (free_first[i]) free_idx = free_idx | i[IW-1:0];
  end
  wire rel_found = |rel_hit;
  wire req_match = |req_hit;
  wire req_dup   = req_match && (|(req_dests & src_bit));
  wire req_full  = !req_match && !(|free);
  // What this edge writes, one enable per RGR (no address decoder).
  wire [N-1:0] alloc = (req_fire && !req_match && !req_full) ? free_first : {N{1'b0}};
  wire [N-1:0] joins = (req_fire && req_match && !req_dup) ? req_hit : {N{1'b0}};

  always @(posedge clk) begin
    for (i = 0; i < N; i = i + 1) begin
      if (alloc[i]) begin
        blocks[i*BW +: BW] <= req_block;
        dests[i*NODES +: NODES] <= src_bit;
      end else if (joins[i]) begin
        dests[i*NODES +: NODES] <= dests[i*NODES +: NODES] | src_bit;
      end
    end
    if (rst) begin
      valid <= {N{1'b0}};
      reqr_valid <= 1'b0;
      relr_valid <= 1'b0;
    end else begin
      valid <= valid_after_rel | alloc;
      if (rel_ready) begin
        relr_valid <= rel_valid;
        if (rel_fire) relr_data <= {rel_dests, rel_found, rel_idx};
      end
      if (req_ready) begin
        reqr_valid <= req_valid;
        if (req_fire) reqr_data <= {req_full, req_dup, req_match, req_match ? req_idx : free_idx};
      end
    end
  end
endmodule

`default_nettype wire
