// PFN's MN-Core 2 assembly language (VSM, the `.vsm` files of the emulator kit and the MN-Core
// Challenge) on this model: the parser (text -> steps), the step machine that runs them on
// every PE with the emulator's debug statements and dump lines, and the challenge's judge.
// The language and every assumption where public material is silent: docs/mncore2-isa.md.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace npuvp::mncore {

// A VSM text the parser cannot take: "<file> line L, column C: message".
class AssemblyError : public std::runtime_error {
 public:
  AssemblyError(std::string source, unsigned line, unsigned column, const std::string& message);
  const std::string& source() const { return source_; }
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string source_;
  unsigned line_, column_;
  std::string message_;
};

}  // namespace npuvp::mncore

namespace npuvp::mncore::vsm {

// ---------------------------------------------------------------------------------------
// The program as the parser produces it.

// Where an operand lives.
enum class Space : uint8_t {
  None,
  LM0, LM1, GRF0, GRF1,      // PE memories, SW-addressed ($m $n $r $s)
  T,                         // the T register ($t $lt $llt)
  Omr,                       // a mask register entry as a destination ($omrN)
  L1BM, L2BM, PDM, DRAM,     // LW-addressed ($lb $lc $p $d)
  MatX, MatY,                // the MAB's matrix registers ($lx $ly)
  Aluf, Mauf, Lbf, Mreadf,   // forwarding paths: the previous step's unit outputs
  Identity,                  // $peid $subpeid $mabid $l1bid $l2bid $msb1
  Immediate,                 // a literal
  NoWrite,                   // $nowrite: result only on the forwarding path
  LmBar, LnBar,              // $lmb $lnb: LM0's / LM1's base address register (destinations)
};
enum class Ident : uint8_t { PeId, SubPeId, MabId, L1bId, L2bId, Msb1 };

struct Operand {
  Space space = Space::None;
  unsigned width_sw = 0;                  // 1 ($m), 2 ($lm), 4 ($llm); 0 = decided by the op
  bool flat = false;                      // $lm[a,b,c,d]: one SW address per cycle
  std::array<uint32_t, 4> flat_addr{};    //   those addresses
  uint32_t address = 0;                   // SW (PE memories) or LW (block memories)
  uint32_t stride = 0;                    // SW addresses per cycle: v<k> = k, v = the width
  bool t_indirect = false;                // $lmt: + T[cycle] as an SW offset (LM0 only)
  bool negate = false;                    // -$x: sign flipped (float inputs)
  int madpe = -1;                         // j<k>: + one width for PEs 0..k of the MAB
  bool turnaround = false;                // $lbi: the L1B's turnaround register, not L1BM
  int node = -1;                          // @g / @g.l on MV operands; -1 = every node
  int node_l2b = -1;
  Ident ident = Ident::PeId;
  unsigned omr = 0;                       // $omrN
  // Immediates: the 32-bit payload word, and how it was written (for width checks).
  uint64_t imm = 0;
  bool imm_is_word = false;               // i"..", ui"..", f"..", h"..": a 32-bit payload
  // Write mask on a destination: per cycle, 4 bits (bit 3 = most significant SW).
  bool has_mask = false;
  int mask_omr = -1;                      // /$imrN: entry N; -1: the fixed pattern below
  std::array<uint8_t, 4> mask_bits{};     // /1010: cycle c -> 0xF or 0
  // Input precision conversion (M 7.5, 7.8): 'e' extends from the next narrower format
  // (half -> single, single -> double), 'r' narrows 4 singles to 4 halves; 0 = none.
  char convert = 0;
  unsigned column = 0;
  std::string text;
};

// L1bmTurn: PE -> $lbi; L1bmTurnRead: $lbi -> PE. With one ordinary L1BM transfer, a step
// may issue one of each (the manual's packed example and public answers pair them).
enum class Unit : uint8_t { Nop, Alu, MauCalc, MauWrite, MauRead, L1bm, L2bm, Mv, Wait, NoForward, L1bmTurn, L1bmTurnRead };

struct Instr {
  Unit unit = Unit::Nop;
  std::string op;          // the operation without its prefixes: "add", "passa", "vfma", "l1bmd", ...
  char prec = 0;           // 'l' 'i' 's' 'd' 'f' 'g' 'h' or 0
  bool is_unsigned = false;
  char half = 0;           // dv*/dm*: 'u' or 'd'
  bool reduce_output = false;  // MAU <op>r: the result rounded to the next narrower format
  std::string rrn;         // reductions: "dfadd", "iiadd", ...
  int at = -1;             // l1bmm@m, l2bm@l1b, l2bmb@set: the node; -1 = none / all
  uint64_t size = 0;       // MV: /n<size>
  unsigned tag = 0;        // MV: i<tag>; wait: the tag
  int shift = 0;           // l1bmd+k / l1bmd-k: MAB m takes MAB (m+k)'s share (SDK vsmlink notes)
  unsigned bfn_mant = 0;   // hbfn/<n>: the block's mantissa length (6..9); 0 = the format's
  // L2BM instructions' L1B set (M 3.6.7.1: @<l1b>, @<l1b>/<immode>, @[list]): bit i = L1B i
  // takes part; 0xFF = all. l2bmi: `immode` groups the destinations (M 3.6.7.9).
  uint8_t l1bset = 0xFF;
  unsigned immode = 0;
  // Zero-flush mask on the opcode (`ipassa/$imr1 ...`): result words whose mask bit is 0
  // become 0 before they are written or forwarded (M 3.4, 7.8).
  Operand zero_flush;
  std::vector<Operand> src;
  std::vector<Operand> dst;
  unsigned column = 0;
  std::string text;
};

// d set / d get / d get{d,f,h}: a location pattern (omitted levels = all of them).
struct Debug {
  bool set = false;
  char type = 0;                     // get: 0, 'd', 'f', 'h'
  Operand target;                    // memory and start address
  std::array<int, 5> where{{-1, -1, -1, -1, -1}};  // n c b m p; -1 = every one
  uint32_t count = 0;
  std::vector<uint64_t> payload;     // set: LW values
};

// Multi-line write mask control statement: `mask[r][s][t][m][n][k] <entry>` (maskn 1, mask 0).
struct MaskControl {
  uint8_t kinds = 0;  // bit per Space LM0, LM1, GRF0, GRF1, T, Omr
  unsigned entry = 0;
};

struct Statement {
  enum class Kind : uint8_t { Step, Debug, Mask, Quit, Host } kind = Kind::Step;  // Quit, Host: parser only
  std::vector<Instr> instrs;   // Step: the instructions issued together (`a ; b`)
  unsigned repeat = 1;         // nop/N
  Debug debug;
  MaskControl mask;
  unsigned line = 0;
  std::string text;            // the line without its comment, trimmed
  std::string file;            // set when statements of several files are joined (judge)
};

struct Program {
  std::string name;
  std::vector<Statement> statements;
  // The challenge's score: instruction steps (PE and MV lines, nop/N counting N).
  uint64_t steps() const;
};

// Parses VSM text; throws AssemblyError with file, line and column at the first error.
Program parse(const std::string& text, const std::string& name);

// ---------------------------------------------------------------------------------------
// The machine.

struct Shape {
  unsigned groups = 4, l2b_per_group = 2, l1b_per_l2b = 8, mab_per_l1b = 16, pe_per_mab = 4;
  uint32_t lm_lw = 2048, grf_lw = 256, l1bm_lw = 8192, l2bm_lw = 32768, pdm_lw = 512 * 1024;
  uint64_t dram_lw = 512ull * 1024 * 1024;
  unsigned cycles_per_step = 4;
  double clock_mhz = 750;  // mncore2.clock_mhz: only turns cycles into seconds
  // MV transfers inside a Group (PDM/DRAM <-> L2BM of that Group): mncore2.data_engine.*;
  // between Groups: mncore2.pdm.* (the manual's 16 and 8 LW/cycle, M 3.5.8.4). A transfer
  // between Groups passes both: the slower rate and the longer start-up.
  unsigned mv_lw_per_cycle = 16, mv_latency_cycles = 32;
  unsigned mv_cross_lw_per_cycle = 8, mv_cross_latency_cycles = 32;
  // Block transfers, LW per cycle through each L2B's / L1B's port (mncore2.l2b/l1b.lw_per_cycle):
  // l2bmd and l2bmr2 move 256 LW per step at the full L2B rate, l2bmb, l2bm@, l2bmr and l2bmi
  // 64 LW on a quarter of it; l1bmd moves 64 LW per cycle. A step whose transfer needs more
  // cycles than the step has lasts that long (the excess counts as stall cycles).
  unsigned l2b_lw_per_cycle = 64, l1b_lw_per_cycle = 64;
  unsigned pes() const { return groups * l2b_per_group * l1b_per_l2b * mab_per_l1b * pe_per_mab; }
  unsigned l1bs() const { return groups * l2b_per_group * l1b_per_l2b; }
  unsigned l2bs() const { return groups * l2b_per_group; }
};

struct RunStats {
  uint64_t steps = 0;        // issued steps (nop/N counts N)
  uint64_t cycles = 0;       // steps x cycles_per_step + stalls
  uint64_t stall_cycles = 0;            // wait stalls and transfer_stall_cycles
  uint64_t transfer_stall_cycles = 0;   // steps stretched by an L1BM/L2BM transfer slower than the step
  uint64_t alu = 0, mau = 0, l1bm = 0, l2bm = 0, mv = 0;
  uint64_t macs = 0;         // the MAU's matrix-mode multiply-accumulates, all MABs
};

class Machine {
 public:
  explicit Machine(const Shape& shape = Shape());
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Runs every statement; `d get` lines are appended to `dump` (one per line, '\n'-ended).
  // Run-time errors raise through npuvp::raise naming the program line.
  void run(const Program& program, std::string& dump);
  const RunStats& stats() const { return stats_; }
  const Shape& shape() const { return shape_; }

  // Called after every step statement the machine runs (nop/N once, over its N steps) with its
  // first cycle and the cycle after it, wait stalls included: for traces and progress lines.
  using StepObserver = std::function<void(const Statement&, uint64_t first_cycle, uint64_t end_cycle)>;
  void observe(StepObserver observer) { observer_ = std::move(observer); }

  // Direct access for tests and hosts: one LW of a PE memory (SW address, even).
  uint64_t read_lw(Space space, unsigned pe, uint32_t sw) const;
  void write_lw(Space space, unsigned pe, uint32_t sw, uint64_t value);

  struct State;  // defined in vsm_machine.cpp

 private:
  Shape shape_;
  std::unique_ptr<State> s_;
  RunStats stats_;
  StepObserver observer_;
};

// ---------------------------------------------------------------------------------------
// The challenge's judge: the test case holds the inputs (`d set`), the marker line where the
// answer goes, and after the output marker the `d get` lines with `# expect=[..] / Dtype @..`.

inline constexpr const char* kAnswerMarker = "# ======= YOUR VSM WILL BE INSERTED HERE =======";
inline constexpr const char* kOutputMarker = "# ======= Output =======";

struct JudgeResult {
  bool accepted = false;
  uint64_t score = 0;        // the answer's instruction steps, nops included
  uint64_t cycles = 0;       // npuvp's cycles for the whole run
  uint64_t values_checked = 0;
  std::string message;       // "ACCEPTED ..." or the first wrong value
};

JudgeResult judge(const std::string& testcase, const std::string& testcase_name, const std::string& answer,
                  const std::string& answer_name, const Shape& shape = Shape());

}  // namespace npuvp::mncore::vsm
