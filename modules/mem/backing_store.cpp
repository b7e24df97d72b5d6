#include "mem/backing_store.h"

#include <algorithm>
#include <cstring>

namespace gpusc {

void BackingStore::read(uint64_t addr, unsigned len, unsigned char* dst) const {
  while (len > 0) {
    const uint64_t off = addr % kPageBytes;
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, kPageBytes - off));
    auto it = pages_.find(addr / kPageBytes);
    if (it == pages_.end()) {
      if (source_) source_(addr, n, dst);
      else std::memset(dst, 0, n);
    }
    else std::memcpy(dst, it->second->data() + off, n);
    addr += n;
    dst += n;
    len -= n;
  }
}

void BackingStore::write(uint64_t addr, unsigned len, const unsigned char* src) {
  while (len > 0) {
    const uint64_t off = addr % kPageBytes;
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, kPageBytes - off));
    std::unique_ptr<Page>& page = pages_[addr / kPageBytes];
    if (!page) {
      page = std::make_unique<Page>(Page{});
      if (source_) source_(addr - off, kPageBytes, page->data());
    }
    std::memcpy(page->data() + off, src, n);
    addr += n;
    src += n;
    len -= n;
  }
}

}  // namespace gpusc
