// The flow engine's ids: field ids per (owner, name, descriptor) of a reference, and the
// class layouts the profile gets (a class's declared instance fields, with itself as owner).
#include <gtest/gtest.h>

#include "flow/ids.h"

namespace dragnet::flow {
namespace {

TEST(FlowIds, ClassFieldsAreInternedWithTheClassAsOwnerOncePerClass) {
  FlowIds ids;
  uint32_t ref = ids.field("app/Sub", "x", "I", false);  // a reference through a subclass
  ids.classFields("app/Base", "java/lang/Object", {{"x", "I"}, {"next", "Lapp/Base;"}});
  uint32_t x = ids.field("app/Base", "x", "I", false);
  uint32_t next = ids.field("app/Base", "next", "Lapp/Base;", false);
  EXPECT_NE(ref, x);
  EXPECT_NE(x, next);
  ids.classFields("app/Base", "app/Other", {{"y", "J"}});  // the same name again: kept first
  ids.classFields("app/Sub", "app/Base", {});
  std::vector<ClassFields> classes = ids.takeNewClasses();
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].name, "app/Base");
  EXPECT_EQ(classes[0].super, "java/lang/Object");
  EXPECT_EQ(classes[0].fields, (std::vector<uint32_t>{x, next}));
  EXPECT_EQ(classes[1].name, "app/Sub");
  EXPECT_TRUE(classes[1].fields.empty());
  EXPECT_TRUE(ids.takeNewClasses().empty());
  // Every id a layout names is among the fields taken for the profile.
  std::vector<FieldName> fields = ids.takeNewFields();
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[1].id, x);
  EXPECT_EQ(fields[1].cls, "app/Base");
  EXPECT_EQ(fields[2].name, "next");
  EXPECT_FALSE(fields[2].isStatic);
}

}  // namespace
}  // namespace dragnet::flow
