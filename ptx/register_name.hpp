// A register operand's name, with the id its kernel's register table gave
// it (kernel/register_names.hpp), or none. The analyses over a whole
// kernel number its registers a dozen times and more (each rewrite's
// dataflow, each statement order's liveness): with the id, an operand's
// number is a vector's slot, where its name was a hash and a probe of a
// large table (KeyHunt's 80k-statement kernels: a tenth of the CPU time).
//
// The id is only ever the one given for this name: every change of the
// name goes through this class and drops the id, so a rewrite that
// renames an operand cannot leave a stale one behind. Reads see a
// `const std::string &`.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace p2a::ptx {

class RegisterName {
public:
  static constexpr uint32_t kNoId = ~0u;

  RegisterName() = default;
  explicit RegisterName(std::string s) : name_(std::move(s)) {}
  explicit RegisterName(const char *s) : name_(s) {}
  RegisterName &operator=(std::string s) {
    name_ = std::move(s);
    id_ = kNoId;
    return *this;
  }
  RegisterName &operator=(const char *s) { return *this = std::string(s); }
  void clear() { *this = std::string(); }

  const std::string &str() const { return name_; }
  operator const std::string &() const { return name_; }
  operator std::string_view() const { return name_; }
  operator llvm::StringRef() const { return name_; }
  bool empty() const { return name_.empty(); }
  size_t size() const { return name_.size(); }
  const char *c_str() const { return name_.c_str(); }
  char operator[](size_t i) const { return name_[i]; }

  // The id the kernel's register table gave this name (kNoId: none).
  uint32_t id() const { return id_; }
  // Only the register table gives one (RegisterNames::intern).
  void setId(uint32_t id) { id_ = id; }

  friend bool operator==(const RegisterName &a, const RegisterName &b) { return a.name_ == b.name_; }
  friend bool operator==(const RegisterName &a, std::string_view b) { return a.name_ == b; }
  friend bool operator==(const RegisterName &a, const std::string &b) { return a.name_ == b; }
  friend bool operator==(const RegisterName &a, const char *b) { return a.name_ == b; }
  friend bool operator<(const RegisterName &a, const RegisterName &b) { return a.name_ < b.name_; }
  friend std::string operator+(const RegisterName &a, const std::string &b) { return a.name_ + b; }
  friend std::string operator+(const std::string &a, const RegisterName &b) { return a + b.name_; }
  friend std::string operator+(const RegisterName &a, const char *b) { return a.name_ + b; }
  friend std::string operator+(const char *a, const RegisterName &b) { return a + b.name_; }

private:
  std::string name_;
  uint32_t id_ = kNoId;
};

} // namespace p2a::ptx
