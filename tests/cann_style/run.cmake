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
