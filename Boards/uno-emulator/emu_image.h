/*
 * emu_image.h — what the emulated Uno runs: the firmware ELF (checked to be one first, for a
 * clear message) and an Intel hex image (Optiboot) loaded into flash at its own address.
 */
#ifndef EMU_IMAGE_H
#define EMU_IMAGE_H

#include <stdbool.h>

#include "sim_avr.h"
#include "sim_elf.h"

/* Reads the firmware ELF at `path` into `firmware` (code and symbols); false with a message
 * on stderr ("cannot read firmware …" when the file cannot be opened). */
bool emu_image_read_elf(const char *path, elf_firmware_t *firmware);

/* Loads an Intel hex file (a bootloader) into flash; returns its lowest address, or -1 with a
 * message on stderr. */
long emu_image_load_hex(avr_t *avr, const char *path);

#endif
