/*
 * pty_bridge.c — UART0 <-> pseudo-terminal (see pty_bridge.h).
 */
#define _DEFAULT_SOURCE
#include "pty_bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "avr_uart.h"
#include "sim_interrupts.h"
#include "sim_cycle_timers.h"
#include "sim_time.h"

bool pty_bridge_open(pty_bridge_t *b, const char *link) {
  memset(b, 0, sizeof *b);
  b->master = b->slave = b->watch = -1;
  char name[256];
  if (openpty(&b->master, &b->slave, name, NULL, NULL) != 0) {
    fprintf(stderr, "hapticctl-emu-uno: cannot create a pseudo-terminal: %s\n", strerror(errno));
    return false;
  }
  snprintf(b->path, sizeof b->path, "%s", name);
  /* Raw on both ends: no echo, no line discipline, 8N1 at the application firmware's rate
   * (BOARD_LINK_BAUD). A pty moves bytes at any speed, and a host sets its own: the bytes are
   * paced by the rate the AVR's UART is set to (pty_bridge_byte_cycles), not by this. */
  struct termios tio;
  for (int i = 0; i < 2; i++) {
    int fd = i == 0 ? b->slave : b->master;
    if (tcgetattr(fd, &tio) == 0) {
      cfmakeraw(&tio);
      cfsetispeed(&tio, B500000);
      cfsetospeed(&tio, B500000);
      tcsetattr(fd, TCSANOW, &tio);
    }
  }
  fcntl(b->master, F_SETFL, fcntl(b->master, F_GETFL) | O_NONBLOCK);
  fcntl(b->master, F_SETFD, FD_CLOEXEC);
  fcntl(b->slave, F_SETFD, FD_CLOEXEC);
  if (link && *link) {
    struct stat st;
    if (lstat(link, &st) == 0) {
      if (!S_ISLNK(st.st_mode)) {
        fprintf(stderr, "hapticctl-emu-uno: --link %s exists and is not a symbolic link\n", link);
        pty_bridge_close(b);
        return false;
      }
      unlink(link);
    }
    if (symlink(b->path, link) != 0) {
      fprintf(stderr, "hapticctl-emu-uno: cannot create --link %s: %s\n", link, strerror(errno));
      pty_bridge_close(b);
      return false;
    }
    snprintf(b->link, sizeof b->link, "%s", link);
  }
  return true;
}

/* How a host's open is seen. The pty's state only tells whether a file of the slave is open
 * now: reads of the master fail with EIO (and poll reports POLLHUP) while none is. Looking at
 * it every service tick missed a close and reopen that fell between two looks (measured on
 * both Unos: reopens 0.04-0.1 ms after the close reset the board in 6 of 24 tries; reopens
 * 0.3 s later always did). So the opens and closes themselves are read, from an inotify watch
 * on the slave's device node: the kernel queues one IN_OPEN for every successful open(2) of
 * the node (by any path or symbolic link: the watch is on the inode) and one IN_CLOSE_* when
 * an open file's last descriptor goes, in the order they happen, and keeps them until they are
 * read (up to /proc/sys/fs/inotify/max_queued_events, 16384 by default; an overflow is
 * reported, below). A close and an open 1 us apart are two events, read in order however late
 * the emulator looks: no reopen can be missed. (An open that fails, such as one refused as
 * busy, makes no event, and no reset, as on the real board.)
 *
 * inotify merges an event with an identical one just before it that is still unread. A close
 * followed by an open is never merged, so no reset is lost; merging can only undercount files
 * open at the same time (a second program opening the port while the host has it: no reset on
 * the real board, DTR is already active), and the master's hang-up state puts the count back
 * to 0 when the last of them is closed. Without inotify (a kernel without it, or no watches
 * left) the emulator falls back to looking at the state, and says so. */

/* Whether a file of the slave is open now (the master reports a hang-up while none is). */
static bool slave_open(const pty_bridge_t *b) {
  struct pollfd fd = {b->master, 0, 0};
  return !(poll(&fd, 1, 0) == 1 && (fd.revents & POLLHUP));
}

void pty_bridge_track_host(pty_bridge_t *b) {
  /* Our own end closed first: its close is not a host's. */
  if (b->slave >= 0) close(b->slave);
  b->slave = -1;
  b->tracks_host = true;
  b->host_present = false;
  b->host_files = 0;
  b->watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (b->watch >= 0 && inotify_add_watch(b->watch, b->path, IN_OPEN | IN_CLOSE) < 0) {
    close(b->watch);
    b->watch = -1;
  }
  if (b->watch < 0) {
    fprintf(stderr,
            "hapticctl-emu-uno: cannot watch %s for opens (%s): a host that reopens the port within "
            "~0.1 ms of closing it may not reset the board\n",
            b->path, strerror(errno));
  }
}

/* Reads the queued opens and closes of the slave: an open while no file was open is the DTR
 * edge (`opened`). */
static void take_host_events(pty_bridge_t *b) {
  union {
    struct inotify_event event; /* aligns the buffer for the events read into it */
    char bytes[4096];
  } buffer;
  bool any = false;
  ssize_t n;
  while ((n = read(b->watch, buffer.bytes, sizeof buffer.bytes)) > 0) {
    for (ssize_t at = 0; at < n;) {
      const struct inotify_event *event = (const struct inotify_event *)(buffer.bytes + at);
      if (event->mask & IN_OPEN) {
        if (b->host_files++ == 0) {
          b->opened = true;
          b->host_opens++;
        }
      }
      if ((event->mask & IN_CLOSE) && b->host_files > 0) b->host_files--;
      if (event->mask & IN_Q_OVERFLOW) {
        /* Events were lost: start over from the state; a host that has the port now may have
         * opened it among them, and a reset too many beats one missed. */
        b->host_files = slave_open(b) ? 1u : 0u;
        if (b->host_files > 0) b->opened = true;
      }
      at += (ssize_t)(sizeof *event + event->len);
      any = true;
    }
  }
  if (any) {
    b->host_present = slave_open(b);
    if (!b->host_present) b->host_files = 0; /* every file closed, merged closes included */
  }
}

int pty_bridge_poll_fds(const pty_bridge_t *b, struct pollfd fds[2]) {
  int count = 0;
  if (!b->tracks_host || b->host_present) fds[count++] = (struct pollfd){b->master, POLLIN, 0};
  if (b->watch >= 0) fds[count++] = (struct pollfd){b->watch, POLLIN, 0};
  return count;
}

/* Bytes leaving the AVR's UART. */
static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  pty_bridge_t *b = param;
  b->bytes_out++;
  if (b->out_length >= sizeof b->out) {
    b->bytes_dropped++; /* nobody reads the pty: the oldest data stays, the newest goes */
    return;
  }
  b->out[b->out_length++] = (uint8_t)value;
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  ((pty_bridge_t *)param)->xoff = false;
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  ((pty_bridge_t *)param)->xoff = value != 0;
}

/* Bytes in simavr's receive FIFO of `uart` (the accessors are private to simavr). */
static unsigned waiting(const avr_uart_t *uart) {
  return (unsigned)(uart->input.write - uart->input.read) & (uart_fifo_fifo_size - 1u);
}

/* The AVR read UDR0: as on hardware, the receive interrupt comes again at once while the
 * receive buffer still holds data (see pty_bridge.h). */
static uint8_t udr_read(struct avr_t *avr, avr_io_addr_t addr, void *param) {
  pty_bridge_t *b = param;
  uint8_t value = b->udr_read(avr, addr, b->udr_read_param);
  avr_uart_t *uart = b->uart;
  if (avr_regbit_get(avr, uart->rxen) && waiting(uart) > 0 && !uart->rxc.pending) {
    avr_raise_interrupt(avr, &uart->rxc);
  }
  return value;
}

/* The rate UART0 is set to, from its registers as the AVR has them now (ATmega328P datasheet
 * §20.3, §20.11): simavr's avr_uart_t names them for its own UART. simavr's own byte time
 * (cycles_per_byte) is not used: it is only worked out when UBRR0L is written, and it counts a
 * parity bit whether or not there is one (11 bits for 8N1). */
#define UCSR0C_UPM01 0x20u /* parity on (even or odd): a bit more per frame */

/* Cycles per bit: (UBRR0 + 1) x 16, x 8 with U2X0, exact (the baud-rate generator divides the
 * clock): UBRR0 3 with U2X is 32 cycles, 500000 baud at 16 MHz (the firmware's); UBRR0 16 with
 * U2X is 136, 117647 baud (Optiboot's "115200", 2.1 % fast). */
static uint32_t bit_cycles(const pty_bridge_t *b) {
  const avr_uart_t *uart = b->uart;
  uint32_t ubrr = avr_regbit_get(b->avr, uart->ubrrl) | (uint32_t)avr_regbit_get(b->avr, uart->ubrrh) << 8;
  return (ubrr + 1u) * (avr_regbit_get(b->avr, uart->u2x) ? 8u : 16u);
}

avr_cycle_count_t pty_bridge_byte_cycles(const pty_bridge_t *b) {
  if (!b->uart || !b->avr) return 320u; /* no UART0 to read (not on the 328P): 10 bits at 500000 */
  const avr_uart_t *uart = b->uart;
  /* A frame: start, 5-9 data bits (UCSZ0, 0b011 after a reset: 8), parity if on, 1 or 2 stop
   * bits (USBS0): 10 bits for 8N1. */
  static const uint8_t data_bits[8] = {5, 6, 7, 8, 8, 8, 8, 9}; /* 4-6 reserved: read as 8 */
  unsigned size = avr_regbit_get(b->avr, uart->ucsz) | (unsigned)avr_regbit_get(b->avr, uart->ucsz2) << 2;
  uint32_t bits = 1u + data_bits[size & 7u] + 1u + avr_regbit_get(b->avr, uart->usbs);
  if (uart->r_ucsrc && (b->avr->data[uart->r_ucsrc] & UCSR0C_UPM01)) bits++;
  return (avr_cycle_count_t)bit_cycles(b) * bits;
}

uint32_t pty_bridge_baud(const pty_bridge_t *b) {
  if (!b->uart || !b->avr) return 500000u;
  uint32_t bit = bit_cycles(b);
  return (uint32_t)((b->avr->frequency + bit / 2u) / bit);
}

/* One byte into the UART per byte time while bytes wait: the byte time the AVR's UART is set to
 * as each byte goes in (Optiboot's while it runs, the firmware's once it set its own). */
static avr_cycle_count_t feed_byte(avr_t *avr, avr_cycle_count_t when, void *param) {
  pty_bridge_t *b = param;
  if (b->in_tail == b->in_head) {
    b->feeding = false;
    return 0;
  }
  avr_cycle_count_t step = pty_bridge_byte_cycles(b);
  /* XOFF: simavr raises it when its 64-byte FIFO is full — which no longer happens, a byte
   * arriving while two wait being lost below as on the chip — and when the firmware turns its
   * receiver off. It reports room again only on a read of UCSR0A with the FIFO empty, which an
   * interrupt-driven driver never does; so after 16 byte times (0.32 ms at 500000 baud, 1.4 ms
   * at 115200) we send again. */
  if (b->xoff && ++b->xoff_waits < 16) return when + step;
  /* Not before the host wrote it (see pty_bridge_service). */
  avr_cycle_count_t arrival = b->arrival[b->in_tail % sizeof b->in];
  if (arrival > when) return arrival;
  b->xoff = false;
  b->xoff_waits = 0;
  /* The receive buffer (two bytes) is full as this byte's stop bit arrives: lost (DOR). */
  if (b->uart && waiting(b->uart) >= 2) {
    b->overruns++;
    b->in_tail++;
    b->bytes_in++;
    return when + step;
  }
  avr_raise_irq(b->uart_in, b->in[b->in_tail % sizeof b->in]);
  /* The byte is whole now (this is its stop bit): RXC0 as on the chip. simavr 1.6 raises it a
   * byte time later (its cycles_per_byte, 11 bits), which at 500000 baud left the firmware
   * 0.9 byte times, not two, to read a byte before the next-but-one overran it. */
  avr_uart_t *uart = b->uart;
  if (uart && avr_regbit_get(avr, uart->rxen) && !uart->rxc.pending) avr_raise_interrupt(avr, &uart->rxc);
  b->in_tail++;
  b->bytes_in++;
  /* The next byte one byte time later (a whole number of cycles: the baud-rate generator's). */
  return when + step;
}

void pty_bridge_attach(pty_bridge_t *b, avr_t *avr) {
  b->avr = avr;
  for (avr_io_t *io = avr->io_port; io; io = io->next) {
    if (io->kind && strcmp(io->kind, "uart") == 0 && ((avr_uart_t *)io)->name == '0') b->uart = io;
  }
  if (b->uart) {
    avr_io_addr_t udr = AVR_DATA_TO_IO(((avr_uart_t *)b->uart)->r_udr);
    b->udr_read = avr->io[udr].r.c;
    b->udr_read_param = avr->io[udr].r.param;
    avr->io[udr].r.c = udr_read;
    avr->io[udr].r.param = b;
  } else {
    fprintf(stderr, "hapticctl-emu-uno: simavr has no UART0 to attach to\n");
  }
  uint32_t flags = 0; /* no printing of UART output, no usleep when polling UCSR0A */
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  b->uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, b);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), xon_hook, b);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), xoff_hook, b);
}

void pty_bridge_service(pty_bridge_t *b, avr_cycle_count_t now) {
  /* Opens and closes first: what an opening host sends comes after its open. */
  if (b->watch >= 0) take_host_events(b);
  /* Host -> AVR. */
  size_t room = sizeof b->in - (b->in_head - b->in_tail);
  while (room > 0) {
    uint8_t chunk[512];
    ssize_t n = read(b->master, chunk, room < sizeof chunk ? room : sizeof chunk);
    if (b->tracks_host && b->watch < 0) {
      /* Without the watch, the state: EIO, no one has the slave open; anything else (data,
       * EAGAIN), someone has. A close and reopen between two looks goes unseen. */
      bool present = !(n < 0 && errno == EIO);
      if (present && !b->host_present) {
        b->opened = true;
        b->host_opens++;
      }
      b->host_present = present;
    }
    if (n <= 0) break; /* EAGAIN: nothing; EIO: no reader */
    for (ssize_t i = 0; i < n; i++) {
      b->arrival[b->in_head % sizeof b->in] = now;
      b->in[(b->in_head++) % sizeof b->in] = chunk[i];
    }
    room -= (size_t)n;
  }
  if (b->feeding && avr_cycle_timer_status(b->avr, feed_byte, b) == 0) b->feeding = false; /* AVR reset */
  if (!b->feeding && b->in_tail != b->in_head) {
    b->feeding = true;
    avr_cycle_timer_register(b->avr, 1, feed_byte, b);
  }
  /* AVR -> host (dropped while no host has the port, as a USB serial chip's would be). */
  if (b->tracks_host && !b->host_present && b->out_length > 0) {
    b->bytes_dropped += b->out_length;
    b->out_length = 0;
  }
  if (b->out_length > 0) {
    ssize_t n = write(b->master, b->out, b->out_length);
    if (n > 0) {
      memmove(b->out, b->out + n, b->out_length - (size_t)n);
      b->out_length -= (size_t)n;
    }
  }
}

void pty_bridge_discard_input(pty_bridge_t *b) {
  b->bytes_dropped += b->in_head - b->in_tail;
  b->in_tail = b->in_head;
}

void pty_bridge_close(pty_bridge_t *b) {
  if (b->link[0]) {
    char target[256];
    ssize_t n = readlink(b->link, target, sizeof target - 1);
    if (n >= 0) {
      target[n] = 0;
      if (strcmp(target, b->path) == 0) unlink(b->link);
    }
    b->link[0] = 0;
  }
  if (b->watch >= 0) close(b->watch);
  if (b->master >= 0) close(b->master);
  if (b->slave >= 0) close(b->slave);
  b->master = b->slave = b->watch = -1;
}
