#include "profile/peek.h"

#include <cstring>
#include <fstream>
#include <vector>

#include "profile/codec.h"
#include "profile/format.h"

namespace dragnet::profile {

bool readMeta(const std::string& path, std::map<std::string, std::string>& meta) {
  constexpr uint32_t kMaxMeta = 1u << 20;
  std::ifstream in(path, std::ios::binary);
  char head[kHeaderSize + kChunkHeaderSize];
  if (!in.read(head, sizeof head) || std::memcmp(head, kMagic, sizeof kMagic) != 0) return false;
  const char* chunk = head + kHeaderSize;
  const auto* bytes = reinterpret_cast<const uint8_t*>(head);
  uint32_t len = loadU32(bytes + kHeaderSize + 1);
  if (static_cast<ChunkType>(chunk[0]) != ChunkType::Meta || len > kMaxMeta) return false;
  std::vector<uint8_t> payload(len);
  if (!in.read(reinterpret_cast<char*>(payload.data()), len)) return false;
  uint32_t version = loadU32(bytes + sizeof kMagic);
  if (chunkCrc(version, bytes + kHeaderSize, payload.data(), len) !=
      loadU32(bytes + kHeaderSize + 5)) {
    return false;
  }
  Decoder d(payload.data(), payload.size());
  return decodeMap(d, meta).empty();
}

}  // namespace dragnet::profile
