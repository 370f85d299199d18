/*
 * hal_avr_clock.c — the board clock on the ATmega328P and idle sleep until its deadlines:
 * Timer1, prescaler 8 -> 2 MHz ticks; its overflow interrupt extends the 16-bit counter to
 * 48 bits; compare A wakes the CPU from idle sleep at the next deadline (compare B is left to
 * a driver back end: the H-bridge's staged switches).
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/atomic.h>

#include "hal.h"
#include "hal_avr.h"

static volatile uint32_t timer_overflows;

ISR(TIMER1_OVF_vect) { timer_overflows++; }

/* Compare A only wakes the CPU from sleep. */
EMPTY_INTERRUPT(TIMER1_COMPA_vect);

void hal_avr_clock_init(void) {
  /* Timer1: normal mode, clk/8. */
  TCCR1A = 0;
  TCCR1B = _BV(CS11);
  TIMSK1 = _BV(TOIE1);
}

/* Counter and overflow count read together; an overflow pending while interrupts are off is
 * counted when the counter already wrapped. */
static uint64_t read_clock(void) {
  uint16_t counter;
  uint32_t overflows;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    counter = TCNT1;
    overflows = timer_overflows;
    if ((TIFR1 & _BV(TOV1)) && counter < 0x8000) overflows++;
  }
  return ((uint64_t)overflows << 16) | counter;
}

uint64_t hal_ticks64(void) { return read_clock(); }

uint32_t hal_ticks(void) {
  uint16_t counter;
  uint16_t overflows;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    counter = TCNT1;
    overflows = (uint16_t)timer_overflows;
    if ((TIFR1 & _BV(TOV1)) && counter < 0x8000) overflows++;
  }
  return ((uint32_t)overflows << 16) | counter;
}

/* One sleep (interrupts off on entry, on at return) until an interrupt: compare A at the
 * deadline if it is within the counter's reach. */
static void idle_once(uint32_t deadline, int32_t remaining) {
  if (remaining < 0xFF00) {
    /* Compare A fires at the deadline. A stale OCF1A is not cleared here: it only makes one
     * early (harmless) wake-up, and writing TIFR1 with interrupts off loses a pending Timer1
     * overflow in simavr 1.6 (the board clock would jump back 32.8 ms). */
    OCR1A = (uint16_t)deadline;
    TIMSK1 |= _BV(OCIE1A);
  } else {
    TIMSK1 &= (uint8_t)~_BV(OCIE1A); /* the overflow (every 32.8 ms) wakes us */
  }
  sleep_enable();
  sei();       /* the instruction after sei runs before any interrupt: no lost wake-up */
  sleep_cpu();
  sleep_disable();
}

/* The longest idle sleep before the loop runs again (and kicks the hardware watchdog, 500 ms):
 * 20 ms, in ticks. */
#define IDLE_MAX_TICKS 40000L

/* The longest sleep while received bytes wait (fewer than hal_avr_uart_wakes wakes for): the
 * loop takes them after 0.3 ms (in ticks) even when no more come. */
#define IDLE_RX_WAIT_TICKS 600L

void hal_idle_until(uint32_t deadline) {
  uint32_t started = hal_ticks();
  int32_t longest = hal_uart_waiting() != 0 ? IDLE_RX_WAIT_TICKS : IDLE_MAX_TICKS;
  if ((int32_t)(deadline - started) > longest) deadline = started + longest;
  /* Every interrupt wakes the CPU (the H-bridge's carrier 31 372 times a second, the UART's
   * at every byte): asleep again unless the loop has work. */
  for (;;) {
    cli();
    int32_t remaining = (int32_t)(deadline - hal_ticks());
    /* Something to do, or too close to bother: return. */
    if (hal_avr_uart_wakes() || remaining < 40) {
      sei();
      return;
    }
    idle_once(deadline, remaining);
  }
}
