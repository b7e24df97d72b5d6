# -DGPUSC_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on everything we build.
if(GPUSC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
