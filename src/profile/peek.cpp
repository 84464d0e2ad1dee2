#include "profile/peek.h"

#include <cstring>
#include <fstream>
#include <vector>

#include "profile/codec.h"
#include "profile/format.h"

namespace dragnet::profile {

namespace {

uint32_t getU32(const char* p) {
  auto b = [&](int i) { return uint32_t{static_cast<uint8_t>(p[i])}; };
  return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}

}  // namespace

bool readMeta(const std::string& path, std::map<std::string, std::string>& meta) {
  constexpr uint32_t kMaxMeta = 1u << 20;
  std::ifstream in(path, std::ios::binary);
  char head[kHeaderSize + kChunkHeaderSize];
  if (!in.read(head, sizeof head) || std::memcmp(head, kMagic, sizeof kMagic) != 0) return false;
  const char* chunk = head + kHeaderSize;
  uint32_t len = getU32(chunk + 1);
  if (static_cast<ChunkType>(chunk[0]) != ChunkType::Meta || len > kMaxMeta) return false;
  std::vector<uint8_t> payload(len);
  if (!in.read(reinterpret_cast<char*>(payload.data()), len)) return false;
  uint32_t version = getU32(head + sizeof kMagic);
  if (chunkCrc(version, reinterpret_cast<const uint8_t*>(chunk), payload.data(), len) !=
      getU32(chunk + 5)) {
    return false;
  }
  Decoder d(payload.data(), payload.size());
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    std::string k = d.str();
    meta[k] = d.str();
  }
  return d.ok();
}

}  // namespace dragnet::profile
