/*
 * emu_image.c — loading the firmware and the bootloader (see emu_image.h).
 */
#include "emu_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_hex.h"

bool emu_image_read_elf(const char *path, elf_firmware_t *firmware) {
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    fprintf(stderr, "hapticctl-emu-uno: cannot read firmware %s: %s\n", path, strerror(errno));
    return false;
  }
  unsigned char magic[4] = {0};
  size_t got = fread(magic, 1, 4, probe);
  fclose(probe);
  if (got != 4 || memcmp(magic, "\x7f" "ELF", 4) != 0) {
    fprintf(stderr, "hapticctl-emu-uno: %s is not an ELF file\n", path);
    return false;
  }
  if (elf_read_firmware(path, firmware) != 0 || firmware->flashsize == 0) {
    fprintf(stderr, "hapticctl-emu-uno: cannot load firmware %s\n", path);
    return false;
  }
  return true;
}

long emu_image_load_hex(avr_t *avr, const char *path) {
  ihex_chunk_p chunks = NULL;
  int count = read_ihex_chunks(path, &chunks);
  if (count <= 0) {
    fprintf(stderr, "hapticctl-emu-uno: cannot read the bootloader %s (an Intel hex file)\n", path);
    return -1;
  }
  long lowest = -1;
  for (int i = 0; i < count; i++) {
    if (chunks[i].baseaddr + chunks[i].size > avr->flashend + 1) {
      fprintf(stderr, "hapticctl-emu-uno: the bootloader %s does not fit in flash (0x%x + %u > 0x%x)\n", path,
              chunks[i].baseaddr, chunks[i].size, avr->flashend + 1);
      free_ihex_chunks(chunks);
      return -1;
    }
    memcpy(avr->flash + chunks[i].baseaddr, chunks[i].data, chunks[i].size);
    if (lowest < 0 || chunks[i].baseaddr < (uint32_t)lowest) lowest = chunks[i].baseaddr;
  }
  free_ihex_chunks(chunks);
  return lowest;
}
