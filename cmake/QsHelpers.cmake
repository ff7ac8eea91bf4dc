# Small helpers in the style of absl_cc_library / absl_cc_test, so that each folder's CMakeLists.txt stays
# a short list of names, sources and dependencies.
include_guard(GLOBAL)

# qs_cc_test(NAME name SRCS files... DEPS targets... [LABELS labels...])
# Builds one GoogleTest binary and registers its tests with ctest (discovered at build time).
function(qs_cc_test)
  cmake_parse_arguments(QS "" "NAME" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${QS_NAME} ${QS_SRCS})
  target_link_libraries(${QS_NAME} PRIVATE ${QS_DEPS} GTest::gmock GTest::gtest_main)
  target_include_directories(${QS_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  if(QS_SANITIZE MATCHES "thread")
    # Lets TSan see Debian's uninstrumented absl::Mutex/CondVar/Notification (see the file).
    target_sources(${QS_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/testing/tsan_absl_sync.cc)
    target_link_libraries(${QS_NAME} PRIVATE ${CMAKE_DL_LIBS})
  endif()
  if(NOT QS_LABELS)
    set(QS_LABELS unit)
  endif()
  # gtest_discover_tests splits every property value at ';' (CMake 3.25), so a property carries one
  # variable: the tests run in the source directory (what QS_SOURCE_DIR defaults to), ENVIRONMENT names
  # this build tree (for the qsolve and qs_server binaries of the same build), and a TSan build sets
  # TSAN_OPTIONS through ENVIRONMENT_MODIFICATION.
  set(test_properties LABELS "${QS_LABELS}" ENVIRONMENT "QS_BINARY_DIR=${PROJECT_BINARY_DIR}")
  if(QS_TSAN_OPTIONS)
    list(APPEND test_properties ENVIRONMENT_MODIFICATION "TSAN_OPTIONS=set:${QS_TSAN_OPTIONS}")
  endif()
  gtest_discover_tests(${QS_NAME}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES ${test_properties}
    DISCOVERY_TIMEOUT 120)
endfunction()

# qs_cc_tests_in(DIR dir DEPS targets... [LABELS labels...])
# One test binary per *_test.cc file in DIR, named after the file.
function(qs_cc_tests_in)
  cmake_parse_arguments(QS "" "DIR" "DEPS;LABELS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${QS_DIR}/*_test.cc)
  foreach(src IN LISTS test_sources)
    get_filename_component(name ${src} NAME_WE)
    qs_cc_test(NAME ${name} SRCS ${src} DEPS ${QS_DEPS} LABELS ${QS_LABELS})
  endforeach()
endfunction()

# qs_cc_benchmark(NAME name SRCS files... DEPS targets...)
function(qs_cc_benchmark)
  cmake_parse_arguments(QS "" "NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${QS_NAME} ${QS_SRCS})
  target_link_libraries(${QS_NAME} PRIVATE ${QS_DEPS} benchmark::benchmark)
  target_include_directories(${QS_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
endfunction()
