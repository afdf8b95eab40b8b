#ifndef C_HEAP_IN_USE_H
#define C_HEAP_IN_USE_H

#include <stddef.h>

/// Bytes in allocated heap chunks, as glibc accounts them (mallinfo2().uordblks).
size_t heap_bytes_in_use(void);

#endif
