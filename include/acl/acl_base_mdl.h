/* pacl: compatibility header. CANN ships the model and single-op (aclop/aclmdl) APIs here from
 * another package; pacl implements neither, and the file exists so that acl.h compiles. */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#include "acl/acl_base_rt.h"

#endif
