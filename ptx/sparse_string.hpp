// A string most instances of a type leave empty: 8 bytes in place (a
// pointer, null when empty) instead of std::string's 32. A kernel holds a
// statement per PTX instruction, 80,000 after inlining for KeyHunt's
// kernels, each with its source text (kept for listings only), guard
// predicate, and the note a rewrite leaves: 96 bytes of empty strings a
// statement, 7.7 MB of such a kernel, held through its whole lowering.
#pragma once

#include "ptx/sparse.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace p2a::ptx {

class SparseString {
public:
  SparseString() = default;
  SparseString(std::string s) { *this = std::move(s); }
  SparseString(const char *s) : SparseString(std::string(s)) {}
  SparseString &operator=(std::string s) {
    if (s.empty())
      s_.reset();
    else
      s_.toWrite() = std::move(s);
    return *this;
  }
  SparseString &operator=(const char *s) { return *this = std::string(s); }

  const std::string &str() const { return s_.get(); }
  operator const std::string &() const { return str(); }
  operator std::string_view() const { return str(); }
  bool empty() const { return !s_.written(); }
  size_t size() const { return str().size(); }
  const char *c_str() const { return str().c_str(); }
  char operator[](size_t i) const { return str()[i]; }
  void swap(SparseString &o) noexcept { s_.swap(o.s_); }

  friend bool operator==(const SparseString &a, const SparseString &b) { return a.str() == b.str(); }
  friend bool operator==(const SparseString &a, std::string_view b) { return a.str() == b; }
  friend std::string operator+(const SparseString &a, const std::string &b) { return a.str() + b; }
  friend std::string operator+(const std::string &a, const SparseString &b) { return a + b.str(); }
  friend std::string operator+(const SparseString &a, const char *b) { return a.str() + b; }
  friend std::string operator+(const char *a, const SparseString &b) { return a + b.str(); }

private:
  Sparse<std::string> s_; // (never holds an empty string)
};

} // namespace p2a::ptx
