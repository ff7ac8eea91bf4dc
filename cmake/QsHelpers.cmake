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

# qs_cc_tests_in(DIR dir DEPS targets... [LABELS labels...] [NAME binary])
# The *_test.cc files of DIR: with NAME, one test binary of that name holding them all (fewer links,
# which dominate the sanitizer trees' build); without, one binary per file, named after the file (the
# integration tests, which the TSan stage picks file by file).
function(qs_cc_tests_in)
  cmake_parse_arguments(QS "" "DIR;NAME" "DEPS;LABELS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${QS_DIR}/*_test.cc)
  if(QS_NAME)
    if(test_sources)
      qs_cc_test(NAME ${QS_NAME} SRCS ${test_sources} DEPS ${QS_DEPS} LABELS ${QS_LABELS})
    endif()
    return()
  endif()
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

# qs_cc_library(NAME name DIR folder [SUBDIRS folders...] [EXCLUDE regex] DEPS targets...
#   [PRIVATE_DEPS targets...])
# One static library per folder of core/: the folder's *.cc (and those of SUBDIRS, folders below it that
# belong to the same library), but for the files whose path matches EXCLUDE (built by another library). Layering is checked at build time: a source of the library that includes
# core/<folder>/ of a library it does not depend on (directly or through its qs_ dependencies) fails
# the build (cmake/CheckLayering.cmake).
function(qs_cc_library)
  cmake_parse_arguments(QS "" "NAME;DIR;EXCLUDE" "SUBDIRS;DEPS;PRIVATE_DEPS" ${ARGN})
  set(dirs ${QS_DIR})
  foreach(sub IN LISTS QS_SUBDIRS)
    list(APPEND dirs ${QS_DIR}/${sub})
  endforeach()
  set(sources)
  set(headers)
  foreach(dir IN LISTS dirs)
    file(GLOB dir_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cc)
    file(GLOB dir_headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.h
      ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.inc)
    list(APPEND sources ${dir_sources})
    list(APPEND headers ${dir_headers})
  endforeach()
  if(QS_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${QS_EXCLUDE}")
  endif()
  add_library(${QS_NAME} STATIC ${sources})
  target_include_directories(${QS_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${QS_NAME} PUBLIC ${QS_DEPS} PRIVATE ${QS_PRIVATE_DEPS})
  # The core folders this library may include: its own and those of every qs_ library it depends on.
  set(allowed ${dirs})
  foreach(dep IN LISTS QS_DEPS QS_PRIVATE_DEPS)
    get_property(dep_dirs GLOBAL PROPERTY QS_LAYER_${dep})
    list(APPEND allowed ${dep_dirs})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL PROPERTY QS_LAYER_${QS_NAME} ${allowed})
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${QS_NAME}.layering)
  string(REPLACE ";" "," allowed_csv "${allowed}")
  string(REPLACE ";" "," files_csv "${sources};${headers}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLIBRARY=${QS_NAME} -DALLOWED=${allowed_csv} -DFILES=${files_csv}
      -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    DEPENDS ${sources} ${headers} ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    COMMENT "Checking the includes of ${QS_NAME}" VERBATIM)
  add_custom_target(${QS_NAME}_layering DEPENDS ${stamp})
  add_dependencies(${QS_NAME} ${QS_NAME}_layering)
endfunction()

# qs_check_includes(TARGET target FORBID folders...)
# The layering check of the tree's top-level folders: the build of TARGET fails when one of its sources or
# the headers of its own folder includes a header under one of the FORBID folders ("core", "server",
# "clients"). Sources from other folders (the families' text formats in qs_formats) are checked alone:
# the headers beside them belong to another library.
function(qs_check_includes)
  cmake_parse_arguments(QS "" "TARGET" "FORBID" ${ARGN})
  get_target_property(sources ${QS_TARGET} SOURCES)
  get_target_property(source_dir ${QS_TARGET} SOURCE_DIR)
  set(files)
  set(dirs)
  foreach(src IN LISTS sources)
    if(NOT IS_ABSOLUTE ${src})
      set(src ${source_dir}/${src})
    endif()
    list(APPEND files ${src})
    get_filename_component(dir ${src} DIRECTORY)
    if(dir STREQUAL source_dir)
      list(APPEND dirs ${dir})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  foreach(dir IN LISTS dirs)
    file(GLOB headers CONFIGURE_DEPENDS ${dir}/*.h)
    list(APPEND files ${headers})
  endforeach()
  list(REMOVE_DUPLICATES files)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${QS_TARGET}.includes)
  string(REPLACE ";" "," forbid_csv "${QS_FORBID}")
  string(REPLACE ";" "," files_csv "${files}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLIBRARY=${QS_TARGET} -DFORBID=${forbid_csv} -DFILES=${files_csv}
      -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/CheckLayering.cmake
    COMMENT "Checking the includes of ${QS_TARGET}" VERBATIM)
  add_custom_target(${QS_TARGET}_includes DEPENDS ${stamp})
  add_dependencies(${QS_TARGET} ${QS_TARGET}_includes)
endfunction()
