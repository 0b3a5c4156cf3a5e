// Linking an ELF relocatable object into a loadable AMDHSA code object
// (`.hsaco`, a shared object), as `hipcc --genco` and ZLUDA produce it: with
// LLD's ELF linker (`ld.lld -shared`), run as the installed `ld.lld-19`.
#pragma once

#include <string>

namespace p2a::link {

// The linker found on this machine: ld.lld-19 on PATH, else ld.lld on PATH,
// else /usr/lib/llvm-19/bin/ld.lld. Empty if none.
std::string findLinker();

// Links `object` (ELF bytes) into a shared code object. On failure, `error`
// says why (no linker: which package provides it; a link error: LLD's message).
bool linkCodeObject(const std::string &object, std::string &hsaco, std::string &error);

} // namespace p2a::link
