/*
 * board_config.h — what the Uno + DRV8833 H-bridge board announces in `capabilities`
 * (docs/protocol.md §6.3), baked in at build time.
 *
 * The macro names below are checked by a Swift test against Boards/uno-hbridge.json: keep
 * every `#define NAME value` on one line.
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

/* Identity. */
#define BOARD_ID "uno-hbridge"
#define FIRMWARE_NAME "hapticctl-uno-hbridge"
#define FIRMWARE_VERSION "1.0.0"

/* Board clock: Timer1 at 16 MHz / 8 = 2 MHz (0.5 us per tick), as on every Uno board. */
#define BOARD_CLOCK_HZ 2000000UL

/* Segment playback: one frame per millisecond (2000 ticks). */
#define BOARD_FRAME_PERIOD_US 1000

/* Segments each channel queue holds (18 bytes each in RAM with frequencies; two queues). */
#define BOARD_QUEUE_DEPTH 16

/* Watchdog: drive stops after this much silence from the host (set watchdog: 10-5000 ms). */
#define BOARD_WATCHDOG_MS_DEFAULT 100

/* Features: bit 0 braking (reverse drive), 1 overdrive (the host shapes both), 2 frequency
 * control (the LRA's carrier), 5 signed levels, 6 identity (a serial kept in EEPROM). No
 * calibration, no ROM effects. */
#define BOARD_FEATURES 0x67

/* Channels (each announced by BOARD_CHANNEL_INFO below). */
#define BOARD_CHANNEL_COUNT 2

/* Channel 0: an ERM (kind 2) on bridge A, 200 Hz at full speed, no frequency control. */
#define BOARD_CH0_KIND 2
#define BOARD_CH0_F0_X10 2000
#define BOARD_CH0_Q_X100 0
#define BOARD_CH0_FREQ_MIN 0
#define BOARD_CH0_FREQ_MAX 0

/* Channel 1: an LRA (kind 1) on bridge B, 170.0 Hz, Q 11, carrier 80-300 Hz. */
#define BOARD_CH1_KIND 1
#define BOARD_CH1_F0_X10 1700
#define BOARD_CH1_Q_X100 1100
#define BOARD_CH1_FREQ_MIN 80
#define BOARD_CH1_FREQ_MAX 300

/* Levels: signed 8-bit (-127…127), both channels. */
#define BOARD_AMPLITUDE_BITS 8

/* Serial link: 115200 baud 8N1, U2X, UBRR0 = 16 (117647 baud, +2.1 %). */
#define BOARD_LINK_BAUD 115200UL

/* Derived values (not part of the cross-checked set). */
#define BOARD_TICKS_PER_MS (BOARD_CLOCK_HZ / 1000UL)
#define BOARD_TICKS_PER_FRAME (BOARD_TICKS_PER_MS * BOARD_FRAME_PERIOD_US / 1000UL)
/* Each channel as `capabilities` announce it (kind, f0 x10, Q x100, frequency range, level
 * bits, calibration: not applicable). */
#define BOARD_CHANNEL_INFO {{BOARD_CH0_KIND, BOARD_CH0_F0_X10, BOARD_CH0_Q_X100, BOARD_CH0_FREQ_MIN, BOARD_CH0_FREQ_MAX, BOARD_AMPLITUDE_BITS, 0}, {BOARD_CH1_KIND, BOARD_CH1_F0_X10, BOARD_CH1_Q_X100, BOARD_CH1_FREQ_MIN, BOARD_CH1_FREQ_MAX, BOARD_AMPLITUDE_BITS, 0}}

#endif
