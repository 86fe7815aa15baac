/* The image helpers are public: include/lockstep/image.h. */
#include "lockstep/image.h"
