// dpc_compressor: the Dual Pattern Compression encoder of one 128 B line, with the two
// data-filtering variants DF-TRUC and DF-MAN (paper 002 §3.4.1.2-§3.4.1.3, Figures 3.6-3.9), as
// synthesizable Verilog-2005. Bit-exact with the C++ reference gpusc::DpcCodec::encode
// (modules/critical/dpc_codec.h), whose header defines the bit stream; the equivalence testbench
// (testbenches/rtl/dpc_rtl_equivalence_tb.cpp) checks it on random, structured and real lines.
//
// Interface: valid/ready on both sides (a beat moves on a rising edge where valid and ready are
// both high; valid, once raised, stays high with its data until the beat moves).
//   in_data  [1023:0]  the line, byte b at bits 8b+7..8b (so segment j, the little-endian 32-bit
//                      word of bytes 4j..4j+3, is in_data[32j+31:32j])
//            [1027:1024] the critical-sector map (bit s = 32 B sector s); ignored in mode 0
//            [1029:1028] the mode: 0 plain DPC, 1 DF-TRUC (Truncated format), 2 DF-MAN, 3 invalid
//   out_data [1028:0]  the bit stream, stream bit k at out_data[k] (DpcCodec's stream bit k is bit
//                      7 - k % 8 of byte k / 8); bits at and past size are zero
//            [1039:1029] size: bits on the wire (C and, Truncated, M included), at most 1029
//            [1040] compressed (C)      [1041] manipulated (DF-MAN sent the zero-filled line)
//            [1042] Truncated format    [1043] bad input: mode 3, or map 0 in DF-TRUC / DF-MAN
//                                       (DpcCodec::encode throws std::invalid_argument); the
//                                       other fields of a bad beat mean nothing
// Latency: 2 cycles. A line taken on rising edge e is in stage 1 after e and on out_data after
// e + 1 (taken at e + 2 at the earliest): one line per cycle while out_ready is high. in_ready
// = the stage-1 register is empty or moves on (it depends on out_ready combinationally; out_valid
// and out_data come straight from registers). rst is synchronous, active high: it empties both
// stages.
// Stage 1 (after the input): the view the planes are built from (the line; DF-TRUC: the critical
// sectors packed to the bottom in address order; DF-MAN: also the line with the non-critical
// sectors zeroed), the per-plane all-0 / all-1 tests of each candidate, their sizes and the
// choice (DF-MAN keeps the original unless the zero-filled line is strictly smaller).
// Stage 2: the remap (plane i = bit i of every selected segment: wiring), one field per plane
// (1 bit for a pattern plane, n = 8 x selected sectors bits otherwise), their concatenation by
// a 5-level tree of shift-and-or merges, then C | M | ES | ED or the raw fallback.
// Choices the thesis leaves open (besides DpcCodec's, which this follows bit for bit):
//   * two pipeline stages, split where the DF-MAN choice is known (the choice needs both
//     candidates' sizes, the packing needs the choice); 2 cycles is also DpcCoDec's default
//     compress_latency, so swapping this unit in for the C++ model changes no cycle;
//   * the ED fields are packed by a log-depth merge tree rather than 32 barrel shifters (same
//     result, ~40k 2:1 muxes instead of ~330k);
//   * no error output beyond `bad`: a well-formed input always has an encoding.
`default_nettype none

// Two adjacent bit fields joined: {b, a} with a's `la` low bits first (LSB-first streams).
module dpc_cat2 #(parameter W = 32, parameter LW = 6) (
  input  wire [W-1:0]    a,
  input  wire [LW-1:0]   la,
  input  wire [W-1:0]    b,
  input  wire [LW-1:0]   lb,
  output wire [2*W-1:0]  y,
  output wire [LW:0]     ly
);
  assign y = {{W{1'b0}}, a} | ({{W{1'b0}}, b} << la);
  assign ly = {1'b0, la} + {1'b0, lb};
endmodule

module dpc_compressor (
  input  wire          clk,
  input  wire          rst,
  input  wire          in_valid,
  output wire          in_ready,
  input  wire [1029:0] in_data,
  output reg           out_valid,
  input  wire          out_ready,
  output reg  [1043:0] out_data
);
  // ---------------------------------------------------------------- handshake
  reg s1_valid;
  wire s2_move = !out_valid || out_ready;  // the output register can load
  wire s1_move = !s1_valid || s2_move;     // the stage-1 register can load
  assign in_ready = s1_move;

  // ---------------------------------------------------------------- stage 1 (combinational)
  wire [1023:0] line = in_data[1023:0];
  wire [3:0]    map  = in_data[1027:1024];
  wire [1:0]    mode = in_data[1029:1028];
  wire trunc = mode == 2'd1;
  wire man   = mode == 2'd2;
  wire bad   = mode == 2'd3 || ((trunc || man) && map == 4'd0);

  // Slot of each sector in the packed view: the number of selected sectors below it.
  wire [1:0] slot1 = {1'b0, map[0]};
  wire [1:0] slot2 = {1'b0, map[0]} + {1'b0, map[1]};
  wire [1:0] slot3 = {1'b0, map[0]} + {1'b0, map[1]} + {1'b0, map[2]};
  wire [2:0] k = {2'b0, map[0]} + {2'b0, map[1]} + {2'b0, map[2]} + {2'b0, map[3]};

  wire [1023:0] packed_view;  // DF-TRUC: the critical sectors at the bottom, zeros above
  wire [1023:0] zeroed;       // DF-MAN: the non-critical sectors zeroed
  genvar q;
  generate
    for (q = 0; q < 4; q = q + 1) begin : g_sector
      assign packed_view[256*q +: 256] =
          ((map[0] && q == 0)             ? line[255:0]    : 256'd0) |
          ((map[1] && slot1 == q)         ? line[511:256]  : 256'd0) |
          ((map[2] && slot2 == q)         ? line[767:512]  : 256'd0) |
          ((map[3] && slot3 == q)         ? line[1023:768] : 256'd0);
      assign zeroed[256*q +: 256] = map[q] ? line[256*q +: 256] : 256'd0;
    end
  endgenerate

  // Bit i: plane i of view x (bit j of the plane = bit i of segment j) is all zeros or equals m.
  function [31:0] patterns;
    input [1023:0] x;
    input [31:0]   m;
    integer i, j;
    reg [31:0] p;
    begin
      for (i = 0; i < 32; i = i + 1) begin
        for (j = 0; j < 32; j = j + 1) p[j] = x[32*j + i];
        patterns[i] = p == 32'd0 || p == m;
      end
    end
  endfunction

  function [5:0] ones32;
    input [31:0] v;
    integer i;
    begin
      ones32 = 6'd0;
      for (i = 0; i < 32; i = i + 1) ones32 = ones32 + {5'd0, v[i]};
    end
  endfunction

  // Size of an encoding: header h, planes n bits wide, pattern mask p; raw when not smaller.
  function [11:0] size_of;  // {compressed, size[10:0]}
    input [2:0]  h;
    input [5:0]  n;
    input [31:0] p;
    reg [5:0]  np;
    reg [10:0] enc, raw;
    begin
      np = 6'd32 - ones32(p);
      enc = {8'd0, h} + 11'd32 + {5'd0, 6'd32 - np} + {5'd0, np} * {5'd0, n};
      raw = {8'd0, h} + {5'd0, n} * 11'd32;
      size_of = enc < raw ? {1'b1, enc} : {1'b0, raw};
    end
  endfunction

  wire [5:0]  n_a    = trunc ? {k, 3'b000} : 6'd32;
  wire [31:0] mask_a = n_a == 6'd32 ? 32'hffff_ffff : ((32'd1 << n_a) - 32'd1);
  wire [1023:0] view_a = trunc ? packed_view : line;
  wire [31:0] pat_a  = patterns(view_a, mask_a);
  wire [31:0] pat_b  = patterns(zeroed, 32'hffff_ffff);
  wire [2:0]  h      = trunc ? 3'd5 : 3'd1;
  wire [11:0] size_a = size_of(h, n_a, pat_a);
  wire [11:0] size_b = size_of(3'd1, 6'd32, pat_b);
  wire        pick_b = man && size_b[10:0] < size_a[10:0];

  // ---------------------------------------------------------------- stage-1 register
  reg [1023:0] s1_view;
  reg [31:0]   s1_pat;
  reg [5:0]    s1_n;
  reg [3:0]    s1_map;
  reg [10:0]   s1_size;
  reg          s1_comp, s1_manip, s1_trunc, s1_bad;
  always @(posedge clk) begin
    if (rst) begin
      s1_valid <= 1'b0;
    end else if (s1_move) begin
      s1_valid <= in_valid;
      if (in_valid) begin
        s1_view  <= pick_b ? zeroed : view_a;
        s1_pat   <= pick_b ? pat_b : pat_a;
        s1_n     <= pick_b ? 6'd32 : n_a;
        s1_map   <= map;
        s1_size  <= pick_b ? size_b[10:0] : size_a[10:0];
        s1_comp  <= pick_b ? size_b[11] : size_a[11];
        s1_manip <= pick_b;
        s1_trunc <= trunc;
        s1_bad   <= bad;
      end
    end
  end

  // ---------------------------------------------------------------- stage 2 (combinational)
  // Level 0: one field per plane, its bits at the bottom.
  wire [32*32-1:0] v0;
  wire [6*32-1:0]  w0;
  genvar i, j;
  generate
    for (i = 0; i < 32; i = i + 1) begin : g_field
      wire [31:0] plane;
      for (j = 0; j < 32; j = j + 1) begin : g_bit
        assign plane[j] = s1_view[32*j + i];
      end
      assign v0[32*i +: 32] = s1_pat[i] ? {31'd0, plane != 32'd0} : plane;
      assign w0[6*i +: 6]   = s1_pat[i] ? 6'd1 : s1_n;
    end
  endgenerate
  // Levels 1..5: adjacent pairs joined, field 0 first.
  wire [64*16-1:0]  v1;  wire [7*16-1:0]  w1;
  wire [128*8-1:0]  v2;  wire [8*8-1:0]   w2;
  wire [256*4-1:0]  v3;  wire [9*4-1:0]   w3;
  wire [512*2-1:0]  v4;  wire [10*2-1:0]  w4;
  wire [1023:0]     ed;  wire [10:0]      led;
  generate
    for (i = 0; i < 16; i = i + 1) begin : g_l1
      dpc_cat2 #(32, 6) c (v0[64*i +: 32], w0[12*i +: 6], v0[64*i+32 +: 32], w0[12*i+6 +: 6], v1[64*i +: 64], w1[7*i +: 7]);
    end
    for (i = 0; i < 8; i = i + 1) begin : g_l2
      dpc_cat2 #(64, 7) c (v1[128*i +: 64], w1[14*i +: 7], v1[128*i+64 +: 64], w1[14*i+7 +: 7], v2[128*i +: 128], w2[8*i +: 8]);
    end
    for (i = 0; i < 4; i = i + 1) begin : g_l3
      dpc_cat2 #(128, 8) c (v2[256*i +: 128], w2[16*i +: 8], v2[256*i+128 +: 128], w2[16*i+8 +: 8], v3[256*i +: 256], w3[9*i +: 9]);
    end
    for (i = 0; i < 2; i = i + 1) begin : g_l4
      dpc_cat2 #(256, 9) c (v3[512*i +: 256], w3[18*i +: 9], v3[512*i+256 +: 256], w3[18*i+9 +: 9], v4[512*i +: 512], w4[10*i +: 10]);
    end
  endgenerate
  dpc_cat2 #(512, 10) g_l5 (v4[511:0], w4[9:0], v4[1023:512], w4[19:10], ed, led);

  // Raw data: the view's bytes in address order, each most significant bit first.
  wire [1023:0] raw;
  generate
    for (i = 0; i < 128; i = i + 1) begin : g_raw
      for (j = 0; j < 8; j = j + 1) begin : g_rbit
        assign raw[8*i + j] = s1_view[8*i + 7 - j];
      end
    end
  endgenerate

  wire [1060:0] comp_line  = {4'd0, ed, s1_pat, 1'b1};
  wire [1060:0] comp_trunc = {ed, s1_pat, s1_map, 1'b1};
  wire [1028:0] raw_line   = {4'd0, raw, 1'b0};
  wire [1028:0] raw_trunc  = {raw, s1_map, 1'b0};
  wire [1028:0] stream = s1_comp ? (s1_trunc ? comp_trunc[1028:0] : comp_line[1028:0])
                                 : (s1_trunc ? raw_trunc : raw_line);

  // ---------------------------------------------------------------- output register
  always @(posedge clk) begin
    if (rst) begin
      out_valid <= 1'b0;
    end else if (s2_move) begin
      out_valid <= s1_valid;
      if (s1_valid) out_data <= {s1_bad, s1_trunc, s1_manip, s1_comp, s1_size, stream};
    end
  end
endmodule

`default_nettype wire
