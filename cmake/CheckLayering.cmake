# Fails when a file of LIBRARY includes a header it may not:
# - with ALLOWED (comma-separated folders relative to core/, e.g. "base,qubo"): a header of a core/ folder
#   outside ALLOWED (the layers inside core/, qs_cc_library);
# - with FORBID (comma-separated top-level folders, e.g. "core,server"): any header under those folders (the
#   layers of the tree: clients never include core/ or server/, the server never includes clients/;
#   qs_check_includes).
# Run at build time; writes STAMP when every include keeps to the layers.
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" allowed "${ALLOWED}")
string(REPLACE "," ";" forbidden "${FORBID}")
string(REPLACE "," ";" files "${FILES}")
set(violations)
foreach(file IN LISTS files)
  if(file STREQUAL "")
    continue()
  endif()
  if(forbidden)
    file(STRINGS ${file} includes REGEX "^#include \"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*$" "\\1" top "${line}")
      if(top IN_LIST forbidden)
        list(APPEND violations "${file}: ${line} (${LIBRARY} may not include ${top}/)")
      endif()
    endforeach()
  else()
    file(STRINGS ${file} includes REGEX "^#include \"core/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"core/(.*)/[^/]*\".*$" "\\1" folder "${line}")
      if(NOT folder IN_LIST allowed)
        list(APPEND violations "${file}: ${line} (core/${folder} is not a dependency of ${LIBRARY})")
      endif()
    endforeach()
  endif()
endforeach()
if(violations)
  string(REPLACE ";" "\n  " text "${violations}")
  message(FATAL_ERROR "layering: wrong-way includes in ${LIBRARY}:\n  ${text}")
endif()
file(WRITE ${STAMP} "ok\n")
