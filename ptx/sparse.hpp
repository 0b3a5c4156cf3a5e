// A value most instances of a type leave as it is made: kept out of place,
// behind a pointer that stays null until the value is first written. Reads
// of an unwritten one give a shared default; a copy copies the value. A
// kernel's statements, 80,000 after inlining for KeyHunt's kernels, keep
// their kind-specific fields (kernel::Stmt::Extra) and strings
// (SparseString) so, and a module's rows their listing text
// (mir::TranslatedInstruction::Text).
#pragma once

#include <memory>

namespace p2a::ptx {

template <class T> class Sparse {
public:
  Sparse() = default;
  Sparse(Sparse &&) noexcept = default;
  Sparse &operator=(Sparse &&) noexcept = default;
  Sparse(const Sparse &o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Sparse &operator=(const Sparse &o) {
    if (this != &o)
      p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }

  // The value, or T's default where none was written.
  const T &get() const {
    static const T none{};
    return p_ ? *p_ : none;
  }
  // The value, to write: made on first need.
  T &toWrite() {
    if (!p_)
      p_ = std::make_unique<T>();
    return *p_;
  }
  bool written() const { return p_ != nullptr; }
  // Back to unwritten (its memory goes).
  void reset() { p_.reset(); }
  void swap(Sparse &o) noexcept { p_.swap(o.p_); }

private:
  std::unique_ptr<T> p_;
};

} // namespace p2a::ptx
