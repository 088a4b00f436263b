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

# One op from a descriptor: arguments echoed, workspace, the chosen kernel, the output summarized.
expect_run("op" 0 "aclnnAdd.*self +float16\\[2,3\\] strides\\[1,2\\] offset 1.*workspace +[0-9]+ bytes.*kernel +elementwise.*out +float32\\[2,3\\] +min"
           ${PACL} op "Add self=float16[2,3] strides[1,2] offset 1 other=float32[3] alpha=float32(2) out=float32[2,3]")
expect_run("op --bench" 0 "bench +5 runs: median" ${PACL} op "Softmax self=float32[8,64] dim=-1 out=float32[8,64]" --bench 5)
expect_run("op --fill arange" 0 "values: 0 2 4 3 5 7"
           ${PACL} op "Add self=float32[2,3] other=float32[3] alpha=1 out=float32[2,3]" --fill arange)
expect_run("op unknown op" nonzero "unknown op 'NotAnOp'" ${PACL} op "NotAnOp x=float32[2]")
expect_run("op unknown parameter" nonzero "has no parameter 'bogus' \\(it takes: self, other, alpha, out\\)"
           ${PACL} op "Add self=float32[2] other=float32[2] alpha=1 out=float32[2] bogus=1")
expect_run("op missing parameter" nonzero "aclnnAdd needs 'alpha'" ${PACL} op "Add self=float32[2] other=float32[2] out=float32[2]")
expect_run("op rejected by phase 1" nonzero "ACLNN_ERR_PARAM_INVALID.*does not broadcast"
           ${PACL} op "Add self=float32[2,3] other=float32[4] alpha=1 out=float32[2,3]")
# --verify compares with PyTorch when python3-torch is installed (it is optional).
execute_process(COMMAND /usr/bin/python3 -c "import torch" RESULT_VARIABLE no_torch OUTPUT_QUIET ERROR_QUIET)
if(no_torch EQUAL 0)
  foreach(d "Add self=float16[2,3] strides[1,2] offset 1 other=float32[3] alpha=float32(2) out=float32[2,3]"
            "Mm self=float32[64,32] mat2=float32[32,16] strides[1,32] out=float32[64,16] cubeMathType=1"
            "Softmax self=bfloat16[4,100] dim=-1 out=bfloat16[4,100]"
            "RmsNorm x=float16[4,64] gamma=float16[64] epsilon=1e-6 yOut=float16[4,64] rstdOut=float32[4,1]"
            "Sort self=float32[3,5] stable=true dim=1 descending=true valuesOut=float32[3,5] indicesOut=int64[3,5]"
            "IndexSelect self=float32[10,4] dim=0 index=int32[6] range[0,9] out=float32[6,4]"
            "Cat tensors=[float32[2,3],float16[4,3]] dim=0 out=float32[6,3]"
            "InplaceAdd selfRef=float32[5] other=int32[5] alpha=2"
            "ReduceSum self=float32[6,7,8] strides[1,6,42] dims=[0,2] keepDims=false dtype=float32 out=float32[7]")
    expect_run("op --verify ${d}" 0 "verify .*: ok" ${PACL} op "${d}" --verify)
  endforeach()
  expect_run("op --verify without a reference" nonzero "no PyTorch reference for aclnnLgamma"
             ${PACL} op "Lgamma self=float32[4] range[1,3] out=float32[4]" --verify)
else()
  message(STATUS "op --verify: skipped (python3-torch is not installed)")
endif()

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

# The trace rendered as a self-contained HTML page (scripts/trace_html.py) shows both tracks and the
# Add kernel's row.
execute_process(COMMAND /usr/bin/python3 ${SRC}/scripts/trace_html.py ${WORK}/trace.json ${WORK}/trace.html
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "trace_html.py: exit ${rc}\n${err}")
endif()
file(READ ${WORK}/trace.html page)
if(NOT page MATCHES "host thread" OR NOT page MATCHES "<td>aclnnAdd</td><td>elementwise")
  message(FATAL_ERROR "trace.html lacks the host track or the Add kernel row")
endif()
message(STATUS "trace_html: ok")
