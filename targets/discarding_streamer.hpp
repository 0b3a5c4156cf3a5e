// Base of the streamers that look at what MC parses without writing it
// anywhere (mc_backend.cpp's cost and size passes, instruction_reuse.cpp's
// recorder): accepts and drops what MCStreamer leaves pure virtual (symbol
// attributes, common/zerofill, COFF records).
#pragma once

#include <llvm/MC/MCStreamer.h>

namespace p2a::mc {

class DiscardingStreamer : public llvm::MCStreamer {
public:
  using llvm::MCStreamer::MCStreamer;
  bool emitSymbolAttribute(llvm::MCSymbol *, llvm::MCSymbolAttr) override { return true; }
  void emitCommonSymbol(llvm::MCSymbol *, uint64_t, llvm::Align) override {}
  void emitZerofill(llvm::MCSection *, llvm::MCSymbol * = nullptr, uint64_t = 0,
                    llvm::Align = llvm::Align(1), llvm::SMLoc = llvm::SMLoc()) override {}
  void emitGPRel32Value(const llvm::MCExpr *) override {}
  void beginCOFFSymbolDef(const llvm::MCSymbol *) override {}
  void emitCOFFSymbolStorageClass(int) override {}
  void emitCOFFSymbolType(int) override {}
  void endCOFFSymbolDef() override {}
};

} // namespace p2a::mc
