// An allocator for the sanitizer's many small, short-lived objects (the shadow's access
// lists, the written-range trees' nodes): blocks of one, two, four ... 64 objects are
// cut from one arena and go back to a free list of their size when released, never to the
// heap. A launch's shadow is cleared when the next launch begins and its nodes serve that
// launch: no malloc per segment, and in steady state no fresh pages (the memory stays at the
// largest launch's high-water mark). The arena's first chunk is touched when the sanitizer is
// configured (Arena::prefault), so a first launch takes no page faults for it either. Larger
// requests go to operator new. One thread (the simulation's).
#pragma once
#include <sys/mman.h>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace npuvp::check {

// Bump allocation from chunks that live as long as the process (the sanitizer does).
class Arena {
 public:
  // One transparent huge page where the kernel gives them on request (madvise mode): a large
  // launch's shadow fills hundreds of megabytes, and a fault per 4 KiB page of it cost about
  // a tenth of a checked 32-core matmul's time.
  static constexpr size_t kChunk = size_t(2) << 20;
  static void* take(size_t bytes, size_t align) {
    State& s = state();
    size_t at = (s.used + align - 1) / align * align;
    if (!s.chunk || at + bytes > kChunk) {
      s.chunk = fresh_chunk();
      at = 0;
    }
    s.used = at + bytes;
    return s.chunk + at;
  }
  // Starts a chunk and writes its pages (the kernel maps them now, not during a launch).
  static void prefault() {
    State& s = state();
    if (s.chunk && s.used == 0) return;
    s.chunk = fresh_chunk();
    std::memset(s.chunk, 0, kChunk);
    s.used = 0;
  }

 private:
  static char* fresh_chunk() {
    void* chunk = std::aligned_alloc(kChunk, kChunk);
    if (!chunk) throw std::bad_alloc();
    ::madvise(chunk, kChunk, MADV_HUGEPAGE);  // a hint: without it, 4 KiB pages as before
    return static_cast<char*>(chunk);
  }
  struct State {
    char* chunk = nullptr;
    size_t used = 0;
  };
  static State& state() {
    static State s;
    return s;
  }
};

template <class T>
class Recycled {
 public:
  using value_type = T;
  Recycled() = default;
  template <class U>
  Recycled(const Recycled<U>&) {}  // NOLINT: rebinding, as std::allocator

  T* allocate(size_t n) {
    const int c = size_class(n);
    if (c < 0) return static_cast<T*>(::operator new(n * sizeof(T)));
    Free*& head = heads()[c];
    if (!head) return static_cast<T*>(Arena::take(block_bytes(c), alignment()));
    Free* f = head;
    head = f->next;
    return reinterpret_cast<T*>(f);
  }
  void deallocate(T* p, size_t n) {
    const int c = size_class(n);
    if (c < 0) {
      ::operator delete(p);
      return;
    }
    Free* f = reinterpret_cast<Free*>(p);
    f->next = heads()[c];
    heads()[c] = f;
  }
  friend bool operator==(const Recycled&, const Recycled&) { return true; }
  friend bool operator!=(const Recycled&, const Recycled&) { return false; }

 private:
  struct Free {
    Free* next;
  };
  // Classes: up to 1, 2, 4 ... 64 objects, a request rounded up to its class (deallocate
  // gets the same count, so finds the same class). Tree nodes are 1; access lists grow by
  // doubling, but a copy (a segment split in two) asks for exactly its size.
  static constexpr int kClasses = 7;
  static int size_class(size_t n) {
    int c = 0;
    while (c < kClasses && (size_t(1) << c) < n) ++c;
    return c < kClasses ? c : -1;
  }
  static constexpr size_t alignment() { return alignof(T) > alignof(Free) ? alignof(T) : alignof(Free); }
  static size_t block_bytes(int c) {
    const size_t b = sizeof(T) << c;
    return ((b < sizeof(Free) ? sizeof(Free) : b) + alignment() - 1) / alignment() * alignment();
  }
  static Free** heads() {
    static Free* h[kClasses] = {};
    return h;
  }
};

}  // namespace npuvp::check
