# Writes OUT, a header defining GS_GIT_COMMIT: the commit of the tree in SRC as `git rev-parse`
# names it (12 digits), "-dirty" when tracked files differ from it, "unknown" outside git. Run on
# every build (the gs_commit target), it rewrites OUT only when that changed, so a document or
# `gpusonar --version` names the commit the binary was built from, not the one it was configured
# at, and nothing recompiles when the commit did not change.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit "unknown")
else()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SRC}
                  RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
  if(dirty)
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#define GS_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
