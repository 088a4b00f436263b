/* pacl: visibility macro used by every aclnn op header. */
#ifndef OPBASE_COMMON_ACLNN_UTIL_H
#define OPBASE_COMMON_ACLNN_UTIL_H

#define ACLNN_API __attribute__((visibility("default")))

#endif /* OPBASE_COMMON_ACLNN_UTIL_H */
