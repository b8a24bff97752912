#ifndef TECHO_SHIMS_H
#define TECHO_SHIMS_H
/* Placeholder until the codec shims land. */
int techo_shims_version(void);
#endif
