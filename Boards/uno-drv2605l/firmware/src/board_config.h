/*
 * board_config.h — what this board announces in `capabilities` (docs/protocol.md §6.3) and
 * the DRV2605L settings, baked in at build time.
 *
 * The macro names below are checked by a Swift test against Boards/uno-drv2605l.json: keep
 * every `#define NAME value` on one line.
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

/* Identity. */
#define BOARD_ID "uno-drv2605l"
#define FIRMWARE_NAME "hapticctl-uno"
#define FIRMWARE_VERSION "1.0.0"

/* Board clock: Timer1 at 16 MHz / 8 = 2 MHz (0.5 us per tick). The 16-bit counter is extended
 * by its overflow interrupt to 48 bits; segment times are the low 32 bits (wrap: 35.8 min). */
#define BOARD_CLOCK_HZ 2000000UL

/* Segment playback: one frame per millisecond (2000 ticks). */
#define BOARD_FRAME_PERIOD_US 1000

/* Segments a channel queue holds (14 bytes each in RAM). */
#define BOARD_QUEUE_DEPTH 32

/* Watchdog: drive stops after this much silence from the host (set watchdog: 10-5000 ms). */
#define BOARD_WATCHDOG_MS_DEFAULT 100

/* Features: bit 0 braking, 1 overdrive (the DRV2605L does both in closed loop),
 * 3 calibration, 4 ROM effects, 6 identity (a serial kept in EEPROM). No frequency control,
 * no signed levels. */
#define BOARD_FEATURES 0x5B

/* Channels (each announced by BOARD_CHANNEL_INFO below). */
#define BOARD_CHANNEL_COUNT 1

/* The one channel: an LRA (kind 1) of 175.0 Hz, Q 11, amplitude only. */
#define BOARD_CH0_KIND 1
#define BOARD_CH0_F0_X10 1750
#define BOARD_CH0_Q_X100 1100
#define BOARD_CH0_FREQ_MIN 0
#define BOARD_CH0_FREQ_MAX 0

/* Levels: unsigned 8-bit (0…255). */
#define BOARD_AMPLITUDE_BITS 8

/* Serial link: 500000 baud 8N1, U2X, UBRR0 = 3 (exact at 16 MHz; 20 us a byte). Optiboot, and so
 * flashing (avrdude -b 115200), stays at 115200. */
#define BOARD_LINK_BAUD 500000UL

/*
 * DRV2605L voltages for a 2.0 Vrms rated, 3.0 V overdrive, 175 Hz LRA
 * (docs: /work/shared/reference/actuators.md §4, TI SLOS854):
 *
 * RATED_VOLTAGE (closed loop, SAMPLE_TIME = 300 us):
 *   V_rms = 20.58 mV * RATED_VOLTAGE / sqrt(1 - (4 * t_SAMPLE + 300 us) * f_LRA)
 *   RATED_VOLTAGE = 2.0 V * sqrt(1 - 1500 us * 175 Hz) / 20.58 mV = 2.0 * 0.85878 / 0.02058
 *                 = 83.46 -> 83 = 0x53
 * OD_CLAMP (LRA):
 *   V_od = 21.32 mV * OD_CLAMP * sqrt(1 - f_LRA * 800 us)
 *   OD_CLAMP = 3.0 V / (21.32 mV * sqrt(1 - 0.14)) = 3.0 / (0.02132 * 0.92736)
 *            = 151.73 -> 152 = 0x98
 */
#define DRV_RATED_VOLTAGE_REG 0x53
#define DRV_OD_CLAMP_REG 0x98

/* Derived values (not part of the cross-checked set). */
#define BOARD_TICKS_PER_MS (BOARD_CLOCK_HZ / 1000UL)
#define BOARD_TICKS_PER_FRAME (BOARD_TICKS_PER_MS * BOARD_FRAME_PERIOD_US / 1000UL)
/* Each channel as `capabilities` announce it (kind, f0 x10, Q x100, frequency range, level
 * bits, calibration state filled in at run time). */
#define BOARD_CHANNEL_INFO {{BOARD_CH0_KIND, BOARD_CH0_F0_X10, BOARD_CH0_Q_X100, BOARD_CH0_FREQ_MIN, BOARD_CH0_FREQ_MAX, BOARD_AMPLITUDE_BITS, 0}}

#endif
