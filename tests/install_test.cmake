# cmake -DBUILD_DIR=... -DWORK=... -P install_test.cmake
# Installs the build into WORK/prefix, runs the installed binary, and builds
# the Debian package with cpack, checking its file list and Depends field.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(prefix ${WORK}/prefix)

execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}${err}")
endif()
foreach(f bin/ptx2amdgpu share/doc/ptx2amdgpu/README.md share/doc/ptx2amdgpu/rules.md
          share/doc/ptx2amdgpu/architecture.md)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

# The installed binary works on its own (run from another directory).
execute_process(COMMAND ${prefix}/bin/ptx2amdgpu explain "shf.l.wrap.b32 %0, %1, %1, 7;"
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "v_alignbit_b32 v0, v1, v1, 25")
  message(FATAL_ERROR "installed ptx2amdgpu explain failed (${rc}):\n${out}${err}")
endif()

# The Debian package: cpack with the build's own configuration, into WORK.
execute_process(COMMAND cpack -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK}/package
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}):\n${out}${err}")
endif()
file(GLOB debs ${WORK}/package/*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${WORK}/package, found: ${debs}")
endif()
execute_process(COMMAND dpkg-deb --field ${debs} Depends OUTPUT_VARIABLE depends RESULT_VARIABLE rc)
foreach(lib libz3-4 zlib1g libzstd1 lld-19)
  if(NOT rc EQUAL 0 OR NOT depends MATCHES "${lib}")
    message(FATAL_ERROR "package Depends lacks ${lib}: '${depends}'")
  endif()
endforeach()
# LLVM is linked statically: the binary must not need libLLVM at run time.
execute_process(COMMAND readelf -d ${WORK}/prefix/bin/ptx2amdgpu OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR dynamic MATCHES "libLLVM")
  message(FATAL_ERROR "the installed binary needs a shared libLLVM (or readelf failed):\n${dynamic}")
endif()
execute_process(COMMAND dpkg-deb --contents ${debs} OUTPUT_VARIABLE contents)
if(NOT contents MATCHES "usr/bin/ptx2amdgpu" OR NOT contents MATCHES "usr/share/doc/ptx2amdgpu/rules.md")
  message(FATAL_ERROR "package contents incomplete:\n${contents}")
endif()
message(STATUS "installed and packaged: ${debs}")
