// AddressSanitizer and SystemC's coroutines (built only into NPUVP_SANITIZE=ON builds).
//
// Every SystemC thread runs on a QuickThreads coroutine stack of its own. ASan must be told of
// each stack switch (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber), or an
// exception or longjmp (which makes ASan clear the stack it believes is current from the stack
// pointer to that stack's top) clears the wrong range: ASan prints "ignoring requested
// __asan_handle_no_return", the dead frames' red zones stay poisoned and a later, correct access
// to that memory is reported as a stack-buffer-overflow. Debian's libsystemc 2.3.4 announces
// its switches, but two of them wrongly:
//  - a switch back to the main coroutine gives the stack as (0, 0): every exception thrown on
//    the main stack afterwards (sc_start rethrowing a thread's error, any caught exception in
//    elaboration code run later) leaves stale poison behind;
//  - sc_cor_pkg_qt::abort, the switch away from a thread that has ended (after a kernel's error,
//    or any thread that returns), announces nothing, so ASan keeps the dead thread's stack
//    while the next coroutine (usually main, about to rethrow that error) runs.
// This file replaces the package's two switch functions with ones that announce every switch
// with the right stack: a thread's own (mmap'd by the package), and for the main coroutine the
// bounds ASan reports for the stack it leaves on the first switch. The executable's definition
// interposes on the library's (its vtable refers to them by symbol); CMakeLists.txt forces this
// object into every sanitized link. The coroutine layout is the package's (checked below).
#if defined(__SANITIZE_ADDRESS__)

#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#include <systemc>
#include <sysc/kernel/sc_cor.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace sc_core {

// The QuickThreads coroutine package of libsystemc (its header is not installed): only the
// declaration, so that the two member functions below can be defined.
class sc_cor_pkg_qt : public sc_cor_pkg {
 public:
  explicit sc_cor_pkg_qt(sc_simcontext* simc);
  ~sc_cor_pkg_qt() override;
  sc_cor* create(std::size_t stack_size, sc_cor_fn* fn, void* arg) override;
  void yield(sc_cor* next_cor) override;
  void abort(sc_cor* next_cor) override;
  sc_cor* get_main() override;

 private:
  static int instance_count;
};

}  // namespace sc_core

// QuickThreads' context switch (exported by libsystemc): saves the caller's registers on its
// stack, moves to `next`'s stack, calls helper(old stack pointer, a0, a1) there and resumes
// `next`. qt_abort does the same without saving the caller's state.
extern "C" {
using QtHelper = void*(void* old_sp, void* a0, void* a1);
void* qt_block(QtHelper* helper, void* a0, void* a1, void* next_sp);
[[noreturn]] void qt_abort(QtHelper* helper, void* a0, void* a1, void* next_sp);
}

namespace {

// libsystemc 2.3.4's sc_cor_qt: the vtable pointer, then m_stack_size, m_stack (the mmap'd
// stack, lowest address first), m_sp (the saved stack pointer) and m_pkg.
struct __attribute__((may_alias)) QtCoroutine {
  const void* vtable;
  std::size_t stack_size;
  char* stack;
  void* sp;
  void* pkg;
};

// What ASan needs to come back to a coroutine: its stack and its fake stack (the frames of
// detect_stack_use_after_return, kept aside while it is suspended).
struct Fiber {
  const void* bottom = nullptr;
  std::size_t size = 0;
  void* fake_stack = nullptr;
};

struct Switcher {
  sc_core::sc_cor* main = nullptr;
  sc_core::sc_cor* current = nullptr;
  std::unordered_map<const sc_core::sc_cor*, Fiber> fibers;
  bool main_known = false;
};

Switcher& switcher() {
  static Switcher* s = new Switcher;  // never destroyed: switches may run during exit
  return *s;
}

// The functions that switch keep no frames on ASan's fake stack (detect_stack_use_after_return),
// which is itself switched (or, when a thread ends, destroyed) under them.
#define NPUVP_SWITCHING __attribute__((no_sanitize_address, noinline))

QtCoroutine* layout(sc_core::sc_cor* cor) { return reinterpret_cast<QtCoroutine*>(cor); }

[[noreturn]] void layout_mismatch(const char* what) {
  std::fprintf(stderr,
               "npuvp: internal error: libsystemc's QuickThreads coroutine does not have the layout "
               "tlm/asan_coroutines.cpp expects (%s); this sanitizer build cannot follow its stack "
               "switches\n",
               what);
  std::abort();
}

// The fiber state of `to`; a thread's stack is read from the coroutine each time (a coroutine
// freed with its thread may be followed by another at the same address).
Fiber& fiber_of(Switcher& s, sc_core::sc_cor* to) {
  Fiber& f = s.fibers[to];
  if (to != s.main) {
    const QtCoroutine* c = layout(to);
    const auto low = reinterpret_cast<uintptr_t>(c->stack);
    const auto sp = reinterpret_cast<uintptr_t>(c->sp);
    if (c->stack == nullptr || c->stack_size == 0 || low % 4096 != 0 || sp <= low || sp > low + c->stack_size) {
      layout_mismatch("a thread's stack does not contain its saved stack pointer");
    }
    if (f.bottom != c->stack || f.size != c->stack_size) {
      // LeakSanitizer scans the threads' own stacks, not these: a suspended coroutine's locals
      // would look leaked (a run ended by a signal or an error leaves threads suspended).
      if (f.bottom) __lsan_unregister_root_region(f.bottom, f.size);
      __lsan_register_root_region(c->stack, c->stack_size);
    }
    f.bottom = c->stack;
    f.size = c->stack_size;
  }
  return f;
}

NPUVP_SWITCHING void begin_switch(Switcher& s, sc_core::sc_cor* to, void** fake_stack_save) {
  Fiber& target = fiber_of(s, to);
  if (to == s.main && !s.main_known) layout_mismatch("a switch to the main coroutine before one away from it");
  __sanitizer_start_switch_fiber(fake_stack_save, target.bottom, target.size);
}

// Runs on the next coroutine's stack right after the switch.
NPUVP_SWITCHING void* finish_switch(void* old_sp, void* old_cor, void*) {
  Switcher& s = switcher();
  layout(static_cast<sc_core::sc_cor*>(old_cor))->sp = old_sp;
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(s.fibers[s.current].fake_stack, &old_bottom, &old_size);
  if (old_cor == s.main && !s.main_known) {  // the thread's own stack, as ASan knows it
    Fiber& main = s.fibers[s.main];
    main.bottom = old_bottom;
    main.size = old_size;
    s.main_known = true;
  }
  return nullptr;
}

// After a thread ended: its stack is never resumed, so ASan may drop its fake stack.
NPUVP_SWITCHING void* finish_abort(void*, void* old_cor, void*) {
  Switcher& s = switcher();
  __sanitizer_finish_switch_fiber(s.fibers[s.current].fake_stack, nullptr, nullptr);
  const auto ended = s.fibers.find(static_cast<sc_core::sc_cor*>(old_cor));
  if (ended != s.fibers.end()) {
    if (ended->second.bottom) __lsan_unregister_root_region(ended->second.bottom, ended->second.size);
    s.fibers.erase(ended);
  }
  return nullptr;
}

sc_core::sc_cor* take_current(Switcher& s, sc_core::sc_cor_pkg* pkg, sc_core::sc_cor* next) {
  if (!s.current) s.current = s.main = pkg->get_main();  // the first switch leaves main
  sc_core::sc_cor* old = s.current;
  s.current = next;
  return old;
}

}  // namespace

NPUVP_SWITCHING void sc_core::sc_cor_pkg_qt::yield(sc_cor* next_cor) {
  Switcher& s = switcher();
  sc_cor* old = take_current(s, this, next_cor);
  begin_switch(s, next_cor, &s.fibers[old].fake_stack);
  qt_block(finish_switch, old, nullptr, layout(next_cor)->sp);
}

NPUVP_SWITCHING void sc_core::sc_cor_pkg_qt::abort(sc_cor* next_cor) {
  Switcher& s = switcher();
  sc_cor* old = take_current(s, this, next_cor);
  begin_switch(s, next_cor, nullptr);  // null: the old stack is done with
  qt_abort(finish_abort, old, nullptr, layout(next_cor)->sp);
}

// Referenced by the link (-Wl,--undefined) so that a static link pulls this object in.
extern "C" const int npuvp_asan_coroutines = 1;

#endif  // __SANITIZE_ADDRESS__
