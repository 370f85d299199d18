#ifndef CLIBSERIALPORT_SHIM_H
#define CLIBSERIALPORT_SHIM_H
#include <libserialport.h>
#endif
