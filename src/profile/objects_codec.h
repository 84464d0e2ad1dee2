// Mode lifetime: the object records of Objects and Live chunks (format.h, docs/PROFILE_FORMAT.md).
// Format 4 writes them column by column (each field of every record, then the next field),
// times and ids as differences from the previous record's, and compresses the columns with
// zstd; formats 2-3 wrote record after record, uncompressed. The record fields are the same.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "profile/codec.h"
#include "profile/format.h"

namespace dragnet::profile {

// The most records one chunk holds (the writer splits larger batches), and the most bytes
// a chunk's columns may take uncompressed (a reader refuses more: a corrupt size cannot
// make it allocate without bound).
inline constexpr size_t kObjectsPerChunk = 65536;
inline constexpr uint64_t kMaxObjectColumns = uint64_t{64} << 20;

// Appends the records (format 4: compressed columns) to a chunk's payload.
void encodeObjects(Encoder& e, std::span<const ObjectRecord> records);

// Appends the records of a chunk's payload of format `version` to `out`; on failure
// returns why and leaves `out` as it was.
std::string decodeObjects(Decoder& d, uint32_t version, std::vector<ObjectRecord>& out);

}  // namespace dragnet::profile
