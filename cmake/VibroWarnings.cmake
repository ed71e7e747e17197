# One place for the warning set, applied per target with vibro_set_warnings(target).
function(vibro_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
endfunction()
