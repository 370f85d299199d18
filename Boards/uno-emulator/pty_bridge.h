/*
 * pty_bridge.h — the AVR's UART0 on a pseudo-terminal, as a real Uno's USB serial port.
 *
 * Everything runs on the simulation thread (simavr's own uart_pty part raises UART IRQs from
 * a second thread): bytes from the host are read from the pty master without blocking and fed
 * to the UART one per byte time at 115200 baud (10 bits: 86.8 us), as a real line would; bytes
 * the firmware sends are written to the master as they leave the UART.
 */
#ifndef PTY_BRIDGE_H
#define PTY_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_avr.h"
#include "sim_irq.h"

typedef struct {
  avr_t *avr;
  int master;          /* our end */
  int slave;           /* kept open: the pty survives the host closing it, and nothing echoes
                        * (-1 with auto-reset: then a host's open and close are seen) */
  char path[256];      /* the slave's name, e.g. /dev/pts/3 */
  char link[4096];     /* --link symlink, "" when none */
  avr_irq_t *uart_in;  /* bytes into the AVR */
  bool xoff;           /* the UART's input FIFO is full */
  unsigned xoff_waits; /* byte times waited since */
  uint8_t in[4096];    /* host -> AVR, waiting for their byte time */
  size_t in_head, in_tail;
  bool feeding;        /* the byte-time timer is armed */
  uint32_t byte_usec_x10;
  uint8_t out[8192];   /* AVR -> host, waiting for the pty to take them */
  size_t out_length;
  unsigned long bytes_in, bytes_out, bytes_dropped;
  /* --auto-reset: whether a host has the pty open (its reads fail with EIO while no one does),
   * and an open not yet acted on (the DTR edge that resets a real Uno). */
  bool tracks_host;
  bool host_present;
  bool opened;
  unsigned long host_opens;
} pty_bridge_t;

/* Opens the pty (raw, 115200) and creates `link` (if not NULL) pointing at it. Returns false
 * with a message on stderr. */
bool pty_bridge_open(pty_bridge_t *bridge, const char *link);

/* Lets go of our own end of the slave so that a host's open and close can be seen (the
 * `opened` flag; nothing the board sends while no host has the port is kept). */
void pty_bridge_track_host(pty_bridge_t *bridge);

/* Connects to UART0 of `avr` (and turns off simavr's stdio echo and poll-sleep). */
void pty_bridge_attach(pty_bridge_t *bridge, avr_t *avr);

/* Reads what the host wrote and writes what is pending; call often (every 100 us of
 * simulated time). */
void pty_bridge_service(pty_bridge_t *bridge);

/* Drops what the host sent that the AVR has not taken yet (it arrived while the AVR was held
 * in reset: a real UART is not listening then either). */
void pty_bridge_discard_input(pty_bridge_t *bridge);

/* Removes the link (if it still points at our pty) and closes the pty. */
void pty_bridge_close(pty_bridge_t *bridge);

#endif
