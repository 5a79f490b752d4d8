// An allocator for the sanitizer's many small, short-lived objects (the shadow's tree nodes
// and their access lists, the written-range trees): blocks of one, two or four objects come
// from slabs and go back to a free list of their size when released, never to the heap. A
// launch's shadow is cleared when the next launch begins, and its nodes serve that launch:
// no malloc per segment, and in steady state no fresh pages (the pool stays at the largest
// launch's high-water mark). Larger requests go to operator new. One thread (the simulation's).
#pragma once
#include <cstddef>
#include <new>

namespace npuvp::check {

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
    if (!head) refill(c);
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
  static constexpr size_t kSlab = 64 * 1024;  // bytes a refill takes from the heap
  // Classes: 1, 2 and 4 objects (vector growth's first steps; tree nodes are 1).
  static int size_class(size_t n) { return n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : -1; }
  static size_t block_bytes(int c) {
    const size_t b = sizeof(T) << c, a = alignof(T) > alignof(Free) ? alignof(T) : alignof(Free);
    return ((b < sizeof(Free) ? sizeof(Free) : b) + a - 1) / a * a;
  }
  static Free** heads() {
    static Free* h[3] = {nullptr, nullptr, nullptr};
    return h;
  }
  static void refill(int c) {
    // Slabs live as long as the process (the sanitizer does).
    const size_t bytes = block_bytes(c), count = kSlab / bytes > 0 ? kSlab / bytes : 1;
    char* slab = static_cast<char*>(::operator new(bytes * count));
    Free*& head = heads()[c];
    for (size_t i = count; i-- > 0;) {
      Free* f = reinterpret_cast<Free*>(slab + i * bytes);
      f->next = head;
      head = f;
    }
  }
};

}  // namespace npuvp::check
