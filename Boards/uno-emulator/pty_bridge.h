/*
 * pty_bridge.h — the AVR's UART0 on a pseudo-terminal, as a real Uno's USB serial port.
 *
 * simavr 1.6's UART drains its input FIFO by at most one byte per byte time: its receive
 * interrupt is raised once per byte time, and an interrupt taken later than that loses that
 * byte time for good (raising a pending vector does nothing). On a line kept busy, a firmware
 * whose receive interrupt was held off once falls behind for as long as the line stays busy,
 * the FIFO fills (64 bytes) and bytes are lost — which a real AVR never does: its RXC flag
 * stays set while its two-byte buffer holds data, so the interrupt is taken again at once and
 * the backlog is read in a few microseconds (measured before the fix: 27 bad frames on a
 * 2-channel stream under CPU load, every one after 60-120 ms of back-to-back bytes). So after
 * each read of UDR0 the receive interrupt is raised again while data is waiting, as the
 * hardware does; it is raised too as each byte arrives, at its stop bit, where simavr raises
 * it a byte time later; and a byte that arrives while two are waiting is lost as on hardware
 * (counted: `overruns`): the firmware has two byte times to take a byte, as on the chip.
 *
 * Everything runs on the simulation thread (simavr's own uart_pty part raises UART IRQs from
 * a second thread): bytes from the host are read from the pty master without blocking and fed
 * to the UART one per byte time, as a real line would, but none before the simulated time that
 * stands for the wall-clock time it was read at; bytes the firmware sends are written to the
 * master as they leave the UART. The byte time is the one the AVR's UART is set to when the
 * byte goes in, read from its registers (UBRR0, U2X0, the frame format in UCSR0B/C:
 * pty_bridge_byte_cycles): Optiboot's 117647 baud (its "115200": UBRR0 16, U2X; 85 us a byte)
 * while the bootloader runs, the firmware's 500000 (UBRR0 3, U2X; 20 us) once it set its own —
 * a pty carries bytes at any speed, so the pty's own termios speed plays no part.
 */
#ifndef PTY_BRIDGE_H
#define PTY_BRIDGE_H

#include <poll.h>
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
  avr_cycle_count_t arrival[4096]; /* the simulated cycle each byte was read at (its wall-clock time) */
  size_t in_head, in_tail;
  bool feeding;        /* the byte-time timer is armed */
  uint8_t out[8192];   /* AVR -> host, waiting for the pty to take them */
  size_t out_length;
  unsigned long bytes_in, bytes_out, bytes_dropped;
  /* Bytes that arrived while the UART's two-byte receive buffer was full: a real ATmega328P
   * loses them (DOR), so they are dropped here too (the firmware kept its interrupts off for
   * more than two byte times: 40 us at 500000 baud, 170 us at Optiboot's 115200). */
  unsigned long overruns;
  void *uart;                      /* simavr's avr_uart_t of UART0 */
  uint8_t (*udr_read)(struct avr_t *, avr_io_addr_t, void *); /* simavr's own UDR0 read */
  void *udr_read_param;
  /* --auto-reset: whether a host has the pty open, and an open not yet acted on (the DTR edge
   * that resets a real Uno). A real Uno resets on every open of its port, however soon after a
   * close: DTR goes inactive on the last close and active again on the next open. The state of
   * the pty alone cannot show that (a close and an open between two looks leave it as it was),
   * so the opens and closes are read as events (inotify on the slave: pty_bridge.c). */
  bool tracks_host;
  bool host_present;    /* a file of the slave is open now (the master reports no hang-up) */
  bool opened;
  unsigned long host_opens;
  int watch;            /* inotify descriptor watching the slave's opens and closes (-1: none) */
  unsigned host_files;  /* the slave's open files as its events count them (DTR active while > 0) */
} pty_bridge_t;

/* Opens the pty (raw; termios 500000, the firmware's rate, though a pty moves bytes at any
 * speed) and creates `link` (if not NULL) pointing at it. Returns false with a message on
 * stderr. */
bool pty_bridge_open(pty_bridge_t *bridge, const char *link);

/* Lets go of our own end of the slave so that a host's open and close can be seen (the
 * `opened` flag, set by every open that follows a close, however soon; nothing the board sends
 * while no host has the port is kept). */
void pty_bridge_track_host(pty_bridge_t *bridge);

/* The descriptors the simulation may sleep on (up to 2 in `fds`, returns how many): the master
 * while a host has the port (input; with no host it reports a hang-up at once), and the open
 * and close events, so that a host's open ends the sleep. */
int pty_bridge_poll_fds(const pty_bridge_t *bridge, struct pollfd fds[2]);

/* Connects to UART0 of `avr` (and turns off simavr's stdio echo and poll-sleep). */
void pty_bridge_attach(pty_bridge_t *bridge, avr_t *avr);

/* Reads what the host wrote and writes what is pending; call often (every 100 us of
 * simulated time). `now` is the simulated cycle that stands for the wall-clock time now:
 * bytes read now reach the UART no earlier than that, so a byte never arrives on the board's
 * clock before the host wrote it, even while the simulation lags the wall clock (then the
 * lag looks to the host like a slower line, as a busy USB link would, and its clock sync
 * stays right: a query is always stamped after it was sent and before its answer came). */
void pty_bridge_service(pty_bridge_t *bridge, avr_cycle_count_t now);

/* One byte's time on the line at the rate UART0 is set to now, in AVR cycles (start, data,
 * parity and stop bits; 320 for 8N1 at 500000 baud, 1360 at Optiboot's 117647), and that rate
 * in baud. */
avr_cycle_count_t pty_bridge_byte_cycles(const pty_bridge_t *bridge);
uint32_t pty_bridge_baud(const pty_bridge_t *bridge);

/* Drops what the host sent that the AVR has not taken yet (it arrived while the AVR was held
 * in reset: a real UART is not listening then either). */
void pty_bridge_discard_input(pty_bridge_t *bridge);

/* Removes the link (if it still points at our pty) and closes the pty. */
void pty_bridge_close(pty_bridge_t *bridge);

#endif
