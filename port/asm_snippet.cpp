#include "port/asm_snippet.hpp"

#include <cctype>

namespace p2a::port {

namespace {

// A recursive-descent reader of C integer constant expressions (unsigned
// 64-bit arithmetic, as the value ends up as the operand's bit pattern).
class ConstantReader {
public:
  explicit ConstantReader(const std::string &s) : s_(s) {}
  std::optional<uint64_t> all() {
    std::optional<uint64_t> v = binary(0);
    skip();
    return v && pos_ == s_.size() ? v : std::nullopt;
  }

private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool take(const char *op) {
    skip();
    const std::string_view o(op);
    if (s_.compare(pos_, o.size(), o) != 0)
      return false;
    // `<` is not `<<`, `&` is not `&&`.
    if (o.size() == 1 && pos_ + 1 < s_.size() && s_[pos_ + 1] == o[0] && (o[0] == '<' || o[0] == '>' ||
                                                                            o[0] == '&' || o[0] == '|'))
      return false;
    pos_ += o.size();
    return true;
  }
  // Precedence levels, loosest first.
  static constexpr const char *kLevels[][3] = {
      {"|", nullptr, nullptr}, {"^", nullptr, nullptr}, {"&", nullptr, nullptr},
      {"<<", ">>", nullptr},   {"+", "-", nullptr},     {"*", "/", "%"}};
  std::optional<uint64_t> binary(unsigned level) {
    if (level == std::size(kLevels))
      return unary();
    std::optional<uint64_t> v = binary(level + 1);
    while (v) {
      const char *op = nullptr;
      for (const char *o : kLevels[level])
        if (o && take(o)) {
          op = o;
          break;
        }
      if (!op)
        break;
      std::optional<uint64_t> r = binary(level + 1);
      if (!r)
        return std::nullopt;
      const std::string_view o(op);
      if ((o == "/" || o == "%") && *r == 0)
        return std::nullopt;
      if ((o == "<<" || o == ">>") && *r >= 64)
        return std::nullopt;
      v = o == "|" ? *v | *r : o == "^" ? *v ^ *r : o == "&" ? *v & *r : o == "<<" ? *v << *r
        : o == ">>" ? *v >> *r : o == "+" ? *v + *r : o == "-" ? *v - *r : o == "*" ? *v * *r
        : o == "/" ? *v / *r : *v % *r;
    }
    return v;
  }
  std::optional<uint64_t> unary() {
    if (take("-")) {
      auto v = unary();
      return v ? std::optional<uint64_t>(0 - *v) : std::nullopt;
    }
    if (take("~")) {
      auto v = unary();
      return v ? std::optional<uint64_t>(~*v) : std::nullopt;
    }
    if (take("+"))
      return unary();
    if (take("(")) {
      auto v = binary(0);
      return v && take(")") ? v : std::nullopt;
    }
    return literal();
  }
  std::optional<uint64_t> literal() {
    skip();
    if (pos_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[pos_])))
      return std::nullopt;
    unsigned base = 10;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] | 32) == 'x')
      base = 16, pos_ += 2;
    else if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] | 32) == 'b')
      base = 2, pos_ += 2;
    else if (s_[pos_] == '0')
      base = 8;
    uint64_t v = 0;
    bool digits = false;
    for (; pos_ < s_.size(); ++pos_) {
      const char c = s_[pos_];
      if (c == '\'')
        continue;
      unsigned d;
      if (std::isdigit(static_cast<unsigned char>(c)))
        d = static_cast<unsigned>(c - '0');
      else if (std::isxdigit(static_cast<unsigned char>(c)) && base == 16)
        d = static_cast<unsigned>((c | 32) - 'a' + 10);
      else
        break;
      if (d >= base)
        return std::nullopt;
      v = v * base + d;
      digits = true;
    }
    if (!digits && base != 8)
      return std::nullopt;
    while (pos_ < s_.size() && ((s_[pos_] | 32) == 'u' || (s_[pos_] | 32) == 'l'))
      ++pos_;
    return v;
  }

  const std::string &s_;
  size_t pos_ = 0;
};

struct Constraint {
  bool output = false, readWrite = false;
  char kind = 0; // r l h n f d, or 0
  int tiedTo = -1;
};

Constraint parseConstraint(const std::string &c) {
  Constraint r;
  for (char ch : c) {
    if (ch == '=')
      r.output = true;
    else if (ch == '+')
      r.output = r.readWrite = true;
    else if (ch == '&' || ch == '%' || std::isspace(static_cast<unsigned char>(ch)))
      continue;
    else if (std::isdigit(static_cast<unsigned char>(ch)) && r.kind == 0)
      r.tiedTo = (r.tiedTo < 0 ? 0 : r.tiedTo * 10) + (ch - '0');
    else if (r.kind == 0 && r.tiedTo < 0)
      r.kind = ch;
  }
  return r;
}

} // namespace

std::optional<uint64_t> evaluateConstant(const std::string &expr) { return ConstantReader(expr).all(); }

AsmSnippet buildSnippet(const AsmStatement &st) {
  AsmSnippet sn;
  auto fail = [&](size_t at, std::string why) {
    sn.error = std::move(why);
    sn.errorOffset = at;
    return sn;
  };
  const size_t numOutputs = st.outputs.size();
  std::vector<int> operandOf; // per %N: index into sn.operands, or -1 for an immediate
  std::vector<std::string> immText;
  for (size_t i = 0; i < numOutputs + st.inputs.size(); ++i) {
    const bool isOutput = i < numOutputs;
    const AsmOperand &op = isOutput ? st.outputs[i] : st.inputs[i - numOutputs];
    const Constraint c = parseConstraint(op.constraint);
    if (isOutput != c.output)
      return fail(op.constraintOffset, isOutput ? "an output operand's constraint must start with '=' or '+'"
                                                : "an input operand's constraint cannot be '=' or '+'");
    if (!isOutput && c.tiedTo >= 0) {
      if (static_cast<size_t>(c.tiedTo) >= numOutputs)
        return fail(op.constraintOffset, "the input is tied to %" + std::to_string(c.tiedTo) + ", not an output");
      SnippetOperand &out = sn.operands[static_cast<size_t>(operandOf[static_cast<size_t>(c.tiedTo)])];
      if (out.input)
        return fail(op.constraintOffset, "%" + std::to_string(c.tiedTo) + " already has an input value");
      out.input = true;
      out.inputExpr = op.expr;
      operandOf.push_back(operandOf[static_cast<size_t>(c.tiedTo)]);
      immText.emplace_back();
      continue;
    }
    SnippetOperand so;
    so.index = static_cast<unsigned>(i);
    so.output = isOutput;
    so.input = !isOutput || c.readWrite;
    so.expr = op.expr;
    if (c.readWrite)
      so.inputExpr = op.expr;
    so.exprOffset = op.constraintOffset;
    switch (c.kind) {
    case 'r': so.width = 32; break;
    case 'l': so.width = 64; break;
    case 'h': so.width = 16; break;
    case 'n':
    case 'i':
      if (isOutput)
        return fail(op.constraintOffset, "an immediate constraint on an output");
      so.immediate = evaluateConstant(op.expr);
      // A value known only after macro expansion or template instantiation
      // is read as a 32-bit register: the translation is valid for any value.
      break;
    case 'f':
    case 'd':
      return fail(op.constraintOffset, std::string("a floating-point operand (\"") + op.constraint +
                                           "\"): floating point is not translated yet");
    default:
      return fail(op.constraintOffset, "unsupported operand constraint \"" + op.constraint + "\"");
    }
    if (so.immediate) {
      operandOf.push_back(-1);
      immText.push_back(std::to_string(*so.immediate));
      continue;
    }
    operandOf.push_back(static_cast<int>(sn.operands.size()));
    immText.emplace_back();
    sn.operands.push_back(std::move(so));
  }
  for (size_t i = 0; i < operandOf.size(); ++i)
    sn.registerOf.push_back(operandOf[i] < 0 ? immText[i]
                                             : sn.operands[static_cast<size_t>(operandOf[i])].ptxRegister());

  // The template, placeholders replaced.
  const std::string &t = st.templateText;
  auto emit = [&](const std::string &s, size_t offset) {
    sn.text += s;
    sn.offsets.insert(sn.offsets.end(), s.size(), offset);
  };
  for (size_t i = 0; i < t.size(); ++i) {
    const size_t at = st.templateOffsets[i];
    if (t[i] != '%') {
      emit(std::string(1, t[i]), at);
      continue;
    }
    if (i + 1 < t.size() && t[i + 1] == '%') {
      emit("%", at);
      ++i;
      continue;
    }
    size_t n = 0, j = i + 1;
    if (j < t.size() && t[j] == '[') {
      const size_t close = t.find(']', j);
      if (close == std::string::npos)
        return fail(at, "unterminated %[name] in the asm template");
      const std::string name = t.substr(j + 1, close - j - 1);
      bool found = false;
      for (size_t k = 0; k < numOutputs + st.inputs.size(); ++k) {
        const AsmOperand &op = k < numOutputs ? st.outputs[k] : st.inputs[k - numOutputs];
        if (op.name == name) {
          n = k;
          found = true;
          break;
        }
      }
      if (!found)
        return fail(at, "no operand is named [" + name + "]");
      j = close + 1;
    } else if (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) {
      while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j])))
        n = n * 10 + static_cast<size_t>(t[j++] - '0');
      if (n >= sn.registerOf.size())
        return fail(at, "%" + std::to_string(n) + " names no operand (the statement has " +
                            std::to_string(sn.registerOf.size()) + ")");
    } else {
      // nvcc passes any other '%' through: a PTX register (`.reg .u16 %al;`).
      emit("%", at);
      continue;
    }
    emit(sn.registerOf[n], at);
    i = j - 1;
  }
  // Declarations after the statements (the snippet translation reads them
  // first wherever they are), so that template lines keep their numbers.
  sn.statementsLength = sn.text.size();
  std::string decls = "\n";
  for (const SnippetOperand &o : sn.operands)
    decls += ".reg .b" + std::to_string(o.width) + " " + o.ptxRegister() + ";\n";
  emit(decls, st.begin);
  return sn;
}

} // namespace p2a::port
