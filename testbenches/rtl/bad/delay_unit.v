// Not synthesizable: a delay and an initial block with a system task. scripts/synth must refuse it.
module delay_unit (input wire clk, input wire d, output reg q);
  initial begin
    q = 0;
    #5 $display("not hardware");
  end
  always @(posedge clk) q <= #1 d;
  always @(posedge clk) q <= ~d;
endmodule
