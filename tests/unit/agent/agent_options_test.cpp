// The agent's option parser: every option, sizes with suffixes, and the errors that stop a
// JVM from starting (each names the offending option).
#include <gtest/gtest.h>

#include "agent/options.h"
#include "analyses/lifetime/options.h"

using dragnet::agent::Options;
using dragnet::agent::parseOptions;

namespace {

Options parsed(const char* text) {
  Options o;
  std::string error;
  EXPECT_TRUE(parseOptions(text, o, error)) << error;
  return o;
}

std::string failure(const char* text) {
  Options o;
  std::string error;
  EXPECT_FALSE(parseOptions(text, o, error)) << text;
  return error;
}

TEST(AgentOptions, MaxMemory) {
  EXPECT_EQ(parsed("").maxMemory, uint64_t{1} << 30);
  EXPECT_EQ(parsed("max-memory=64m").maxMemory, uint64_t{64} << 20);
  EXPECT_EQ(parsed("max-memory=8g").maxMemory, uint64_t{8} << 30);
  EXPECT_EQ(parsed("max-memory=1024g").maxMemory, uint64_t{1} << 40);
  EXPECT_NE(failure("max-memory=1025g").find("option 'max-memory'"), std::string::npos);
  EXPECT_NE(failure("max-memory=0").find("option 'max-memory'"), std::string::npos);
  EXPECT_NE(failure("max-memory=lots").find("option 'max-memory'"), std::string::npos);
}

TEST(AgentOptions, DefaultsAndEveryOption) {
  Options d = parsed("");
  EXPECT_EQ(d.mode, "alloc");
  EXPECT_EQ(d.depth, 1024u);
  EXPECT_EQ(d.flushSeconds, 5u);
  EXPECT_EQ(d.sample, 0u);
  EXPECT_FALSE(d.bytecodes);
  EXPECT_TRUE(d.record);
  EXPECT_FALSE(parsed("record=off").record);
  Options o = parsed("mode=alloc,out=/tmp/x.dragnet,bytecodes=on,depth=0,flush=1,quiet=yes");
  EXPECT_EQ(o.out, "/tmp/x.dragnet");
  EXPECT_TRUE(o.bytecodes);
  EXPECT_EQ(o.depth, 0u);
  EXPECT_EQ(o.flushSeconds, 1u);
  EXPECT_TRUE(o.quiet);
  EXPECT_TRUE(parsed("help").help);
  using dragnet::analyses::lifetime::optionValues;
  auto l = optionValues(
      parsed("mode=lifetime,gc-interval=1m,use-epoch=4k,use-contexts=on,site-frames=3").values);
  EXPECT_EQ(l.gcInterval, 1u << 20);
  EXPECT_EQ(l.useEpoch, 4u << 10);
  EXPECT_TRUE(l.useContexts);
  EXPECT_EQ(l.siteFrames, 3u);
  auto ld = optionValues(parsed("mode=lifetime").values);
  EXPECT_EQ(ld.siteFrames, 8u);
  EXPECT_EQ(optionValues(parsed("mode=lifetime,site-frames=0").values).siteFrames, 0u);
  EXPECT_EQ(ld.gcInterval, 8u << 20);
  EXPECT_EQ(ld.useEpoch, 64u << 10);
  EXPECT_FALSE(ld.useContexts);
  // The old spellings.
  auto old = optionValues(parsed("mode=lifetime,stacks=on,stack=3").values);
  EXPECT_TRUE(old.useContexts);
  EXPECT_EQ(old.siteFrames, 3u);
}

TEST(AgentOptions, SampleSizes) {
  EXPECT_EQ(parsed("sample=512k").sample, 512u * 1024);
  EXPECT_EQ(parsed("sample=2M").sample, 2u * 1024 * 1024);
  EXPECT_EQ(parsed("sample=1g").sample, 1024u * 1024 * 1024);
  EXPECT_EQ(parsed("sample=1000").sample, 1000u);
  Options ls = parsed("mode=lifetime,sample=16k");  // lifetimes of sampled objects
  EXPECT_EQ(ls.mode, "lifetime");
  EXPECT_EQ(ls.sample, 16u * 1024);
  EXPECT_NE(failure("sample=0").find("'sample'"), std::string::npos);
  EXPECT_NE(failure("sample=3g").find("'sample'"), std::string::npos);  // beyond a jint
  EXPECT_NE(failure("sample=12q").find("'sample'"), std::string::npos);
  EXPECT_NE(failure("sample=k").find("'sample'"), std::string::npos);
}

// gc-budget: 25% by default; an explicit gc-interval alone means every interval (100).
TEST(AgentOptions, GcBudget) {
  auto budget = [](const char* text) {
    return dragnet::analyses::lifetime::optionValues(parsed(text).values).gcBudget;
  };
  EXPECT_EQ(budget("mode=lifetime"), 25u);
  EXPECT_EQ(budget("mode=lifetime,gc-interval=1m"), 100u);
  EXPECT_EQ(budget("mode=lifetime,gc-interval=1m,gc-budget=10"), 10u);
  EXPECT_EQ(budget("mode=lifetime,gc-budget=40%"), 40u);
  EXPECT_EQ(budget("mode=lifetime,gc-budget=100"), 100u);
  EXPECT_EQ(failure("mode=lifetime,gc-budget=0"),
            "option 'gc-budget': expected a percentage from 1 to 100, got '0'");
  EXPECT_NE(failure("mode=lifetime,gc-budget=101").find("'gc-budget'"), std::string::npos);
  EXPECT_NE(failure("mode=lifetime,gc-budget=half").find("'gc-budget'"), std::string::npos);
}

// An analysis's option given for another mode stops the start, naming the option and the
// modes that take it (before, the agent accepted and ignored it).
TEST(AgentOptions, OptionsOfAnotherModeAreRefused) {
  EXPECT_EQ(failure("gc-budget=40"),
            "option 'gc-budget' is accepted by mode lifetime only, not by mode alloc");
  EXPECT_EQ(failure("stacks=on,mode=alloc"),
            "option 'stacks' is accepted by mode lifetime only, not by mode alloc");
  EXPECT_EQ(failure("site-frames=2"),
            "option 'site-frames' is accepted by mode lifetime only, not by mode alloc");
  // The mode may come after the option.
  EXPECT_EQ(parsed("gc-interval=1m,mode=lifetime").mode, "lifetime");
}

TEST(AgentOptions, ErrorsNameTheOption) {
  EXPECT_EQ(failure("colour=red"), "unknown option 'colour' (use help for the list)");
  EXPECT_EQ(failure("depth=deep"), "option 'depth': expected a number, got 'deep'");
  EXPECT_EQ(failure("mode=lifetime,stack=-1"), "option 'stack': expected a number, got '-1'");
  EXPECT_EQ(failure("mode=lifetime,site-frames=x"),
            "option 'site-frames': expected a number, got 'x'");
  EXPECT_EQ(failure("flush=soon"), "option 'flush': expected a number of seconds, got 'soon'");
  EXPECT_EQ(failure("help=yes"), "option 'help': expected no value, got 'yes'");
  EXPECT_EQ(failure("mode=heap"), "option 'mode': expected alloc, lifetime, copy or cost, got 'heap'");
  EXPECT_EQ(failure("mode=lifetime,use-epoch=3000"),
            "option 'use-epoch': expected a power of two such as 64k, got '3000'");
  EXPECT_EQ(failure("mode=lifetime,sample=512k,stacks=on"),
            "option 'stacks' is not available with 'sample' in mode lifetime yet");
  EXPECT_EQ(failure("mode=lifetime,sample=512k,use-contexts=on"),
            "option 'use-contexts' is not available with 'sample' in mode lifetime yet");
  EXPECT_EQ(failure("quiet"), "option 'quiet' needs a value (quiet=...)");
  EXPECT_EQ(failure("bytecodes=maybe"), "option 'bytecodes': expected on or off, got 'maybe'");
  EXPECT_NE(failure("sample=512k,bytecodes=on").find("exclude each other"), std::string::npos);
}

}  // namespace

namespace {

TEST(AgentOptions, OutPlaceholders) {
  using dragnet::agent::outPath;
  EXPECT_EQ(outPath(parsed(""), 42), "dragnet-42.dragnet");
  EXPECT_EQ(outPath(parsed("out=/tmp/app-%p.dragnet"), 42), "/tmp/app-42.dragnet");
  EXPECT_EQ(outPath(parsed("out=%p/%p%%.d"), 7), "7/7%.d");
  EXPECT_EQ(outPath(parsed("out=/tmp/app.dragnet"), 42), "/tmp/app.dragnet");
  EXPECT_NE(failure("out=app-%d.dragnet").find("option 'out': expected a file name with %p"),
            std::string::npos);
  EXPECT_NE(failure("out=app%").find("option 'out'"), std::string::npos);
}

// dump=DIR (the verification corpus's view of what the agent rewrote): off unless given,
// its %p the pid.
TEST(AgentOptions, DumpDirectory) {
  using dragnet::agent::withPid;
  EXPECT_EQ(parsed("").dump, "");
  EXPECT_EQ(parsed("dump=/tmp/classes-%p").dump, "/tmp/classes-%p");
  EXPECT_EQ(withPid(parsed("dump=/tmp/classes-%p").dump, 42), "/tmp/classes-42");
  EXPECT_EQ(withPid("a%%b", 42), "a%b");
  EXPECT_NE(failure("dump=").find("option 'dump'"), std::string::npos);
}

TEST(AgentOptions, BusyOutPathNamesThePid) {
  using dragnet::agent::busyOutPath;
  EXPECT_EQ(busyOutPath("/tmp/app.dragnet", 42), "/tmp/app.42.dragnet");
  EXPECT_EQ(busyOutPath("/tmp/app", 42), "/tmp/app.42");
  EXPECT_EQ(busyOutPath("/tmp/d.x/app.tar.prof", 7), "/tmp/d.x/app.tar.7.prof");
}

}  // namespace
