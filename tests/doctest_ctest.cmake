# Registers one CTest test per doctest test suite (by -ts=) so that ctest
# reports failures by area while the binary stays one link.
function(p2a_add_doctest_suites target)
  file(GLOB srcs ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
  foreach(src ${srcs})
    get_filename_component(name ${src} NAME_WE)
    add_test(NAME ${name} COMMAND ${target} --source-file=*${name}.cpp)
  endforeach()
endfunction()
