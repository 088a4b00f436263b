# End-to-end tests of the `pacl` command line. PACL: the pacl binary; SRC: the source tree;
# WORK: a scratch directory; SANITIZE: the sanitizers pacl was built with (the programs `pacl run`
# builds must use the same ones).
file(MAKE_DIRECTORY ${WORK})
# The checker settings are this script's own (a suite-wide PACL_CHECK_FATAL must not stop the
# `run --check` case, whose program misuses the API on purpose).
unset(ENV{PACL_CHECK})
unset(ENV{PACL_CHECK_FATAL})
# Extra compiler flags for `pacl run`, as a list that is empty when there are none (CLI11 rejects
# an empty option value).
set(flags "")
if(SANITIZE)
  string(REPLACE ";" "," san "${SANITIZE}")
  set(flags --flags "-fsanitize=${san}")
endif()

function(expect_run name expect_rc out_regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_rc STREQUAL "0" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit ${rc}\n${out}\n${err}")
  elseif(expect_rc STREQUAL "nonzero" AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit 0, expected a failure\n${out}\n${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${out_regex}")
    message(FATAL_ERROR "${name}: output does not match '${out_regex}':\n${out}\n${err}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

expect_run("version" 0 "pacl [0-9]+\\.[0-9]+" ${PACL} --version)
expect_run("cflags" 0 "-I[^ ]*include/aclnnop" ${PACL} --cflags)
expect_run("libs" 0 "-lascendcl" ${PACL} --libs)
expect_run("ops" 0 "aclnnAdd .*aclnn_add\\.h.*aclnnInplaceAdd" ${PACL} ops)
expect_run("ops --markdown" 0 "\\| op \\| in-place form \\| header \\|.*\\| aclnnPermute \\|" ${PACL} ops --markdown)
expect_run("ops --filter" 0 "aclnnSub" ${PACL} ops --filter "^sub")
expect_run("info" 0 "devices: +[0-9]+ virtual devices.*threads:" ${PACL} info)
expect_run("unknown subcommand" nonzero "" ${PACL} frobnicate)
expect_run("run --help" 0 "--trace" ${PACL} run --help)

# A CANN program built and run; its arguments follow --.
expect_run("run" 0 "all 8\\.0, PASS" ${PACL} run ${SRC}/examples/add_walkthrough.cpp ${flags})

# Missing ops are explained: a header pacl lacks, and a symbol pacl lacks.
file(WRITE ${WORK}/missing_header.cpp "#include \"aclnnop/aclnn_not_an_op.h\"\nint main() { return 0; }\n")
expect_run("missing header" nonzero "aclnn_not_an_op\\.h, which pacl does not provide.*pacl ops"
           ${PACL} run ${WORK}/missing_header.cpp ${flags})
file(WRITE ${WORK}/missing_symbol.cpp "#include <cstdint>\nextern \"C\" int aclnnNotAnOpGetWorkspaceSize(uint64_t*);\n"
           "int main() { uint64_t w = 0; return aclnnNotAnOpGetWorkspaceSize(&w); }\n")
expect_run("missing symbol" nonzero "aclnnNotAnOp is not implemented by pacl yet"
           ${PACL} run ${WORK}/missing_symbol.cpp ${flags})

# --check runs the program under the contract checker; its arguments follow --.
expect_run("run --check" 0 "use-after-free in aclrtFree"
           ${PACL} run --check ${SRC}/examples/checker_misuse.cpp ${flags} -- free-before-sync)

# --trace writes a trace that parses as JSON and holds the Add kernel on a stream track.
file(REMOVE ${WORK}/trace.json)
expect_run("run --trace" 0 "trace written to" ${PACL} run --trace ${WORK}/trace.json
           ${SRC}/examples/add_walkthrough.cpp ${flags})
file(READ ${WORK}/trace.json trace)
string(JSON n LENGTH "${trace}")
set(found_kernel FALSE)
set(found_api FALSE)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON ph GET "${trace}" ${i} ph)
  if(NOT ph STREQUAL "X")
    continue()
  endif()
  string(JSON name GET "${trace}" ${i} name)
  string(JSON cat GET "${trace}" ${i} cat)
  if(cat STREQUAL "stream" AND name STREQUAL "Add")
    string(JSON op GET "${trace}" ${i} args op)
    string(JSON kernel GET "${trace}" ${i} args kernel)
    if(op STREQUAL "aclnnAdd" AND kernel MATCHES "elementwise")
      set(found_kernel TRUE)
    endif()
  elseif(cat STREQUAL "api" AND name STREQUAL "aclnnAddGetWorkspaceSize")
    set(found_api TRUE)
  endif()
endforeach()
if(NOT found_kernel OR NOT found_api)
  message(FATAL_ERROR "the trace (${n} events) lacks the Add kernel span or the phase-1 API span")
endif()
message(STATUS "trace: ${n} events, kernel and API spans present")
