#include <zip.h>
// zlib (libzip's own compressor) for deflating large entries beside the writer: `BackgroundDeflater`.
#include <zlib.h>
