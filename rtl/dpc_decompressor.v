// dpc_decompressor: the Dual Pattern Compression decoder (paper 002 §3.4.1.2: "If the
// compression bit ... is set at 0, it restores the remaining data ... Otherwise, it begins to
// decompress into individual segments by referring to each encoding status bit"; DF-TRUC's
// decompressor restores the critical sectors from the map the reply carries, §3.4.1.3.1), as
// synthesizable Verilog-2005. Bit-exact with the C++ reference gpusc::DpcCodec::decode
// (modules/critical/dpc_codec.h, which defines the stream), including which encodings it refuses.
//
// Interface: valid/ready on both sides, as rtl/dpc_compressor.v.
//   in_data  [1028:0]  the bit stream, stream bit k at in_data[k] (dpc_compressor's out_data)
//            [1039:1029] size: the stream's length in bits
//            [1040]    Truncated format (a DF-TRUC system; C | M | ES | ED), else the Line format
//   out_data [1023:0]  the line, byte b at bits 8b+7..8b; sectors outside the map are zero
//            [1027:1024] the map of restored sectors (Line format: 1111)
//            [1028]    malformed: the fields do not end exactly at size, size > 1029, map 0 in
//                      the Truncated format, or flag C set on an encoding not smaller than the
//                      raw form (DpcCodec::decode throws DpcFormatError); the line then means
//                      nothing
// Latency: 1 cycle. An encoding taken on rising edge e is on out_data after e (taken at e + 1
// at the earliest); one per cycle while out_ready is high. in_ready = the output register is
// empty or moves on (combinational from out_ready); out_valid and out_data are registers. rst is
// synchronous, active high.
// Datapath: the header (C, and M in the Truncated format, so n = 8 x popcount(M) bits per raw
// plane), the 32 status bits ES, then the ED fields (1 bit for ES[i] = 1, n bits otherwise) cut
// apart by a 5-level tree: each level splits a run of fields at the length of its first half
// (a shift by a prefix sum of field widths). Planes -> segments is wiring (the inverse remap);
// the restored segments (or the raw bytes) are scattered back to their sectors.
// Choices the thesis leaves open (besides DpcCodec's): one cycle, the decompressor at the SM
// being on the reply's critical path (1 cycle is DpcCoDec's default decompress_latency); the
// split tree mirrors the compressor's merge tree; malformed input is flagged, not trapped.
`default_nettype none

// A run of fields split after its first `la` bits: lo = the first part, hi = what follows.
module dpc_split2 #(parameter W = 32, parameter LW = 6) (
  input  wire [2*W-1:0] x,
  input  wire [LW-1:0]  la,
  output wire [W-1:0]   lo,
  output wire [W-1:0]   hi
);
  wire [2*W-1:0] rest = x >> la;
  assign lo = x[W-1:0];
  assign hi = rest[W-1:0];
endmodule

module dpc_decompressor (
  input  wire          clk,
  input  wire          rst,
  input  wire          in_valid,
  output wire          in_ready,
  input  wire [1040:0] in_data,
  output reg           out_valid,
  input  wire          out_ready,
  output reg  [1028:0] out_data
);
  assign in_ready = !out_valid || out_ready;

  wire [1028:0] s     = in_data[1028:0];
  wire [10:0]   size  = in_data[1039:1029];
  wire          trunc = in_data[1040];
  wire          c     = s[0];
  wire [3:0]    map   = trunc ? s[4:1] : 4'hf;
  wire [31:0]   es    = trunc ? s[36:5] : s[32:1];
  wire [1023:0] ed    = trunc ? {32'd0, s[1028:37]} : {28'd0, s[1028:33]};
  wire [2:0]    k     = {2'b0, map[0]} + {2'b0, map[1]} + {2'b0, map[2]} + {2'b0, map[3]};
  wire [5:0]    n     = {k, 3'b000};
  wire [31:0]   mask  = n == 6'd32 ? 32'hffff_ffff : ((32'd1 << n) - 32'd1);

  // Length of fields [a, a + m) (m a power of two): ES = 1 fields are 1 bit, the others n.
  function [10:0] run_len;
    input [31:0] st;
    input [5:0]  nn;
    input integer a;
    input integer m;
    integer i;
    reg [10:0] len;
    begin
      len = 11'd0;
      for (i = 0; i < m; i = i + 1) len = len + (st[a + i] ? 11'd1 : {5'd0, nn});
      run_len = len;
    end
  endfunction

  // The split tree: level 5 splits all 32 fields 16 / 16, ..., level 1 pairs into single fields.
  wire [511:0]     t4;   // 2 x 512: fields 0..15, 16..31
  wire [256*4-1:0] t3;
  wire [128*8-1:0] t2;
  wire [64*16-1:0] t1;
  wire [32*32-1:0] t0;   // field i at t0[32i +: 32], its bits at the bottom
  wire [511:0]     t4_hi;
  dpc_split2 #(512, 11) g_l5 (ed, run_len(es, n, 0, 16), t4, t4_hi);
  genvar i, j;
  generate
    for (i = 0; i < 2; i = i + 1) begin : g_l4
      wire [10:0] len = run_len(es, n, 16*i, 8);
      dpc_split2 #(256, 10) sp (i == 0 ? t4 : t4_hi, len[9:0], t3[512*i +: 256], t3[512*i+256 +: 256]);
    end
    for (i = 0; i < 4; i = i + 1) begin : g_l3
      wire [10:0] len = run_len(es, n, 8*i, 4);
      dpc_split2 #(128, 9) sp (t3[256*i +: 256], len[8:0], t2[256*i +: 128], t2[256*i+128 +: 128]);
    end
    for (i = 0; i < 8; i = i + 1) begin : g_l2
      wire [10:0] len = run_len(es, n, 4*i, 2);
      dpc_split2 #(64, 8) sp (t2[128*i +: 128], len[7:0], t1[128*i +: 64], t1[128*i+64 +: 64]);
    end
    for (i = 0; i < 16; i = i + 1) begin : g_l1
      wire [10:0] len = run_len(es, n, 2*i, 1);
      dpc_split2 #(32, 7) sp (t1[64*i +: 64], len[6:0], t0[64*i +: 32], t0[64*i+32 +: 32]);
    end
  endgenerate

  // Planes, then the inverse remap: bit i of restored segment m = bit m of plane i.
  wire [1023:0] view_c;
  generate
    for (i = 0; i < 32; i = i + 1) begin : g_plane
      wire [31:0] f = t0[32*i +: 32];
      wire [31:0] plane = es[i] ? (f[0] ? mask : 32'd0) : (f & mask);
      for (j = 0; j < 32; j = j + 1) begin : g_bit
        assign view_c[32*j + i] = plane[j];
      end
    end
  endgenerate

  // Raw data: bytes in address order, most significant bit first, after the header.
  wire [1023:0] view_r;
  generate
    for (i = 0; i < 128; i = i + 1) begin : g_raw
      for (j = 0; j < 8; j = j + 1) begin : g_rbit
        assign view_r[8*i + j] = trunc ? s[8*i + 12 - j] : s[8*i + 8 - j];
      end
    end
  endgenerate
  wire [1023:0] view = c ? view_c : view_r;

  // Scatter: selected sector s takes packed slot (selected sectors below s).
  wire [1:0] slot1 = {1'b0, map[0]};
  wire [1:0] slot2 = {1'b0, map[0]} + {1'b0, map[1]};
  wire [1:0] slot3 = {1'b0, map[0]} + {1'b0, map[1]} + {1'b0, map[2]};
  wire [1023:0] line;
  assign line[255:0]    = map[0] ? view[255:0] : 256'd0;
  assign line[511:256]  = map[1] ? view[256*slot1 +: 256] : 256'd0;
  assign line[767:512]  = map[2] ? view[256*slot2 +: 256] : 256'd0;
  assign line[1023:768] = map[3] ? view[256*slot3 +: 256] : 256'd0;

  // Well-formedness, as DpcCodec::decode checks it.
  wire [2:0]  h    = trunc ? 3'd5 : 3'd1;
  wire [10:0] raw  = {8'd0, h} + {5'd0, n} * 11'd32;
  wire [10:0] enc  = {8'd0, h} + 11'd32 + run_len(es, n, 0, 32);
  wire [11:0] ends = {1'b0, c ? enc : raw};
  wire bad = size > 11'd1029 || {1'b0, size} != ends || (trunc && map == 4'd0) || (c && size >= raw);

  always @(posedge clk) begin
    if (rst) begin
      out_valid <= 1'b0;
    end else if (in_ready) begin
      out_valid <= in_valid;
      if (in_valid) out_data <= {bad, map, line};
    end
  end
endmodule

`default_nettype wire
