/*
 * hbridge_model.c — the DRV8833 drive trace of the uno-hbridge board (see hbridge_model.h).
 *
 * Event driven: the pins' registers (DDRB, PORTB, DDRD, PORTD) are followed through simavr's
 * I/O-memory IRQs, which it raises after each access to them (sim_core.c, _avr_set_r and
 * _avr_get_ram: OUT, STS, SBI, CBI alike), and the timers' through phase_pwm.c, which calls back
 * when a compare output may have changed. Each callback recomputes both channels' duties from
 * the registers and writes a row for a channel whose pair differs from the last one written.
 */
#include "hbridge_model.h"

#include <inttypes.h>
#include <string.h>

#include "sim_cycle_timers.h"
#include "sim_time.h"

/* Port registers' data addresses (iom328p.h). */
#define DDRB 0x24
#define PORTB 0x25
#define DDRD 0x2A
#define PORTD 0x2B

#define NSLEEP_BIT 0x01 /* PB0 */
#define FLUSH_USEC 100000

/* One bridge input: the compare output that can drive it and its port pin. */
typedef struct {
  bool timer2;     /* false: Timer0 */
  uint8_t output;  /* 0: OCnA, 1: OCnB */
  uint16_t ddr, port;
  uint8_t mask;
} bridge_input_t;

static const bridge_input_t inputs[HBRIDGE_CHANNELS][2] = {
    {{false, 0, DDRD, PORTD, 1u << 6}, {false, 1, DDRD, PORTD, 1u << 5}}, /* AIN1 PD6, AIN2 PD5 */
    {{true, 0, DDRB, PORTB, 1u << 3}, {true, 1, DDRD, PORTD, 1u << 3}},   /* BIN1 PB3, BIN2 PD3 */
};

static uint8_t input_duty(const hbridge_model_t *m, const bridge_input_t *in) {
  const uint8_t *data = m->avr->data;
  if (!(data[in->ddr] & in->mask)) return 0; /* an input pin: the DRV8833 pulls INx down */
  int duty = phase_pwm_duty(in->timer2 ? &m->timer2 : &m->timer0, in->output);
  if (duty >= 0) return (uint8_t)duty;
  return (data[in->port] & in->mask) ? 255 : 0;
}

/* Simulated time as microseconds with 3 decimals (nanoseconds truncated), without floating point. */
static void write_row(hbridge_model_t *m, avr_cycle_count_t cycle, unsigned channel) {
  uint64_t frequency = m->avr->frequency;
  uint64_t ns = cycle / frequency * 1000000000ull + cycle % frequency * 1000000000ull / frequency;
  fprintf(m->trace, "%" PRIu64 ".%03u,%u,%u,%u\n", ns / 1000, (unsigned)(ns % 1000), channel,
          m->drive[channel][0], m->drive[channel][1]);
  m->unflushed++;
}

static void update(hbridge_model_t *m, avr_cycle_count_t cycle) {
  const uint8_t *data = m->avr->data;
  bool awake = (data[DDRB] & NSLEEP_BIT) && (data[PORTB] & NSLEEP_BIT);
  for (unsigned c = 0; c < HBRIDGE_CHANNELS; c++) {
    uint8_t in1 = awake ? input_duty(m, &inputs[c][0]) : 0;
    uint8_t in2 = awake ? input_duty(m, &inputs[c][1]) : 0;
    if (in1 == m->drive[c][0] && in2 == m->drive[c][1]) continue;
    m->drive[c][0] = in1;
    m->drive[c][1] = in2;
    m->changes[c]++;
    if (m->trace) write_row(m, cycle, c);
  }
}

static void timer_changed(void *param, avr_cycle_count_t cycle) { update(param, cycle); }

static void port_accessed(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  hbridge_model_t *m = param;
  update(m, m->avr->cycle);
}

/* Rows reach the file within FLUSH_USEC of simulated time (a reader may follow it). */
static avr_cycle_count_t flush_trace(avr_t *avr, avr_cycle_count_t when, void *param) {
  hbridge_model_t *m = param;
  if (m->unflushed) {
    fflush(m->trace);
    m->unflushed = 0;
  }
  return when + avr_usec_to_cycles(avr, FLUSH_USEC);
}

/* avr_reset: the registers are 0 again (every input off) and the cycle timers gone. */
static void model_reset(avr_io_t *io) {
  hbridge_model_t *m = (hbridge_model_t *)io;
  phase_pwm_reset(&m->timer0);
  phase_pwm_reset(&m->timer2);
  update(m, m->avr->cycle);
  if (m->trace) avr_cycle_timer_register_usec(m->avr, FLUSH_USEC, flush_trace, m);
}

void hbridge_model_init(hbridge_model_t *m, avr_t *avr, FILE *trace) {
  memset(m, 0, sizeof *m);
  m->avr = avr;
  m->trace = trace;
  m->io.kind = "hbridge";
  m->io.reset = model_reset;
  avr_register_io(avr, &m->io);
  phase_pwm_init(&m->timer0, avr, '0', timer_changed, m);
  phase_pwm_init(&m->timer2, avr, '2', timer_changed, m);
  static const uint16_t ports[] = {DDRB, PORTB, DDRD, PORTD};
  for (unsigned i = 0; i < sizeof ports / sizeof ports[0]; i++) {
    avr_irq_register_notify(avr_iomem_getirq(avr, ports[i], NULL, AVR_IOMEM_IRQ_ALL), port_accessed, m);
  }
  if (trace) {
    /* The carrier changes ~31 k times a second while the LRA drives: write in large blocks. */
    setvbuf(trace, m->buffer, _IOFBF, sizeof m->buffer);
    fprintf(trace, "time_us,channel,in1,in2\n");
    fflush(trace);
    avr_cycle_timer_register_usec(avr, FLUSH_USEC, flush_trace, m);
  }
}

void hbridge_model_describe(const hbridge_model_t *m, char *text, size_t size) {
  snprintf(text, size, "%lu drive changes on channel 0, %lu on channel 1", m->changes[0], m->changes[1]);
}

void hbridge_model_finish(hbridge_model_t *m) {
  if (m->trace) fflush(m->trace);
}
