// securec.h: the bounds-checked functions CANN programs call through "securec.h".
#include "securec.h"

#include <gtest/gtest.h>

#include <string>

TEST(Securec, MemcpyAndMemset) {
  char d[8];
  EXPECT_EQ(memcpy_s(d, sizeof d, "abcdefg", 8), EOK);
  EXPECT_STREQ(d, "abcdefg");
  EXPECT_EQ(memcpy_s(d, 4, "abcdefg", 8), ERANGE);  // does not fit: destination cleared
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(memcpy_s(nullptr, 4, "a", 1), EINVAL);
  EXPECT_EQ(memcpy_s(d, 8, d + 1, 4), EOVERFLOW);
  EXPECT_EQ(memmove_s(d, 8, "0123456", 8), EOK);
  EXPECT_EQ(memmove_s(d, 8, d + 1, 4), EOK);
  EXPECT_EQ(std::string(d, 4), "1234");
  EXPECT_EQ(memset_s(d, sizeof d, 'x', 3), EOK);
  EXPECT_EQ(d[2], 'x');
  EXPECT_EQ(memset_s(d, 4, 'y', 9), ERANGE);  // sets destMax bytes and reports the overflow
  EXPECT_EQ(d[3], 'y');
  EXPECT_EQ(d[4], '4');
}

TEST(Securec, Strings) {
  char d[6];
  EXPECT_EQ(strcpy_s(d, sizeof d, "hello"), EOK);
  EXPECT_STREQ(d, "hello");
  EXPECT_EQ(strcpy_s(d, sizeof d, "hello!"), ERANGE);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strncpy_s(d, sizeof d, "hello!", 3), EOK);
  EXPECT_STREQ(d, "hel");
  EXPECT_EQ(strcat_s(d, sizeof d, "lo"), EOK);
  EXPECT_STREQ(d, "hello");
  EXPECT_EQ(strcat_s(d, sizeof d, "!"), ERANGE);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(sprintf_s(d, sizeof d, "%d-%d", 1, 2), 3);
  EXPECT_STREQ(d, "1-2");
  EXPECT_EQ(sprintf_s(d, sizeof d, "%d", 1234567), -1);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(snprintf_s(d, sizeof d, 2, "%s", "abc"), -1);  // truncated to count characters
  EXPECT_STREQ(d, "ab");
}
