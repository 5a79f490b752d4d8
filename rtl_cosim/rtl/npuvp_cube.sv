// npuvp cube unit: one fractal step per clock cycle (SPEC.md §1.4).
//
// A step multiplies one 16 x K0 A fractal by one K0 x 16 B fractal and adds the product to a
// 16 x 16 accumulator: f16 x f16 -> f32 (K0 = 16) or s8/u8 x s8 -> s32 (K0 = 32). The
// accumulator of an output fractal stays in the unit while its steps arrive back to back:
// in_first starts it from in_c, in_last sends it to out_c. Operands and results are the
// 512 B / 1 KiB fractal images of L0A (ZZ: row-major 16 x K0), L0B (ZN: column-major K0 x 16)
// and L0C (NZ: row-major 16 x 16), byte x of a fractal at bits [8x + 7 : 8x]. So row i of A
// is in_a[256i +: 256], column j of B is in_b[256j +: 256], C(i, j) is in_c[32(16i + j) +: 32].
//
// Pipeline, 3 registers deep: stage 1 latches the step, stage 2 forms the products of the
// 256 output elements (exact), stage 3 accumulates them (16 rounded f32 additions per element
// in increasing k, or one wrapping s32 addition); out_valid/out_c follow the stage-3
// registers. A new step can enter every cycle, so an Mmad of S steps takes S + 2 cycles from
// its first step to its last result, whatever the order of its output fractals.
//
// The per-element logic is written as loops over the 256 elements (synthesis unrolls them
// into 256 lanes; Verilator keeps loops of more than 64 iterations rolled, which keeps the
// generated C++ small).
module npuvp_cube
  import npuvp_cube_pkg::*;
#(
  parameter bit ROUND_TRUNCATE = 1'b0  // 1: deliberately broken (truncates), for lockstep tests
) (
  input  logic          clk,
  input  logic          rst_n,       // synchronous, active low
  input  logic          in_valid,
  input  logic          in_first,    // first step of an output fractal: start from in_c
  input  logic          in_last,     // last step of an output fractal: emit it on out_c
  input  logic [1:0]    in_mode,     // MODE_F16, MODE_S8, MODE_U8
  input  logic [5:0]    in_kcount,   // k values of this step: 0..16 (f16), 0..32 (int8)
  input  logic [4095:0] in_a,        // A fractal (512 B)
  input  logic [4095:0] in_b,        // B fractal (512 B)
  input  logic [8191:0] in_c,        // initial accumulator fractal (1 KiB), read when in_first
  output logic          out_valid,   // out_c holds a finished output fractal this cycle
  output logic [8191:0] out_c
);

  // Stage 1: the step as it came in.
  logic s1_valid, s1_first, s1_last;
  logic [1:0] s1_mode;
  logic [31:0] s1_kmask;  // bit k: the step's k-th element is inside the Mmad's k
  logic [4095:0] s1_a, s1_b;
  logic [8191:0] s1_c;
  // Stage 2: per output element e = 16i + j, its products (f16: 16 x {invalid, exact f32}
  // in prod[528e +: 528]) or their exact sum (int8: isum[32e +: 32]), and its initial value.
  logic s2_valid, s2_first, s2_last;
  logic [1:0] s2_mode;
  logic [15:0] s2_kmask;
  /*verilator tracing_off*/  // 135 Kbit of products per cycle would swamp a waveform
  logic [135167:0] s2_prod;
  /*verilator tracing_on*/
  logic [8191:0] s2_isum;
  logic [8191:0] s2_c;
  // Stage 3: the accumulators, C(i, j) at acc[32(16i + j) +: 32]. (The per-element state is
  // kept in packed vectors: Verilator then copies it as a whole at the clock edge.)
  logic [8191:0] acc;

  function automatic logic [31:0] kmask_of(input logic [5:0] kcount);
    logic [31:0] mask;
    for (int k = 0; k < 32; k++) mask[k] = 6'(k) < kcount;
    return mask;
  endfunction

  function automatic logic [527:0] f16_products(input logic [255:0] a_row,
                                                input logic [255:0] b_col,
                                                input logic [15:0] kmask);
    logic [527:0] p;
    for (int k = 0; k < 16; k++) begin
      p[33*k +: 33] = kmask[k] ? f16_mul_exact(a_row[16*k +: 16], b_col[16*k +: 16]) : 33'd0;
    end
    return p;
  endfunction

  // Stage 1.
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s1_valid <= 1'b0;
    end else begin
      s1_valid <= in_valid;
    end
    if (in_valid) begin
      s1_first <= in_first;
      s1_last <= in_last;
      s1_mode <= in_mode;
      s1_kmask <= kmask_of(in_kcount);
      s1_a <= in_a;
      s1_b <= in_b;
      if (in_first) s1_c <= in_c;
    end
  end

  // Stage 2.
  /*verilator tracing_off*/
  logic [135167:0] prod_next;
  logic [8191:0] isum_next;
  /*verilator tracing_on*/
  always_comb begin
    prod_next = s2_prod;
    isum_next = s2_isum;
    if (s1_valid) begin
      for (int e = 0; e < 256; e++) begin
        if (s1_mode == MODE_F16) begin
          prod_next[528*e +: 528] = f16_products(s1_a[256*(e/16) +: 256],
                                                 s1_b[256*(e%16) +: 256], s1_kmask[15:0]);
        end else begin
          isum_next[32*e +: 32] = int8_dot(s1_a[256*(e/16) +: 256], s1_b[256*(e%16) +: 256],
                                           s1_kmask, s1_mode == MODE_U8);
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s2_valid <= 1'b0;
    end else begin
      s2_valid <= s1_valid;
    end
    if (s1_valid) begin
      s2_first <= s1_first;
      s2_last <= s1_last;
      s2_mode <= s1_mode;
      s2_kmask <= s1_kmask[15:0];
      if (s1_first) s2_c <= s1_c;
    end
    s2_prod <= prod_next;
    s2_isum <= isum_next;
  end

  // Stage 3.
  /*verilator tracing_off*/
  logic [8191:0] acc_next;  // = acc on the next cycle
  /*verilator tracing_on*/
  always_comb begin
    acc_next = acc;
    if (s2_valid) begin
      for (int e = 0; e < 256; e++) begin
        if (s2_mode == MODE_F16) begin
          acc_next[32*e +: 32] = f32_chain(s2_first ? s2_c[32*e +: 32] : acc[32*e +: 32],
                                           s2_prod[528*e +: 528], s2_kmask, ROUND_TRUNCATE);
        end else begin
          acc_next[32*e +: 32] = (s2_first ? s2_c[32*e +: 32] : acc[32*e +: 32])
                                 + s2_isum[32*e +: 32];
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      out_valid <= 1'b0;
    end else begin
      out_valid <= s2_valid && s2_last;
    end
    acc <= acc_next;
  end

  assign out_c = acc;

`ifndef SYNTHESIS
  // Protocol checks (simulation only).
  always_ff @(posedge clk) begin
    if (rst_n && in_valid) begin
      if (in_mode == 2'd3) $fatal(1, "npuvp_cube: illegal in_mode 3");
      if (in_kcount > ((in_mode == MODE_S8 || in_mode == MODE_U8) ? 6'd32 : 6'd16)) begin
        $error("npuvp_cube: in_kcount %0d exceeds the fractal depth", in_kcount);
      end
    end
  end
`endif

endmodule
