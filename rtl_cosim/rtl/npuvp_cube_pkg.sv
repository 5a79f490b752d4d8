// Arithmetic of the npuvp cube unit (SPEC.md §1.4), as functions that synthesise to
// combinational logic. Every function is exact where the contract says exact and rounds to
// nearest-even where it says so; the NaN rules are those of the C++ model (cube_unit.cpp):
//   - a NaN input is quieted and keeps its sign and payload (f16 payload << 13);
//   - when both multiplicands are NaN, A's NaN wins; a NaN multiplicand wins over a NaN
//     accumulator; a NaN accumulator wins over an invalid operation;
//   - an invalid operation (inf * 0, inf - inf) gives the x86 default NaN 0xFFC00000.
package npuvp_cube_pkg;

  localparam logic [1:0] MODE_F16 = 2'd0;  // f16 x f16 -> f32
  localparam logic [1:0] MODE_S8 = 2'd1;   // s8 x s8 -> s32
  localparam logic [1:0] MODE_U8 = 2'd2;   // u8 x s8 -> s32

  localparam logic [31:0] F32_DEFAULT_NAN = 32'hFFC0_0000;

  // Leading zeros of a 32-bit value (32 for zero), as a binary search.
  function automatic logic [5:0] lzc32(input logic [31:0] value);
    logic [31:0] x;
    logic [5:0] n;
    x = value;
    n = 6'd0;
    if (x == 32'd0) begin
      n = 6'd32;
    end else begin
      if (x[31:16] == 16'd0) begin n = n + 6'd16; x = {x[15:0], 16'd0}; end
      if (x[31:24] == 8'd0) begin n = n + 6'd8; x = {x[23:0], 8'd0}; end
      if (x[31:28] == 4'd0) begin n = n + 6'd4; x = {x[27:0], 4'd0}; end
      if (x[31:30] == 2'd0) begin n = n + 6'd2; x = {x[29:0], 2'd0}; end
      if (x[31] == 1'b0) n = n + 6'd1;
    end
    return n;
  endfunction

  // The exact product of two halves as {invalid, f32}. Every product of two finite halves is
  // a normal f32 (its magnitude is in [2^-48, 2^32)) or zero, so no rounding happens here.
  // invalid = 1 for inf * 0 (the f32 part is then 0); a NaN operand gives its quiet NaN.
  function automatic logic [32:0] f16_mul_exact(input logic [15:0] a, input logic [15:0] b);
    logic a_nan, b_nan, a_inf, b_inf, a_zero, b_zero, sign;
    logic [10:0] ma, mb;
    logic [7:0] ea, eb;
    logic [21:0] p;
    logic [5:0] lz;
    logic [20:0] pn;
    logic [7:0] exponent;
    a_nan = (a[14:10] == 5'h1F) && (a[9:0] != 10'd0);
    b_nan = (b[14:10] == 5'h1F) && (b[9:0] != 10'd0);
    a_inf = (a[14:10] == 5'h1F) && (a[9:0] == 10'd0);
    b_inf = (b[14:10] == 5'h1F) && (b[9:0] == 10'd0);
    a_zero = a[14:0] == 15'd0;
    b_zero = b[14:0] == 15'd0;
    sign = a[15] ^ b[15];
    if (a_nan) return {1'b0, a[15], 8'hFF, 1'b1, a[8:0], 13'd0};
    if (b_nan) return {1'b0, b[15], 8'hFF, 1'b1, b[8:0], 13'd0};
    if (a_inf || b_inf) begin
      if (a_zero || b_zero) return {1'b1, 32'd0};
      return {1'b0, sign, 8'hFF, 23'd0};
    end
    if (a_zero || b_zero) return {1'b0, sign, 31'd0};
    // Significands with the hidden bit; a subnormal has exponent 1 and no hidden bit.
    ma = {a[14:10] != 5'd0, a[9:0]};
    mb = {b[14:10] != 5'd0, b[9:0]};
    ea = {3'd0, (a[14:10] == 5'd0) ? 5'd1 : a[14:10]};
    eb = {3'd0, (b[14:10] == 5'd0) ? 5'd1 : b[14:10]};
    p = ma * mb;  // value = p * 2^(ea + eb - 30 - 20)
    lz = lzc32({p, 10'd0});
    pn = 21'(p << lz);  // the fraction: the hidden bit (bit 21) shifted out
    // Biased f32 exponent: (ea - 15) + (eb - 15) + 1 - lz + 127, in [79, 158].
    exponent = ea + eb + 8'd98 - {2'd0, lz};
    return {1'b0, sign, exponent, pn, 2'd0};
  endfunction

  // x + y for two f32 that are not NaN and not infinities of opposite signs, rounded to
  // nearest-even (or toward zero when `truncate`, the deliberately broken variant).
  function automatic logic [31:0] f32_add(input logic [31:0] x, input logic [31:0] y,
                                          input logic truncate);
    logic x_big, sign;
    logic [31:0] greater, lesser;
    logic [7:0] eb, es;
    logic [8:0] d, e;
    logic [53:0] aligned;
    logic [26:0] mbig, msmall, r;
    logic [27:0] sum;
    logic [5:0] lz;
    logic [8:0] shift;
    logic inc;
    logic [24:0] m;
    if (x[30:23] == 8'hFF) return x;  // inf + finite, or inf + inf of the same sign
    if (y[30:23] == 8'hFF) return y;
    if (x[30:0] == 31'd0 && y[30:0] == 31'd0) return {x[31] & y[31], 31'd0};
    if (x[30:0] == 31'd0) return y;
    if (y[30:0] == 31'd0) return x;
    x_big = x[30:0] >= y[30:0];  // the encoding orders magnitudes
    greater = x_big ? x : y;
    lesser = x_big ? y : x;
    sign = greater[31];
    eb = (greater[30:23] == 8'd0) ? 8'd1 : greater[30:23];
    es = (lesser[30:23] == 8'd0) ? 8'd1 : lesser[30:23];
    d = {1'b0, eb} - {1'b0, es};
    // 24-bit significands followed by guard, round and sticky bits.
    mbig = {greater[30:23] != 8'd0, greater[22:0], 3'd0};
    msmall = {lesser[30:23] != 8'd0, lesser[22:0], 3'd0};
    if (d >= 9'd27) begin
      r = 27'd1;  // entirely below the round bit: sticky only (not zero)
    end else begin
      aligned = {msmall, 27'd0} >> d[4:0];
      r = aligned[53:27] | {26'd0, aligned[26:0] != 27'd0};
    end
    e = {1'b0, eb};
    if (greater[31] == lesser[31]) begin
      sum = {1'b0, mbig} + {1'b0, r};
      if (sum[27]) begin
        r = sum[27:1] | {26'd0, sum[0]};
        e = e + 9'd1;
      end else begin
        r = sum[26:0];
      end
    end else begin
      r = mbig - r;
      if (r == 27'd0) return 32'h0000_0000;  // exact cancellation: +0 when rounding to nearest
      lz = lzc32({r, 5'd0});
      // Normalise, but not below the smallest exponent: the result is then subnormal.
      shift = ({3'd0, lz} < e - 9'd1) ? {3'd0, lz} : e - 9'd1;
      r = r << shift;
      e = e - shift;
    end
    inc = !truncate && r[2] && (r[1] || r[0] || r[3]);
    m = {1'b0, r[26:3]} + {24'd0, inc};
    if (m[24]) begin
      m = {1'b0, m[24:1]};
      e = e + 9'd1;
    end
    if (e >= 9'd255) return {sign, 8'hFF, 23'd0};
    return {sign, m[23] ? e[7:0] : 8'd0, m[22:0]};
  endfunction

  // One step of the accumulation: acc + p, with p = {invalid, f32} from f16_mul_exact.
  function automatic logic [31:0] f32_step(input logic [31:0] acc, input logic [32:0] p,
                                           input logic truncate);
    logic p_nan, acc_nan;
    p_nan = (p[30:23] == 8'hFF) && (p[22:0] != 23'd0);
    acc_nan = (acc[30:23] == 8'hFF) && (acc[22:0] != 23'd0);
    if (p_nan) return p[31:0];
    if (acc_nan) return acc | 32'h0040_0000;
    if (p[32]) return F32_DEFAULT_NAN;
    if (p[30:23] == 8'hFF && acc[30:23] == 8'hFF && p[31] != acc[31]) return F32_DEFAULT_NAN;
    return f32_add(acc, p[31:0], truncate);
  endfunction

  // One f16 step of one output element: the k products of the step (p[33k +: 33] from
  // f16_mul_exact) added to `start` one by one, in increasing k, for the k set in `kmask`.
  function automatic logic [31:0] f32_chain(input logic [31:0] start, input logic [527:0] p,
                                            input logic [15:0] kmask, input logic truncate);
    logic [31:0] v;
    v = start;
    for (int k = 0; k < 16; k++) begin
      if (kmask[k]) v = f32_step(v, p[33*k +: 33], truncate);
    end
    return v;
  endfunction

  // One int8 step of one output element: the exact sum of the k products a * b (a signed,
  // or unsigned when `a_unsigned`; b signed) for the k set in `kmask`.
  function automatic logic [31:0] int8_dot(input logic [255:0] a_row, input logic [255:0] b_col,
                                           input logic [31:0] kmask, input logic a_unsigned);
    logic [31:0] total;
    logic signed [8:0] av;
    logic signed [8:0] bv;
    logic signed [17:0] p;
    total = 32'd0;
    for (int k = 0; k < 32; k++) begin
      if (kmask[k]) begin
        av = {a_unsigned ? 1'b0 : a_row[8*k+7], a_row[8*k +: 8]};
        bv = {b_col[8*k+7], b_col[8*k +: 8]};
        p = av * bv;
        total = total + {{14{p[17]}}, p};
      end
    end
    return total;
  endfunction

endpackage
