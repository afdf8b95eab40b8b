#include "HeapInUse.h"

#if defined(__linux__)
#include <malloc.h>

size_t soak_heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>

size_t soak_heap_bytes_in_use(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return statistics.size_in_use;
}
#else
size_t soak_heap_bytes_in_use(void) {
    return 0;
}
#endif
