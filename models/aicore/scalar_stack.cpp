#include "models/aicore/scalar_stack.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace npuvp::aicore {
namespace {

// The handler may only read plain memory, write(2) and _exit(2): the stacks it watches live in
// a fixed table, filled in before their threads run.
struct Slot {
  std::atomic<uintptr_t> top{0};  // 0: free or not running yet
  uint64_t size = 0;
  char block[64] = {};
};
constexpr int kSlots = 1024;
Slot g_slots[kSlots];
std::atomic<int> g_slots_used{0};

struct sigaction g_previous;
alignas(16) char g_alternate_stack[64 * 1024];
bool g_installed = false;

// Appends to buf (size kLine) without the C library's formatting.
constexpr size_t kLine = 512;
void append(char* buf, size_t& n, const char* text) {
  while (*text && n + 1 < kLine) buf[n++] = *text++;
}
void append_number(char* buf, size_t& n, uint64_t v) {
  char digits[24];
  int d = 0;
  do {
    digits[d++] = char('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (d > 0 && n + 1 < kLine) buf[n++] = digits[--d];
}

[[noreturn]] void report_overflow(const Slot& slot, uintptr_t top, uintptr_t fault) {
  char line[kLine];
  size_t n = 0;
  append(line, n, "npuvp: error: ");
  append(line, n, slot.block);
  append(line, n, ": the kernel body overflowed its stack: a fault ");
  append_number(line, n, top - fault);
  append(line, n, " bytes below the top of a stack of core.scalar.stack_size = ");
  append_number(line, n, slot.size);
  append(line, n, " bytes; raise core.scalar.stack_size, or keep large arrays in GM or UB\n");
  ssize_t ignored = write(STDERR_FILENO, line, n);
  (void)ignored;
  _exit(1);
}

void on_segv(int, siginfo_t* info, void*) {
  const auto fault = reinterpret_cast<uintptr_t>(info->si_addr);
  const int used = std::min(g_slots_used.load(std::memory_order_acquire), kSlots);
  for (int i = 0; i < used; ++i) {
    const uintptr_t top = g_slots[i].top.load(std::memory_order_acquire);
    if (top != 0 && StackGuard::is_overflow(top, g_slots[i].size, fault)) report_overflow(g_slots[i], top, fault);
  }
  // Not a stack overflow: put the previous handling back; the faulting instruction runs again
  // and faults into it.
  sigaction(SIGSEGV, &g_previous, nullptr);
}

void install_handler() {
  if (g_installed) return;
  g_installed = true;
  // The overflowed stack cannot take the signal frame: the handler runs on its own stack,
  // unless the host program set one up already.
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    stack_t alternate{};
    alternate.ss_sp = g_alternate_stack;
    alternate.ss_size = sizeof g_alternate_stack;
    sigaltstack(&alternate, nullptr);
  }
  struct sigaction action {};
  action.sa_sigaction = on_segv;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &g_previous);
}

}  // namespace

StackGuard::StackGuard(std::string block, uint64_t size) : block_(std::move(block)), size_(size) {}

StackGuard::~StackGuard() {
  if (slot_ >= 0) g_slots[slot_].top.store(0, std::memory_order_release);
}

void StackGuard::watch(const void* top) {
  if (slot_ < 0) {
    slot_ = g_slots_used.fetch_add(1);
    if (slot_ >= kSlots) {  // more cores than the table holds: those go unwatched
      slot_ = -1;
      return;
    }
    Slot& s = g_slots[slot_];
    s.size = size_;
    std::strncpy(s.block, block_.c_str(), sizeof s.block - 1);
  }
  install_handler();
  g_slots[slot_].top.store(reinterpret_cast<uintptr_t>(top), std::memory_order_release);
}

bool StackGuard::is_overflow(uintptr_t top, uint64_t size, uintptr_t fault) {
  // `top` is a little below the real top, so the stack's lowest page (and the guard page under
  // it) may sit up to a few KiB above top - size: allow 64 KiB, never reaching top itself.
  if (size >= top) return false;
  const uintptr_t bottom = top - size;
  const uintptr_t high = std::min<uintptr_t>(top, bottom + 64 * 1024);
  const uintptr_t low = bottom > kSlack ? bottom - kSlack : 0;
  return fault >= low && fault < high;
}

}  // namespace npuvp::aicore
