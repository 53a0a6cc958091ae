/* The floor for reading a DOCX: what any reader of word/document.xml must do at least. Opens the package
 * with libzip, inflates word/document.xml and pushes it through libxml2's SAX2 push parser with empty
 * callbacks: no model, no output. The bench prints Redline's time as a multiple of this program's
 * (scripts/bench/20-docx-read.sh). Built by scripts/bench/lib.sh (bench_floor):
 *   cc -O2 floor.c $(pkg-config --cflags --libs libzip libxml-2.0) -o floor
 * Usage: floor FILE.docx   (prints the bytes inflated and the elements seen) */
#include <stdio.h>
#include <string.h>
#include <zip.h>
#include <libxml/parser.h>

static long elements;

static void start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nns,
                  const xmlChar **ns, int nattr, int ndef, const xmlChar **attrs) {
    (void)ctx; (void)local; (void)prefix; (void)uri; (void)nns; (void)ns; (void)nattr; (void)ndef; (void)attrs;
    elements++;
}
static void end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)local; (void)prefix; (void)uri;
}
static void text(void *ctx, const xmlChar *ch, int len) { (void)ctx; (void)ch; (void)len; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: floor FILE.docx\n"); return 2; }
    int err = 0;
    zip_t *zip = zip_open(argv[1], ZIP_RDONLY, &err);
    if (!zip) { fprintf(stderr, "floor: cannot open %s (libzip error %d)\n", argv[1], err); return 1; }
    zip_file_t *f = zip_fopen(zip, "word/document.xml", 0);
    if (!f) { fprintf(stderr, "floor: no word/document.xml in %s\n", argv[1]); return 1; }

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = text;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, "document.xml");
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_HUGE);

    static char buf[1 << 16];
    long total = 0;
    zip_int64_t n;
    while ((n = zip_fread(f, buf, sizeof buf)) > 0) {
        total += n;
        if (xmlParseChunk(ctxt, buf, (int)n, 0) != 0) break;
    }
    xmlParseChunk(ctxt, NULL, 0, 1);
    int ok = ctxt->wellFormed;
    xmlFreeParserCtxt(ctxt);
    zip_fclose(f);
    zip_close(zip);
    if (n < 0 || !ok) { fprintf(stderr, "floor: %s: read or parse error\n", argv[1]); return 1; }
    printf("%ld bytes, %ld elements\n", total, elements);
    return 0;
}
