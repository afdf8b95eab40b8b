#ifndef SOAK_HEAP_IN_USE_H
#define SOAK_HEAP_IN_USE_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not had back: unlike resident memory, it falls
/// again when memory is freed.
size_t soak_heap_bytes_in_use(void);

#endif
