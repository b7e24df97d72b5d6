// Not synthesizable as a flip-flop design: q is a latch (assigned only while en is high in a
// combinational block). scripts/synth must refuse it (testbenches/rtl/CMakeLists.txt).
module latch_unit (input wire en, input wire d, output reg q);
  always @* if (en) q = d;
endmodule
