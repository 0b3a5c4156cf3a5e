# The pipeline's layering: for each source folder, the folders its files may
# #include besides their own. Data flows one way (docs/architecture.md), so
# each list names only folders below it. cmake/check_layering.cmake checks
# every #include "folder/..." against this table on every build.
set(P2A_LAYER_grammar "")
set(P2A_LAYER_targets "")
set(P2A_LAYER_ptx grammar targets)
set(P2A_LAYER_semantics ptx grammar targets)
set(P2A_LAYER_rules semantics ptx grammar targets)
set(P2A_LAYER_proof rules semantics ptx grammar targets)
set(P2A_LAYER_isel rules semantics ptx grammar targets)
set(P2A_LAYER_kernel kernel/analysis semantics ptx grammar targets)
set(P2A_LAYER_kernel/analysis kernel semantics ptx grammar targets)
set(P2A_LAYER_kernel/transforms kernel kernel/analysis isel rules semantics ptx grammar targets)
set(P2A_LAYER_lowering kernel/transforms kernel kernel/analysis isel rules semantics ptx grammar targets)
set(P2A_LAYER_driver lowering kernel/transforms kernel kernel/analysis isel rules semantics ptx grammar targets)
set(P2A_LAYER_reports driver lowering kernel/transforms kernel kernel/analysis isel proof rules semantics ptx grammar
    targets)
set(P2A_LAYER_port driver lowering kernel/transforms kernel kernel/analysis isel proof rules semantics ptx grammar
    targets)
set(P2A_LAYER_validation driver lowering kernel/transforms kernel kernel/analysis isel rules semantics ptx
    grammar targets)
set(P2A_LAYER_FOLDERS grammar targets ptx semantics rules proof isel kernel kernel/analysis kernel/transforms lowering
    driver reports port validation)
