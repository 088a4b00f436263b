# Installs pacl into a fresh prefix, builds cann_style_add.cpp with CANN's exact example build line
# against it, runs it and checks its output. Inputs: SOURCE_DIR, BINARY_DIR, CXX, SANITIZE.
set(P ${BINARY_DIR}/cann_style_prefix)
file(REMOVE_RECURSE ${P})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${P}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
foreach(f include/acl/acl.h include/acl/acl_rt_allocator.h include/acl/error_codes/rt_error_codes.h
          include/aclnn/acl_meta.h include/aclnn/aclnn_base.h include/aclnn/opdev/op_errno.h
          include/aclnnop/aclnn_util.h include/aclnnop/aclnn_add.h lib64/libascendcl.so lib64/libnnopbase.so
          lib64/libopapi.so lib64/libopapi_math.so lib64/libopapi_nn.so set_env.sh)
  if(NOT EXISTS ${P}/${f})
    message(FATAL_ERROR "the install prefix lacks ${f}")
  endif()
endforeach()
set(extra)
if(SANITIZE)
  string(REPLACE ";" "," san "${SANITIZE}")
  set(extra -fsanitize=${san})
endif()
set(exe ${BINARY_DIR}/cann_style_add)
# The line CANN's example scripts use (plus an rpath so the test needs no environment).
execute_process(
  COMMAND ${CXX} -std=c++11 ${SOURCE_DIR}/tests/cann_style/cann_style_add.cpp -o ${exe} ${extra}
          -I ${P}/include -I ${P}/include/aclnn -I ${P}/include/aclnnop
          -L ${P}/lib64 -Wl,-rpath,${P}/lib64 -lopapi_math -lopapi_nn -lascendcl -lnnopbase
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the CANN-style program did not build:\n${out}${err}")
endif()
execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "result\\[7\\] is: 235.000000" OR NOT out MATCHES "cann_style: PASS")
  message(FATAL_ERROR "the CANN-style program failed (exit ${rc})")
endif()

# The same prefix serves build systems: the example CMake project through find_package(pacl), and
# a pkg-config build line.
set(proj ${BINARY_DIR}/cmake_project_build)
file(REMOVE_RECURSE ${proj})
set(san_flags)
if(SANITIZE)
  set(san_flags "-DCMAKE_CXX_FLAGS=-fsanitize=${san}" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${san}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/cmake_project -B ${proj} -DCMAKE_PREFIX_PATH=${P}
                        -DCMAKE_CXX_COMPILER=${CXX} ${san_flags}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the find_package(pacl) example failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${proj} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the find_package(pacl) example failed:\n${out}${err}")
endif()
execute_process(COMMAND ${proj}/add_app RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "add_app: out\\[0\\] = 7.0: PASS")
  message(FATAL_ERROR "the find_package(pacl) example failed (exit ${rc}):\n${out}${err}")
endif()
message("${out}")
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${P}/lib64/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs pacl OUTPUT_VARIABLE pc RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(pc)
  execute_process(COMMAND ${CXX} -std=c++11 ${SOURCE_DIR}/examples/cmake_project/main.cpp -o ${BINARY_DIR}/pc_app ${extra} ${pc}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building with `pkg-config --cflags --libs pacl` failed:\n${out}${err}")
  endif()
  execute_process(COMMAND ${BINARY_DIR}/pc_app RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS")
    message(FATAL_ERROR "the pkg-config build failed to run (exit ${rc}): ${out}")
  endif()
  message("pkg-config build: ${out}")
endif()
