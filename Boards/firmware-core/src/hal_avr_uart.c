/*
 * hal_avr_uart.c — the UART on the ATmega328P: UART0 at 115200 baud 8N1 with U2X
 * (UBRR0 = 16), the receive interrupt into a HAL_UART_RX_SIZE-byte (128) ring, transmit from a
 * HAL_UART_TX_SIZE-byte (128) ring on the data-register-empty interrupt. The emulator finds
 * the receive ring's indices by their names (rx_head, rx_tail) to measure its fill.
 */
#include <avr/interrupt.h>
#include <avr/io.h>

#include "hal.h"
#include "hal_avr.h"

#define RX_SIZE HAL_UART_RX_SIZE /* power of two */
#define TX_SIZE HAL_UART_TX_SIZE /* power of two */

static volatile uint8_t rx_buffer[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buffer[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;

ISR(USART_RX_vect) {
  uint8_t status = UCSR0A;
  uint8_t byte = UDR0;
  if (status & _BV(FE0)) return; /* framing error: drop (the frame's CRC fails) */
  uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
  if (next == rx_tail) return; /* full: drop (the frame's CRC fails, the host resends) */
  rx_buffer[rx_head] = byte;
  rx_head = next;
}

ISR(USART_UDRE_vect) {
  if (tx_head == tx_tail) {
    UCSR0B &= (uint8_t)~_BV(UDRIE0);
    return;
  }
  UDR0 = tx_buffer[tx_tail];
  tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

void hal_avr_uart_init(void) {
  /* 115200 8N1, U2X (set before UBRR0: simavr derives its byte time when UBRR0 is written). */
  UCSR0A = _BV(U2X0);
  UBRR0 = 16;
  UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
  UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

bool hal_avr_uart_rx_pending(void) { return rx_head != rx_tail; }

int hal_uart_getc(void) {
  if (rx_head == rx_tail) return -1;
  uint8_t byte = rx_buffer[rx_tail];
  rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
  return byte;
}

uint16_t hal_uart_tx_free(void) { return (uint8_t)(TX_SIZE - 1 - ((tx_head - tx_tail) & (TX_SIZE - 1))); }

void hal_uart_putc(uint8_t byte) {
  uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
  if (next == tx_tail) return; /* callers check hal_uart_tx_free first */
  tx_buffer[tx_head] = byte;
  tx_head = next;
  UCSR0B |= _BV(UDRIE0);
}
