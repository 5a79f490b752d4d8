#include "models/aicore/scalar_stack.h"

#include <signal.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <fmt/format.h>
#include <sanitizer/asan_interface.h>

namespace npuvp::aicore {

std::atomic<uint64_t> StackGuard::progress_{0};

namespace {

// The handlers may only read plain memory, write(2), _exit(2) and siglongjmp: the stacks they
// watch live in a fixed table, filled in before their threads run.
struct Slot {
  std::atomic<uintptr_t> top{0};  // 0: free or not running yet
  uint64_t size = 0;
  char block[64] = {};
  std::atomic<sigjmp_buf*> recovery{nullptr};  // set while the kernel body runs
  // What ended the body (written by the handler just before it jumps).
  int signal = 0;
  int code = 0;
  uintptr_t address = 0;
  uintptr_t top_at_fault = 0;
  bool overflow = false;
  bool watchdog = false;
};
constexpr int kSlots = 1024;
Slot g_slots[kSlots];
std::atomic<int> g_slots_used{0};

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[std::size(kFaultSignals)];
alignas(16) char g_alternate_stack[64 * 1024];
bool g_installed = false;

double g_watchdog_seconds = 120;
bool g_watchdog_started = false;

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

// An overflow outside an armed body (SystemC's own frames): no recovery point, so report and exit.
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

uintptr_t interrupted_stack_pointer(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return 0;
#endif
}

// Before jumping back to the recovery point: the frames between it and the interrupted code
// are dead. ASan's siglongjmp clears the stack it runs on, here the signal stack, so the dead
// frames' red zones are cleared here; otherwise a later, correct use of that memory is reported
// as a stack-buffer-overflow. (Without ASan this does nothing.)
void forget_dead_frames(const Slot& slot, void* context, const sigjmp_buf* recovery) {
  const uintptr_t sp = interrupted_stack_pointer(context);
  const uintptr_t frame = reinterpret_cast<uintptr_t>(recovery);
  const uintptr_t top = slot.top.load(std::memory_order_acquire);
  const uintptr_t bottom = top > slot.size ? top - slot.size : 0;
  const uintptr_t low = std::max(sp > 128 ? sp - 128 : 0, bottom);  // 128: the x86-64 red zone
  if (low < frame && frame <= top) ASAN_UNPOISON_MEMORY_REGION(reinterpret_cast<void*>(low), frame - low);
}

uint64_t overflow_reach(uint64_t size) { return std::max<uint64_t>(StackGuard::kSlack, size); }

// The slot whose stack the interrupted code was running on (an overflowing frame may have
// moved the stack pointer below the bottom), or null.
Slot* slot_of_stack_pointer(uintptr_t sp) {
  const int used = std::min(g_slots_used.load(std::memory_order_acquire), kSlots);
  for (int i = 0; i < used; ++i) {
    const uintptr_t top = g_slots[i].top.load(std::memory_order_acquire);
    if (top == 0 || g_slots[i].size >= top) continue;
    const uintptr_t bottom = top - g_slots[i].size;
    const uint64_t reach = overflow_reach(g_slots[i].size);
    const uintptr_t low = bottom > reach ? bottom - reach : 0;
    if (sp >= low && sp < top + 64 * 1024) return &g_slots[i];
  }
  return nullptr;
}

int signal_index(int signal) {
  for (size_t i = 0; i < std::size(kFaultSignals); ++i) {
    if (kFaultSignals[i] == signal) return int(i);
  }
  return -1;
}

void on_fault(int signal, siginfo_t* info, void* context) {
  const auto fault = reinterpret_cast<uintptr_t>(info->si_addr);
  const bool memory_fault = signal == SIGSEGV || signal == SIGBUS;
  // An overflow first: its fault address says whose stack ran out.
  const int used = std::min(g_slots_used.load(std::memory_order_acquire), kSlots);
  Slot* slot = nullptr;
  bool overflow = false;
  for (int i = 0; memory_fault && i < used; ++i) {
    const uintptr_t top = g_slots[i].top.load(std::memory_order_acquire);
    if (top != 0 && StackGuard::is_overflow(top, g_slots[i].size, fault)) {
      slot = &g_slots[i];
      overflow = true;
      break;
    }
  }
  if (!slot) slot = slot_of_stack_pointer(interrupted_stack_pointer(context));
  if (slot) {
    sigjmp_buf* recovery = slot->recovery.load(std::memory_order_acquire);
    if (recovery) {
      slot->signal = signal;
      slot->code = info->si_code;
      slot->address = fault;
      slot->top_at_fault = slot->top.load(std::memory_order_acquire);
      slot->overflow = overflow;
      slot->watchdog = false;
      slot->recovery.store(nullptr, std::memory_order_release);
      forget_dead_frames(*slot, context, recovery);
      siglongjmp(*recovery, 1);
    }
    if (overflow) report_overflow(*slot, slot->top.load(), fault);
  }
  // Not a kernel's fault: put the previous handling back. A fault the hardware raised happens
  // again when the instruction reruns; one sent (kill, raise) is sent again.
  const int index = signal_index(signal);
  if (index >= 0) sigaction(signal, &g_previous[index], nullptr);
  if (info->si_code <= 0) ::raise(signal);
}

// The watchdog's tick: a body found running at every tick for watchdog_seconds with no progress
// in between is ended.
int g_watchdog_signal = 0;
double g_tick_seconds = 1;
uint64_t g_progress_seen = 0;
double g_quiet_seconds = 0;

void on_watchdog_tick(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  Slot* slot = slot_of_stack_pointer(interrupted_stack_pointer(context));
  sigjmp_buf* recovery = slot ? slot->recovery.load(std::memory_order_acquire) : nullptr;
  const uint64_t progress = StackGuard::progress_count();
  if (!recovery || progress != g_progress_seen || g_watchdog_seconds <= 0) {
    g_progress_seen = progress;
    g_quiet_seconds = 0;
    errno = saved_errno;
    return;
  }
  g_quiet_seconds += g_tick_seconds;
  if (g_quiet_seconds + 1e-9 < g_watchdog_seconds) {
    errno = saved_errno;
    return;
  }
  g_quiet_seconds = 0;
  slot->signal = 0;
  slot->watchdog = true;
  slot->overflow = false;
  slot->recovery.store(nullptr, std::memory_order_release);
  forget_dead_frames(*slot, context, recovery);
  siglongjmp(*recovery, 1);
}

void start_watchdog() {
  if (g_watchdog_started || g_watchdog_seconds <= 0) return;
  g_watchdog_started = true;
  g_tick_seconds = std::min(1.0, g_watchdog_seconds / 4);
  // A real-time signal of its own (alarm() stays the host program's), delivered to this
  // thread, the one the simulation and so every kernel body runs on.
  g_watchdog_signal = SIGRTMIN + 3;
  struct sigaction action {};
  action.sa_sigaction = on_watchdog_tick;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(g_watchdog_signal, &action, nullptr);
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = g_watchdog_signal;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  timer_t timer;
  if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return;  // no watchdog then
  itimerspec period{};
  const auto nanos = static_cast<long long>(g_tick_seconds * 1e9);
  period.it_interval.tv_sec = nanos / 1000000000;
  period.it_interval.tv_nsec = nanos % 1000000000;
  period.it_value = period.it_interval;
  timer_settime(timer, 0, &period, nullptr);
}

void install_handlers() {
  if (g_installed) return;
  g_installed = true;
  // An overflowed stack cannot take the signal frame: the handler runs on its own stack,
  // unless the host program set one up already.
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    stack_t alternate{};
    alternate.ss_sp = g_alternate_stack;
    alternate.ss_size = sizeof g_alternate_stack;
    sigaltstack(&alternate, nullptr);
  }
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kFaultSignals); ++i) sigaction(kFaultSignals[i], &action, &g_previous[i]);
}

const char* signal_text(int signal, int code) {
  switch (signal) {
    case SIGSEGV: return "segmentation fault (SIGSEGV: an access to memory the kernel may not touch)";
    case SIGBUS: return "bus error (SIGBUS: a misaligned or unbacked memory access)";
    case SIGFPE:
      return code == FPE_INTDIV ? "integer division by zero (SIGFPE)"
             : code == FPE_INTOVF ? "integer overflow trap (SIGFPE)"
                                  : "arithmetic fault (SIGFPE)";
    case SIGILL: return "illegal instruction (SIGILL)";
    case SIGABRT: return "abort() (SIGABRT: the kernel or a library it called gave up, e.g. a failed assert)";
    default: return "signal";
  }
}

}  // namespace

StackGuard::StackGuard(std::string block, uint64_t size) : block_(std::move(block)), size_(size) {}

StackGuard::~StackGuard() {
  if (slot_ >= 0) {
    g_slots[slot_].recovery.store(nullptr, std::memory_order_release);
    g_slots[slot_].top.store(0, std::memory_order_release);
  }
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
  install_handlers();
  g_slots[slot_].top.store(reinterpret_cast<uintptr_t>(top), std::memory_order_release);
}

void StackGuard::arm(sigjmp_buf* recovery) {
  if (slot_ < 0) return;
  start_watchdog();
  g_slots[slot_].recovery.store(recovery, std::memory_order_release);
}

void StackGuard::disarm() {
  if (slot_ >= 0) g_slots[slot_].recovery.store(nullptr, std::memory_order_release);
}

std::string StackGuard::fault_text() const {
  if (slot_ < 0) return "a fault";
  const Slot& s = g_slots[slot_];
  if (s.watchdog) {
    return fmt::format("watchdog: the kernel body ran for {} s of host time without issuing an instruction or "
                       "advancing simulated time (an endless loop?); sim.watchdog_seconds sets the limit, 0 turns "
                       "it off",
                       g_watchdog_seconds);
  }
  if (s.overflow) {
    return fmt::format("the kernel body overflowed its stack: a fault {} bytes below the top of a stack of "
                       "core.scalar.stack_size = {} bytes; raise core.scalar.stack_size, or keep large arrays in GM "
                       "or UB",
                       s.top_at_fault - s.address, s.size);
  }
  std::string text = signal_text(s.signal, s.code);
  if (s.signal == SIGSEGV || s.signal == SIGBUS) text += fmt::format(" at address {:#x}", s.address);
  return text + " in the kernel body";
}

bool StackGuard::is_overflow(uintptr_t top, uint64_t size, uintptr_t fault) {
  // `top` is a little below the real top, so the stack's lowest page (and the guard page under
  // it) may sit up to a few KiB above top - size: allow 64 KiB, never reaching top itself.
  // Below it, a frame larger than what is left skips the guard page: faults down to the
  // stack's own size (at least kSlack) below count.
  if (size >= top) return false;
  const uintptr_t bottom = top - size;
  const uintptr_t high = std::min<uintptr_t>(top, bottom + 64 * 1024);
  const uint64_t reach = overflow_reach(size);
  const uintptr_t low = bottom > reach ? bottom - reach : 0;
  return fault >= low && fault < high;
}

void StackGuard::set_watchdog_seconds(double seconds) { g_watchdog_seconds = seconds; }

}  // namespace npuvp::aicore
