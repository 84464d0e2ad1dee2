#include "profile/format.h"

#include <zlib.h>

namespace dragnet::profile {

uint32_t chunkCrc(uint32_t version, const uint8_t* head, const uint8_t* payload, size_t len) {
  uLong crc = crc32(0L, Z_NULL, 0);
  if (version >= 3) crc = crc32(crc, head, 5);
  // zlib takes lengths as uInt: a payload past 4 GB cannot be, the length field is 32 bits.
  return static_cast<uint32_t>(crc32(crc, payload, static_cast<uInt>(len)));
}

}  // namespace dragnet::profile
