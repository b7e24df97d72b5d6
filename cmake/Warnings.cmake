# gpusc_warnings(target): the project's warning set; the code builds clean with it.
function(gpusc_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local)
endfunction()
