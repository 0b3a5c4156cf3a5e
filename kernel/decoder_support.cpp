#include "kernel/decoder_support.hpp"

#include "semantics/bitvec.hpp"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>

namespace p2a::kernel::detail {

namespace ast = ::ptx::ast;
using ptx::TypeClass;

namespace {

// `generic(name)`, `name`, either with `+N` or `-N`: a variable's address.
std::optional<Variable::Address> addressElement(const std::string &item) {
  std::string rest = item;
  // A .global or .const variable's generic address is its address.
  if (rest.rfind("generic(", 0) == 0) {
    const size_t close = rest.find(')');
    if (close == std::string::npos)
      return std::nullopt;
    rest = rest.substr(8, close - 8) + rest.substr(close + 1);
  }
  auto identChar = [](char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || (!first && std::isdigit(static_cast<unsigned char>(c)));
  };
  size_t n = 0;
  while (n < rest.size() && identChar(rest[n], n == 0))
    ++n;
  if (n == 0)
    return std::nullopt;
  Variable::Address a;
  a.symbol = rest.substr(0, n);
  const std::string tail = rest.substr(n);
  if (!tail.empty()) {
    if (tail[0] != '+' && tail[0] != '-')
      return std::nullopt;
    try {
      size_t used = 0;
      const uint64_t v = std::stoull(tail.substr(1), &used, 0);
      if (used != tail.size() - 1)
        return std::nullopt;
      a.addend = tail[0] == '-' ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    } catch (...) {
      return std::nullopt;
    }
  }
  return a;
}

} // namespace

bool parseInitializer(const std::string &text, unsigned elemBytes, std::vector<uint8_t> &out,
                      std::vector<Variable::Address> *addresses) {
  std::string s;
  for (char c : text)
    if (c != '{' && c != '}' && !std::isspace(static_cast<unsigned char>(c)))
      s += c;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos)
      j = s.size();
    std::string item = s.substr(i, j - i);
    if (item.empty())
      return false;
    if (addresses && elemBytes == 8 && !std::isdigit(static_cast<unsigned char>(item[0])) && item[0] != '-') {
      std::optional<Variable::Address> a = addressElement(item);
      if (!a)
        return false;
      a->offset = static_cast<unsigned>(out.size());
      addresses->push_back(*a);
      out.insert(out.end(), 8, 0);
      i = j + 1;
      continue;
    }
    bool neg = item[0] == '-';
    if (neg)
      item = item.substr(1);
    if (!item.empty() && (item.back() == 'U' || item.back() == 'u'))
      item.pop_back();
    uint64_t v = 0;
    try {
      size_t used = 0;
      v = std::stoull(item, &used, 0);
      if (used != item.size())
        return false;
    } catch (...) {
      return false;
    }
    if (neg)
      v = 0 - v;
    for (unsigned b = 0; b < elemBytes; ++b)
      out.push_back(static_cast<uint8_t>(v >> (8 * b)));
    i = j + 1;
  }
  return true;
}

std::optional<Variable> variableOf(const ast::Declaration &d, const ast::Declarator &dr, Diagnostics &diags) {
  Variable v;
  v.name = dr.name;
  v.loc = dr.loc;
  if (d.space == "shared")
    v.space = Space::Shared;
  else if (d.space == "local")
    v.space = Space::Local;
  else if (d.space == "const")
    v.space = Space::Const;
  else if (d.space == "global")
    v.space = Space::Global;
  else
    return std::nullopt;
  std::optional<ptx::ScalarType> st = ptx::parseScalarType(d.type, ptx::FloatTypes::AsBits);
  if (!st || st->bits < 8) {
    error(diags, d.loc, "variables of type '." + d.type + "' are not supported");
    return std::nullopt;
  }
  unsigned elem = st->bits / 8 * (d.vector ? *d.vector : 1);
  uint64_t count = 1;
  const bool external = std::find(d.linkage.begin(), d.linkage.end(), "extern") != d.linkage.end();
  for (const std::optional<uint64_t> &n : dr.dims) {
    if (!n && v.space == Space::Shared && external && dr.dims.size() == 1) {
      v.dynamic = true; // dynamic shared memory (PTX ISA 5.1.5: an unsized extern .shared array)
      count = 0;
      break;
    }
    if (!n) {
      error(diags, dr.loc, "unsized array '" + dr.name + "' is only supported as dynamic shared memory (.extern .shared)");
      return std::nullopt;
    }
    count *= *n;
  }
  if (count * elem > (64u << 20)) {
    error(diags, dr.loc, "variable '" + dr.name + "' is larger than 64 MiB");
    return std::nullopt;
  }
  v.size = static_cast<unsigned>(count * elem);
  v.align = d.align ? *d.align : elem;
  if (!dr.initializer.empty()) {
    if (!parseInitializer(dr.initializer, st->bits / 8, v.init, &v.addresses) || v.init.size() > v.size) {
      v.init.clear();
      v.addresses.clear();
      v.initError = "cannot read the initializer of '" + dr.name + "' (integers, and variables' addresses in 64-bit elements)";
      return v;
    }
    v.init.resize(v.size, 0);
  }
  return v;
}

std::optional<std::pair<Special, unsigned>> specialOf(const ast::Operand &o) {
  static const std::pair<const char *, Special> dims[] = {
      {"%tid", Special::Tid}, {"%ntid", Special::Ntid}, {"%ctaid", Special::Ctaid}, {"%nctaid", Special::Nctaid}};
  // (Every special register's name starts %t, %n, %c, %l or %w: the
  // kernel's own registers, nearly every operand, are told apart at once.)
  if (o.kind == ast::Operand::Kind::Register && o.name.size() > 2 && o.name[0] == '%' &&
      llvm::StringRef("tnclw").contains(o.name[1])) {
    for (auto &[n, s] : dims)
      if (o.name == n && o.element >= 'x' && o.element <= 'z')
        return std::make_pair(s, static_cast<unsigned>(o.element - 'x'));
    static const std::pair<const char *, Special> plain[] = {
        {"%laneid", Special::Laneid},          {"%warpid", Special::Warpid},
        {"%nwarpid", Special::Nwarpid},        {"%lanemask_eq", Special::LanemaskEq},
        {"%lanemask_le", Special::LanemaskLe}, {"%lanemask_lt", Special::LanemaskLt},
        {"%lanemask_ge", Special::LanemaskGe}, {"%lanemask_gt", Special::LanemaskGt}};
    for (auto &[n, sp] : plain)
      if (o.name == n && !o.element)
        return std::make_pair(sp, 0u);
  }
  if (o.kind == ast::Operand::Kind::Symbol && o.name == "WARP_SZ")
    return std::make_pair(Special::WarpSize, 0u);
  return std::nullopt;
}

unsigned NamesOutsideBody::count(const ast::Function &f, const std::string &name) {
  if (!moduleVariables_) {
    moduleVariables_.emplace();
    for (const ast::Declaration &d : m_.globals)
      for (const ast::Declarator &dr : d.declarators)
        ++(*moduleVariables_)[dr.name];
  }
  auto it = moduleVariables_->find(name);
  unsigned c = it == moduleVariables_->end() ? 0 : it->second;
  for (const std::vector<ast::Declaration> *ds : {&f.params, &f.returns})
    for (const ast::Declaration &d : *ds)
      for (const ast::Declarator &dr : d.declarators)
        c += dr.name == name;
  return c;
}

llvm::StringMap<const ast::Function *> functionsWithBody(const ast::Module &m) {
  llvm::StringMap<const ast::Function *> byName;
  for (const ast::Function &f : m.functions)
    if (!f.is_entry && f.body)
      byName.insert_or_assign(f.name, &f);
  return byName;
}

} // namespace p2a::kernel::detail
