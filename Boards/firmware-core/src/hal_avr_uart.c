/*
 * hal_avr_uart.c — the UART on the ATmega328P: UART0 at the board's BOARD_LINK_BAUD
 * (board_config.h) 8N1 with U2X (500000: UBRR0 = 3, exact; 115200: UBRR0 = 16, +2.1 %), the
 * receive interrupt into a HAL_UART_RX_SIZE-byte (128) ring that the main loop reads in place
 * (hal_uart_peek, hal_uart_consume), transmit from a HAL_UART_TX_SIZE-byte (128) ring on the
 * data-register-empty interrupt. The emulator finds the receive ring's indices by their names
 * (rx_head, rx_tail) to measure its fill.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "board_config.h"
#include "hal.h"
#include "hal_avr.h"

/* UBRR0 with U2X (8 clocks a bit), rounded to the nearest rate; the rate it gives must be within
 * 2.5 % of BOARD_LINK_BAUD (a UART's usual tolerance is about 2 % per side). */
#define UART_UBRR ((F_CPU + 4UL * BOARD_LINK_BAUD) / (8UL * BOARD_LINK_BAUD) - 1UL)
#define UART_ACTUAL_BAUD (F_CPU / (8UL * (UART_UBRR + 1UL)))
_Static_assert(UART_ACTUAL_BAUD * 1000UL <= BOARD_LINK_BAUD * 1025UL &&
                   UART_ACTUAL_BAUD * 1000UL >= BOARD_LINK_BAUD * 975UL,
               "BOARD_LINK_BAUD is more than 2.5 % from any rate UBRR0 gives at F_CPU with U2X");

#define RX_SIZE HAL_UART_RX_SIZE /* power of two */
#define TX_SIZE HAL_UART_TX_SIZE /* power of two */

/* Bytes between rx_tail and rx_head are the main loop's to read (in place: hal_uart_peek); the
 * interrupt only writes at rx_head, and moves it after the byte (a compiler barrier between). */
static uint8_t rx_buffer[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile bool rx_frame_end; /* a 0x00 came since the main loop last looked (hal_uart_peek) */
static volatile uint8_t tx_buffer[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;
static volatile bool tx_emptied; /* the transmit ring ran empty: a frame that did not fit may */

/* Received bytes that wake the main loop when no frame ends among them (hal_avr_uart_wakes):
 * each pass of the loop costs a few hundred cycles, about a byte time at 500000 baud, so the
 * bytes of a frame coming in are taken 16 at a time (0.32 ms of them; 1.4 ms at 115200) rather
 * than one pass a byte; a frame's delimiter wakes it at once. */
#define RX_WAKE_FILL 16

ISR(USART_RX_vect) {
  uint8_t status = UCSR0A;
  uint8_t byte = UDR0;
  if (status & _BV(FE0)) return; /* framing error: drop (the frame's CRC fails) */
  uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
  if (next == rx_tail) return; /* full: drop (the frame's CRC fails, the host resends) */
  rx_buffer[rx_head] = byte;
  __asm__ __volatile__("" ::: "memory");
  rx_head = next;
  if (byte == 0) rx_frame_end = true;
}

ISR(USART_UDRE_vect) {
  if (tx_head == tx_tail) {
    UCSR0B &= (uint8_t)~_BV(UDRIE0);
    tx_emptied = true;
    return;
  }
  UDR0 = tx_buffer[tx_tail];
  tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

void hal_avr_uart_init(void) {
  /* BOARD_LINK_BAUD 8N1, U2X: F_CPU / (8 x (UBRR0 + 1)); at 500000 a byte every 20 us (320
   * cycles). Optiboot, and so flashing, stays at 115200. U2X is set before UBRR0: simavr derives
   * its byte time when UBRR0 is written. */
  UCSR0A = _BV(U2X0);
  UBRR0 = UART_UBRR;
  UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
  UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

bool hal_avr_uart_wakes(void) {
  if (tx_emptied) {
    tx_emptied = false;
    return true;
  }
  /* A frame ended since the loop last looked, or enough of one is here. (A delimiter the loop
   * left for later is its own to remember: board_deadline.) */
  return rx_frame_end || (uint8_t)((rx_head - rx_tail) & (RX_SIZE - 1)) >= RX_WAKE_FILL;
}

int hal_uart_getc(void) {
  if (rx_head == rx_tail) return -1;
  __asm__ __volatile__("" ::: "memory");
  uint8_t byte = rx_buffer[rx_tail];
  rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
  return byte;
}

uint8_t hal_uart_peek(const uint8_t **bytes) {
  rx_frame_end = false; /* the loop looks: a 0x00 before head is its to see */
  uint8_t tail = rx_tail, head = rx_head;
  __asm__ __volatile__("" ::: "memory"); /* the bytes before head are there */
  *bytes = &rx_buffer[tail];
  return (uint8_t)(head >= tail ? head - tail : RX_SIZE - tail);
}

uint8_t hal_uart_waiting(void) { return (uint8_t)((rx_head - rx_tail) & (RX_SIZE - 1)); }

void hal_uart_consume(uint8_t count) { rx_tail = (uint8_t)((rx_tail + count) & (RX_SIZE - 1)); }

uint16_t hal_uart_tx_free(void) { return (uint8_t)(TX_SIZE - 1 - ((tx_head - tx_tail) & (TX_SIZE - 1))); }

void hal_uart_write(const uint8_t *bytes, uint8_t count) {
  uint8_t head = tx_head;
  for (uint8_t i = 0; i < count; i++) {
    uint8_t next = (uint8_t)((head + 1) & (TX_SIZE - 1));
    if (next == tx_tail) break; /* callers check hal_uart_tx_free first */
    tx_buffer[head] = bytes[i];
    head = next;
  }
  tx_head = head;
  UCSR0B |= _BV(UDRIE0);
}

void hal_uart_putc(uint8_t byte) {
  uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
  if (next == tx_tail) return; /* callers check hal_uart_tx_free first */
  tx_buffer[tx_head] = byte;
  tx_head = next;
  UCSR0B |= _BV(UDRIE0);
}
