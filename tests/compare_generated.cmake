# cmake -DGENERATOR=prog -DARGS="a;b" -DOUT=file -DCOMMITTED=file -P compare_generated.cmake
# Runs GENERATOR ARGS... OUT (the last argument names the output file) and
# fails unless OUT equals the committed COMMITTED byte for byte.
execute_process(COMMAND ${GENERATOR} ${ARGS} ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed (${rc}): ${log}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${COMMITTED} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "${COMMITTED} differs from a fresh run of ${GENERATOR} ${ARGS} (${OUT}); regenerate and commit it")
endif()
message(STATUS "${COMMITTED} reproduced exactly")
