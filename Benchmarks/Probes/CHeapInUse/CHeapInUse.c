#include "CHeapInUse.h"
#include <malloc.h>

// Swift's Glibc module does not export <malloc.h>, so mallinfo2 is reached from here.
size_t heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}
