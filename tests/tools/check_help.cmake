# `cmake -DTOOL=<path> -DNAME=<name> -P check_help.cmake`: runs `TOOL --help` and fails unless it exits 0
# within 10 s with stdout starting "Usage: NAME". A tool that took --help for a value, a file or a size
# would instead start its run (minutes for some) or fail on the word; PASS_REGULAR_EXPRESSION alone
# would not see the exit code.
execute_process(COMMAND "${TOOL}" --help
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 10)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${NAME} --help: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT out MATCHES "^Usage: ${NAME} ")
  message(FATAL_ERROR "${NAME} --help: stdout does not start with \"Usage: ${NAME} \":\n${out}")
endif()
