// The debug APIs (sw/ascendc/ascendc/debug.h): printf, ASSERT, DumpTensor, DumpAccChkPoint.
#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/local_buffer.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::MemSpace;

namespace {

// "[block 3 soc.aiv3 @ 1234 ns] ": which block printed, on which core, at the scalar unit's
// simulated time.
std::string line_prefix(AiCore& c) {
  // As errors show times (tlm/log.cpp): "2598188 ps" of a non-ns clock reads as ns.
  const sc_core::sc_time& t = c.scalar_time();
  std::string time = t.to_string();
  if (time.size() > 3 && time.compare(time.size() - 3, 3, " ps") == 0 && t >= sc_core::sc_time(1, sc_core::SC_NS)) {
    time = fmt::format("{:.3f} ns", t.to_seconds() * 1e9);
  }
  return fmt::format("[block {} {} @ {}] ", c.block_idx(), c.name(), time);
}

// Writes `text` to stdout, each line that starts in it prefixed. A core whose last output
// did not end its line continues that line without a new prefix.
void emit(AiCore& c, const std::string& text) {
  static const AiCore* open_line = nullptr;  // the core whose line is unfinished, if any
  std::string out;
  bool at_start = open_line != &c;
  if (open_line && open_line != &c) out += '\n';  // another core's unfinished line ends here
  const std::string prefix = line_prefix(c);
  for (char ch : text) {
    if (at_start) out += prefix;
    out += ch;
    at_start = ch == '\n';
  }
  open_line = at_start ? nullptr : &c;
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

// One conversion of a C format, applied to `a` by snprintf with a 64-bit length modifier.
std::string convert(const std::string& flags, char conv, const PrintArg& a) {
  char buf[512];
  auto with = [&](const char* length, char c) { return "%" + flags + length + std::string(1, c); };
  switch (conv) {
    case 'd':
    case 'i': {
      const long long v = a.kind == PrintArg::Float ? static_cast<long long>(a.f)
                          : a.kind == PrintArg::Unsigned ? static_cast<long long>(a.u)
                                                         : static_cast<long long>(a.i);
      std::snprintf(buf, sizeof buf, with("ll", 'd').c_str(), v);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      // A negative integer shows its bits at its own width (as the CPU domain prints int32).
      unsigned long long v = a.kind == PrintArg::Float ? static_cast<unsigned long long>(a.f) : a.u;
      if (a.kind == PrintArg::Signed && a.size < 8) v &= (1ull << (8 * a.size)) - 1;
      std::snprintf(buf, sizeof buf, with("ll", conv).c_str(), v);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      const double v = a.kind == PrintArg::Float      ? a.f
                       : a.kind == PrintArg::Unsigned ? static_cast<double>(a.u)
                                                      : static_cast<double>(a.i);
      std::snprintf(buf, sizeof buf, with("", conv).c_str(), v);
      break;
    }
    case 'c': std::snprintf(buf, sizeof buf, with("", 'c').c_str(), static_cast<int>(a.i)); break;
    case 's': {
      const char* s = a.kind == PrintArg::String && a.p ? static_cast<const char*>(a.p) : "(null)";
      if (flags.empty()) return s;
      std::string wide(std::strlen(s) + 256, '\0');
      wide.resize(size_t(std::max(0, std::snprintf(&wide[0], wide.size(), with("", 's').c_str(), s))));
      return wide;
    }
    case 'p': std::snprintf(buf, sizeof buf, with("", 'p').c_str(), a.p); break;
    default: return "%" + flags + conv;
  }
  return buf;
}

std::string format_args(const char* fmt, const PrintArg* args, unsigned count) {
  std::string out;
  unsigned next = 0;
  for (const char* p = fmt; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    const char* start = p;
    std::string flags;  // flags, width, precision
    ++p;
    while (*p && std::strchr("-+ #0", *p)) flags += *p++;
    while (*p >= '0' && *p <= '9') flags += *p++;
    if (*p == '.') {
      flags += *p++;
      while (*p >= '0' && *p <= '9') flags += *p++;
    }
    while (*p && std::strchr("hlLqjzt", *p)) ++p;  // every argument arrives 64-bit wide
    if (!*p) {
      out += start;
      break;
    }
    if (next >= count || !std::strchr("diuxXofFeEgGaAcsp", *p)) {  // nothing to print: as written
      out.append(start, size_t(p - start + 1));
      continue;
    }
    out += convert(flags, *p, args[next++]);
  }
  return out;
}

// The condition of an ASSERT: its argument text up to the first top-level comma.
std::string condition_text(const char* text) {
  int depth = 0;
  char quote = 0;
  const char* p = text;
  for (; *p; ++p) {
    if (quote) {
      if (*p == '\\' && p[1]) ++p;
      else if (*p == quote) quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '(' || *p == '[' || *p == '{') {
      ++depth;
    } else if (*p == ')' || *p == ']' || *p == '}') {
      --depth;
    } else if (*p == ',' && depth == 0) {
      break;
    }
  }
  std::string s(text, size_t(p - text));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

const char* dump_type_name(DumpKind kind, unsigned size) {
  switch (kind) {
    case DumpKind::Bool: return "bool";
    case DumpKind::Half: return "float16";
    case DumpKind::BFloat16: return "bfloat16";
    case DumpKind::Float: return size == 8 ? "float64" : "float32";
    case DumpKind::Signed: return size == 1 ? "int8" : size == 2 ? "int16" : size == 4 ? "int32" : "int64";
    case DumpKind::Unsigned: return size == 1 ? "uint8" : size == 2 ? "uint16" : size == 4 ? "uint32" : "uint64";
  }
  return "?";
}

std::string dump_value(DumpKind kind, unsigned size, const uint8_t* p) {
  switch (kind) {
    case DumpKind::Bool: return p[0] ? "1" : "0";
    case DumpKind::Half: {
      half h;
      std::memcpy(&h, p, 2);
      return fmt::format("{:f}", static_cast<float>(h));
    }
    case DumpKind::BFloat16: {
      bfloat16_t b;
      std::memcpy(&b, p, 2);
      return fmt::format("{:f}", static_cast<float>(b));
    }
    case DumpKind::Float: {
      if (size == 8) {
        double d;
        std::memcpy(&d, p, 8);
        return fmt::format("{:f}", d);
      }
      float f;
      std::memcpy(&f, p, 4);
      return fmt::format("{:f}", f);
    }
    case DumpKind::Signed: {
      int64_t v = 0;
      switch (size) {
        case 1: v = static_cast<int8_t>(p[0]); break;
        case 2: { int16_t x; std::memcpy(&x, p, 2); v = x; break; }
        case 4: { int32_t x; std::memcpy(&x, p, 4); v = x; break; }
        default: std::memcpy(&v, p, 8); break;
      }
      return fmt::format("{}", v);
    }
    case DumpKind::Unsigned: {
      uint64_t v = 0;
      std::memcpy(&v, p, size);  // little-endian host
      return fmt::format("{}", v);
    }
  }
  return "?";
}

// Rows of the shape: the innermost dimension's values joined by ',', each outer level in
// brackets, rows one per line; elements past the dump are '-'.
void dump_shaped(std::string& out, const std::vector<std::string>& values, const uint32_t* shape,
                 unsigned dims, unsigned dim, uint64_t& next) {
  out += '[';
  for (uint32_t i = 0; i < shape[dim]; ++i) {
    if (dim + 1 == dims) {
      if (i) out += ',';
      out += next < values.size() ? values[next] : "-";
      ++next;
    } else {
      if (i) out += ",\n";
      dump_shaped(out, values, shape, dims, dim + 1, next);
    }
  }
  out += ']';
}

const char* dump_position(MemSpace space) {
  switch (space) {
    case MemSpace::UB: return "UB";
    case MemSpace::L1: return "L1";
    case MemSpace::L0C: return "L0C";
    case MemSpace::GM: return "GM";
    default: return nullptr;
  }
}

}  // namespace

void kernel_printf(const char* fmt, const PrintArg* args, unsigned count) {
  const std::string text = format_args(fmt ? fmt : "(null)", args, count);
  // Host code that sees AscendC::printf (using namespace AscendC) prints plainly.
  if (!AiCore::current()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  emit(*AiCore::current(), text);
}

void kernel_assert_failed(const char* api, const char* text, const char* file, int line, const char* fmt,
                          const PrintArg* args, unsigned count) {
  std::string why = fmt::format("{}:{}: Assertion `{}' failed.", file, line, condition_text(text));
  if (fmt) {
    std::string message = format_args(fmt, args, count);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    why += " " + message;
  }
  if (!AiCore::current()) {  // an assertion in host code: as the C library's assert
    std::fflush(stdout);
    std::fprintf(stderr, "[%s] %s\n", api, why.c_str());
    std::abort();
  }
  AiCore& c = *AiCore::current();
  c.fail(api, fmt::format("block {}: {}", c.block_idx(), why));
}

// DumpTensor.md: "DumpTensor: desc=<desc>, addr=<hex>, data_type=<type>, position=<pos>,
// dump_size=<n>", then the values. CANN prints at most 30 KB per call.
void dump_tensor(const DumpRequest& r) {
  AiCore& c = core();
  const char* position = dump_position(r.space);
  if (!position) {
    c.fail(r.api, fmt::format("a tensor in {} cannot be dumped (UB, L1, L0C and GM can)",
                              aicore::mem_space_name(r.space)));
  }
  const uint64_t bytes = uint64_t(r.dump_size) * r.elem_size;
  c.barrier_all();  // the values the pipes have written so far
  const uint8_t* data = nullptr;
  uint64_t addr = r.local_addr;
  if (r.global) {
    addr = c.gm_address(r.gm);
    data = c.gm_host_pointer(addr, bytes);
    if (!data) c.fail(r.api, fmt::format("GM bytes [{:#x}, {:#x}) are outside GM", addr, addr + bytes));
  } else {
    aicore::LocalBuffer* b = c.buffer(r.space);
    if (!b) c.fail(r.api, fmt::format("this core has no {}", position));
    const std::string why = b->check_range(addr, bytes, "tensor");
    if (!why.empty()) c.fail(r.api, why);
    data = b->data() + addr;
  }
  std::string out = fmt::format("DumpTensor: desc={}, addr={:#x}, data_type={}, position={}, dump_size={}\n",
                                r.desc, addr, dump_type_name(r.kind, r.elem_size), position, r.dump_size);
  constexpr uint64_t kMaxDumpBytes = 30 * 1024;
  if (bytes > kMaxDumpBytes) {
    out += fmt::format("dump of {} B exceeds the 30 KB a call may print: not printed\n", bytes);
    emit(c, out);
    return;
  }
  std::vector<std::string> values;
  values.reserve(r.dump_size);
  for (uint32_t i = 0; i < r.dump_size; ++i) values.push_back(dump_value(r.kind, r.elem_size, data + uint64_t(i) * r.elem_size));
  if (r.shape && r.dims > 0) {
    uint64_t shape_size = 1;
    std::string dims;
    for (unsigned d = 0; d < r.dims; ++d) {
      shape_size *= r.shape[d];
      dims += fmt::format("{}{}", d ? ", " : "", r.shape[d]);
    }
    if (shape_size < r.dump_size) {
      out += fmt::format("shape is [{}], dumpSize is {}, dumpSize is greater than shapeSize.\n", dims, r.dump_size);
    } else if (shape_size > r.dump_size) {
      out += fmt::format("shape is [{}], dumpSize is {}, data is not enough.\n", dims, r.dump_size);
    }
    uint64_t next = 0;
    dump_shaped(out, values, r.shape, r.dims, 0, next);
    out += '\n';
  } else {
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i];
    out += "]\n";
  }
  emit(c, out);
}

}  // namespace npuvp::ascendc
