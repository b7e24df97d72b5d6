// Toolchain check (cmake/ToolchainChecks.cmake): Debian bookworm's GCC 12.2 at -O2/-O3 compiles
// the functions below into `movl (%rdi),%eax; andl %edx,%esi; cmovne %esi,%eax`: the AND reads
// %edx, which was never set, instead of the loaded value. Cache::sectors_of_mask had this shape.
// Exits 0 when both give the right answers.
#include <cstdio>

__attribute__((noinline)) unsigned masked_or_all(const unsigned* all, unsigned mask) {
  const unsigned s = mask & *all;
  return s ? s : *all;
}

__attribute__((noinline)) unsigned masked_or_all_if(const unsigned* all, unsigned mask) {
  const unsigned a = *all;
  const unsigned s = mask & a;
  if (s == 0) return a;
  return s;
}

int main() {
  const unsigned all = 0xf;
  volatile unsigned inside = 0x4, outside = 0x30;
  const unsigned r[4] = {masked_or_all(&all, inside), masked_or_all(&all, outside), masked_or_all_if(&all, inside),
                         masked_or_all_if(&all, outside)};
  const bool ok = r[0] == 0x4 && r[1] == 0xf && r[2] == 0x4 && r[3] == 0xf;
  std::printf("%s: %x %x %x %x (expected 4 f 4 f)\n", ok ? "ok" : "miscompiled", r[0], r[1], r[2], r[3]);
  return ok ? 0 : 1;
}
