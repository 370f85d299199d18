/*
 * drv2605.h — the TI DRV2605L haptic driver: initialisation for an LRA in closed-loop,
 * unsigned, unidirectional real-time playback (RTP), RTP writes, auto-calibration and ROM
 * effects. Portable: registers go through the HAL's I2C bus (hal_i2c_write_register,
 * hal_i2c_read_register at DRV_I2C_ADDRESS), the calibration record through its EEPROM. Nothing
 * here blocks for long; calibration and ROM effects are state machines polled from the main
 * loop.
 */
#ifndef DRV2605_H
#define DRV2605_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"

/* The chip's 7-bit I2C address (fixed in the chip: one DRV2605L per bus). */
#define DRV_I2C_ADDRESS 0x5A

/* The calibration kept in EEPROM so that a board starts calibrated (drv_init writes it back
 * into the chip): DRV_CALIBRATION_SIZE bytes from the first the HAL leaves to the back end
 * (after the boot counter), laid out in drv2605.c. */
#define DRV_CALIBRATION_EEPROM HAL_EEPROM_FREE
#define DRV_CALIBRATION_SIZE 6

/* Registers (SLOS854). */
#define DRV_REG_STATUS 0x00
#define DRV_REG_MODE 0x01
#define DRV_REG_RTP_INPUT 0x02
#define DRV_REG_LIBRARY_SEL 0x03
#define DRV_REG_WAVESEQ1 0x04
#define DRV_REG_WAVESEQ2 0x05
#define DRV_REG_GO 0x0C
#define DRV_REG_RATED_VOLTAGE 0x16
#define DRV_REG_OD_CLAMP 0x17
#define DRV_REG_A_CAL_COMP 0x18
#define DRV_REG_A_CAL_BEMF 0x19
#define DRV_REG_FEEDBACK 0x1A
#define DRV_REG_CONTROL1 0x1B
#define DRV_REG_CONTROL2 0x1C
#define DRV_REG_CONTROL3 0x1D
#define DRV_REG_CONTROL4 0x1E
#define DRV_REG_LRA_PERIOD 0x22

/* MODE values. */
#define DRV_MODE_INTERNAL_TRIGGER 0x00
#define DRV_MODE_RTP 0x05
#define DRV_MODE_AUTO_CALIBRATION 0x07

/*
 * Settings written at init and before calibration:
 *  FEEDBACK 0xB6: N_ERM_LRA = 1 (LRA), FB_BRAKE_FACTOR = 3 (4x), LOOP_GAIN = 1 (medium),
 *                 BEMF_GAIN = 2 (the calibration overwrites BEMF_GAIN).
 *  CONTROL1 0x98: STARTUP_BOOST, DRIVE_TIME = 24: 0.5 ms + 2.4 ms ~ half the 5.71 ms period.
 *  CONTROL2 0x75: BIDIR_INPUT = 0 (unidirectional: RTP 0x00 = no drive, 0xFF = full scale,
 *                 the chip brakes by itself), BRAKE_STABILIZER, SAMPLE_TIME = 3 (300 us, as in
 *                 the RATED_VOLTAGE formula), BLANKING_TIME = 1, IDISS_TIME = 1.
 *  CONTROL3 0xA8: NG_THRESH = 2, ERM_OPEN_LOOP = 1 (unused for an LRA), DATA_FORMAT_RTP = 1
 *                 (unsigned), LRA_OPEN_LOOP = 0 (closed loop, resonance tracking).
 *  CONTROL4 0x30: AUTO_CAL_TIME = 3 (1000 ms).
 */
#define DRV_FEEDBACK_VALUE 0xB6
#define DRV_CONTROL1_VALUE 0x98
#define DRV_CONTROL2_VALUE 0x75
#define DRV_CONTROL3_VALUE 0xA8
#define DRV_CONTROL4_VALUE 0x30

/* Poll intervals and timeouts in milliseconds. */
#define DRV_CALIBRATION_POLL_MS 20
#define DRV_CALIBRATION_TIMEOUT_MS 2500
#define DRV_ROM_POLL_MS 5
#define DRV_ROM_TIMEOUT_MS 5000

/* What the driver is doing. */
typedef enum { DRV_STATE_RTP = 0, DRV_STATE_CALIBRATING, DRV_STATE_ROM_PLAYING } drv_state_t;

/* Events drv_poll reports. */
typedef enum {
  DRV_EVENT_NONE = 0,
  DRV_EVENT_CALIBRATED,         /* calibration ran: see `result` (succeeded or not) */
  DRV_EVENT_CALIBRATION_FAILED, /* it did not finish (timeout or no answer): `status` */
  DRV_EVENT_ROM_STARTED,
  DRV_EVENT_ROM_FINISHED
} drv_event_t;

typedef struct {
  bool succeeded;
  uint16_t f0_x10; /* 10 / (LRA_PERIOD * 98.46 us), 0 when the period reads 0 */
  uint8_t compensation;
  uint8_t back_emf;
  uint8_t feedback;
  uint8_t status;
} drv_calibration_t;

typedef struct {
  bool present;       /* the chip answered with a DRV2605(L) id */
  uint8_t device_id;  /* STATUS bits 7:5 (7 DRV2605L, 3 DRV2605) */
  drv_state_t state;
  int16_t rtp;        /* last value written to RTP_INPUT, -1 unknown */
  uint8_t calibration; /* capabilities value: 1 uncalibrated, 2 calibrated, 3 failed */
  uint32_t started;   /* ticks: calibration or ROM effect start */
  uint32_t next_poll; /* ticks */
  bool rom_pending;   /* a ROM effect waits for rom_start */
  uint32_t rom_start;
  uint8_t rom_library;
  uint8_t rom_effect;
  drv_calibration_t result;
} drv_t;

/* The board's chip (drv2605_backend.c, the driver back end over these functions). */
extern drv_t drv2605;

/* Checks the id and configures the chip for RTP; returns `present`. */
bool drv_init(drv_t *drv);

/* Writes RTP_INPUT when it differs from the last value written (RTP state only). */
void drv_set_level(drv_t *drv, uint8_t value);

/* Starts auto-calibration (writes RTP 0 first). */
void drv_calibration_begin(drv_t *drv, uint32_t now);

/* Schedules ROM effect `effect` of `library` at board time `start` (replacing a pending one). */
void drv_rom_schedule(drv_t *drv, uint8_t library, uint8_t effect, uint32_t start);

/* Ends a ROM effect (pending or playing) and returns to RTP at level 0. */
void drv_stop(drv_t *drv);

/* Advances calibration and ROM playback. */
drv_event_t drv_poll(drv_t *drv, uint32_t now);

/* When drv_poll next has work (or now + 2^30). */
uint32_t drv_deadline(const drv_t *drv, uint32_t now);

#endif
