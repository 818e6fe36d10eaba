#include <libxml/parser.h>
#include <libxml/xmlerror.h>
