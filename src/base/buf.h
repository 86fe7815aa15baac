/* ls_buf is public: include/lockstep/buf.h. */
#include "lockstep/buf.h"
