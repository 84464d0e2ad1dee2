// Classes compiled by javac from tests/data/java at test time (javac from PATH; tests skip
// when it is missing). The output is cached under the build directory, keyed by a hash of
// the sources, so each test process does not pay for a javac run.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "class_builder.h"

namespace dragnet::test {

struct CompiledClass {
  std::string path;  // relative to the output directory, e.g. dragnet/testdata/Shape.class
  Bytes bytes;
};

// Compiles (or finds in the cache) and returns the classes; empty with *why set on failure.
const std::vector<CompiledClass>& javacClasses(std::string* why);

// Source file text of tests/data/java/<relative>.
std::string javaSource(const std::string& relative);
// 1-based line of the first line containing `marker` in that source; 0 if absent.
int sourceLine(const std::string& relative, const std::string& marker);

class JavacTest : public ::testing::Test {
 protected:
  void SetUp() override;
  // The parsed class with internal name `name` (e.g. "dragnet/testdata/Shape"); it stays
  // valid for the test (the bytes live in the cache). Fails the test if absent.
  const cf::ClassFile& cls(const std::string& name);
  const cf::Member& method(const cf::ClassFile& c, std::string_view name);
  const cf::Member& field(const cf::ClassFile& c, std::string_view name);
  const cf::CodeAttr& code(const cf::ClassFile& c, std::string_view methodName);

 private:
  std::map<std::string, cf::ClassFile> parsed_;
};

}  // namespace dragnet::test
