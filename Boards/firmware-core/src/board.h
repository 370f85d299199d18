/*
 * board.h — the board application: message handling (docs/protocol.md §6), each channel's
 * playback, the host watchdog, status and faults. It owns the link and the channels' queues and reaches the
 * driver through driver.h;
 * main_avr.c (or a test) calls board_init() once and board_poll() forever.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "board_config.h"
#include "frame.h"
#include "link.h"
#include "queue.h"


/* Fault bits (§6.8). */
#define FAULT_OVER_TEMPERATURE 0x01
#define FAULT_OVER_CURRENT 0x02
#define FAULT_DRIVER_NOT_RESPONDING 0x04
#define FAULT_NO_ACTUATOR 0x08

/* Watchdog states (§6.8). */
#define WATCHDOG_IDLE 0
#define WATCHDOG_ARMED 1
#define WATCHDOG_FIRED 2

/* One channel's playback: its queue and the level it drives now. */
typedef struct {
  segment_queue_t queue;
  int16_t level;      /* drive level now (what the driver was given) */
  uint32_t next_eval; /* when the level may change next */
  bool reevaluate : 1; /* the queue changed: evaluate now */
  bool staging : 1;    /* frames up to stage_from are staged with the driver (driver_stage) */
  bool restage : 1;    /* the queue changed within what is staged: unstage, stage again */
  bool stage_full : 1; /* the driver took no more frames: the next waits for its next output */
  uint32_t stage_from; /* the start of the next frame to stage */
  uint16_t underruns;
  uint16_t late_segments;
} channel_t;

typedef struct {
  frame_receiver_t receiver;
  link_t link;

  uint16_t boot_count;
  uint8_t reset_cause;
  uint8_t faults;

  /* Host watchdog. */
  uint16_t watchdog_ms;
  uint32_t last_valid; /* ticks of the last frame that passed the CRC */
  bool watchdog_fired;

  /* Playback, channel by channel. */
  channel_t channels[BOARD_CHANNEL_COUNT];

  bool calibration_result_pending; /* a result waits for a window slot */
  uint8_t calibration_event;       /* DRIVER_EVENT_CALIBRATED or _FAILED */
} board_t;

extern board_t board;

void board_init(void);
void board_poll(void);

/* The deadline board_poll() would sleep until (exposed for tests). */
uint32_t board_deadline(uint32_t now);

#endif
