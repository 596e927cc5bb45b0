#ifndef __LITTLE_ENDIAN
#define __LITTLE_ENDIAN 1234
#endif
