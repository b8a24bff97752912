#include "techo_shims.h"
int techo_shims_version(void) { return 1; }
