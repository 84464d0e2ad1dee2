// Names with the parts that differ from run to run taken out, so that the same site,
// class or frame of two runs of a program compares equal (`dragnet diff`): the address of
// a hidden class ("p.C$$Lambda/0x0000000800c03000", "...$$Lambda.0x...", "+0x..."), a
// lambda proxy's number ("p.C$$Lambda$14", JDK 8's "$$Lambda$14/1234567"), a proxy's
// number and module ("jdk.proxy2.$Proxy12"), a reflection accessor's number
// ("GeneratedMethodAccessor7"), and the counters and hashes code generators append
// (CGLIB, ByteBuddy, Mockito, Hibernate, Javassist). Works on any text that holds such
// names: a type, a frame "p.C$$Lambda/0x....run(Unknown Source)", a whole site or key.
#pragma once

#include <string>
#include <string_view>

namespace dragnet::report {

std::string normalName(std::string_view name);

}  // namespace dragnet::report
