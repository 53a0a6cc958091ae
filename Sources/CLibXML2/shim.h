/* Debian's libxml2 is built with ICU; Foundation carries its own ICU module and a clean build of a
   target that imports both fails ('UErrorCode' has different definitions). Undefine before any include. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
