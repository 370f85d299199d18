/*
 * fuzz_board.h — the input format of the libFuzzer harness (test/fuzz_board.c), shared with
 * the seed generator (test/fuzz_seeds.c).
 *
 * An input is a 3-byte setup followed by operations. Bytes past the end read as 0.
 *
 *   setup[0]  bits 0-1  boot clock: 0 at 0.5 s, 1 at 0, 2 at 1 s before the 32-bit wrap of the
 *                       low 32 bits, 3 at 2^32 - 1000 (the wrap within the first millisecond)
 *             bit 2     no DRV2605L on the bus (every I2C transfer fails)
 *             bit 3     auto-calibration never ends (GO stays set: the 2.5 s timeout)
 *             bit 4     auto-calibration ends with DIAG_RESULT set (failed)
 *             bit 5     ROM effects run 20 s (the 5 s ROM timeout)
 *             bit 6     UART transmit as on the Uno: 127 free bytes draining at 500000 baud
 *                       (else 512 bytes, drained between polls)
 *             bit 7     the host does not acknowledge what it reads (FUZZ_OP_AUTO_ACK toggles)
 *   setup[1]  EEPROM boot counter before boot: setup[1] * 257 (0xFFFF is blank)
 *   setup[2]  bits 0-2  reset cause (mod 6)
 *             bits 3-6  late wake-ups: each poll up to n * 200 ticks after the deadline the
 *                       board asked for (pseudo-random), as when the loop overran (I2C writes,
 *                       a frame to check); 0: always on time
 *             bit 7     the host reads (and, when it acks, acks) everything the board writes
 *                       after every poll, as a live host does
 *
 * Operations: an op byte (mod FUZZ_OP_COUNT), then its arguments:
 *
 *   RAW      n, n bytes             fed to the UART as they are (garbage for COBS/CRC)
 *   COBS     n, n bytes             COBS-encoded + 0x00: a well-framed run of any raw bytes
 *   FRAME    mode, version, flags, session, seq, ack, type, n, n payload bytes
 *                                   one frame with a correct CRC and these header fields;
 *                                   mode bit 0: session = the host's, bit 1: seq = the host's
 *                                   next + (int8)seq, bit 2: ack = the host's expected +
 *                                   (int8)ack, bit 3: version 1
 *   SEND     type, n, n bytes       a reliable message from the host (session, SYN, seq, ack)
 *   BATCH    kind, off_lo, off_hi, n, n bytes
 *                                   queue (kind bit 0 clear) or replace segments: channel 0
 *                                   (1 + (kind >> 5) when kind bits 1-2 are both set),
 *                                   startTime = board now + (int16)off * scale (kind bits 3-4:
 *                                   1, 64, 2000 or 65536 ticks), then the batch body from
 *                                   levelBytes on
 *   ROM      channel, library, effect, off_lo, off_hi
 *                                   play ROM effect at board now + (int16)off * 64 ticks
 *   ADVANCE  kind, value            run the board loop for value * (1 tick, 100 ticks, 1 ms,
 *                                   20 ms) by kind >> 6 (total board time per input is capped)
 *   READ                            the host reads (and, when acking, acknowledges) the output
 *   ACK                             the host sends a pure ack
 *   AUTO_ACK                        toggles whether the host acknowledges what it reads
 *   RESYNC   how                    bit 0: the host restarts with session how >> 1 (SYN again);
 *                                   else a go-back-N: the host resends its messages from the
 *                                   board's last ack field on (or, beyond the 16 it keeps,
 *                                   continues from that number)
 *   STOP     mask                   a stop, checked: once delivered with bit 0 set, nothing
 *                                   is queued or driven, also one frame period later
 *   I2C      -                      the DRV2605L stops (or starts again) answering
 */
#ifndef FUZZ_BOARD_H
#define FUZZ_BOARD_H

#define FUZZ_SETUP_BYTES 3

#define FUZZ_CFG_START_MASK 0x03
#define FUZZ_CFG_NO_CHIP 0x04
#define FUZZ_CFG_CALIBRATION_HANGS 0x08
#define FUZZ_CFG_CALIBRATION_FAILS 0x10
#define FUZZ_CFG_LONG_ROM 0x20
#define FUZZ_CFG_UNO_UART 0x40
#define FUZZ_CFG_NO_AUTO_ACK 0x80
/* setup[2] */
#define FUZZ_CFG2_CAUSE_MASK 0x07
#define FUZZ_CFG2_LATE_SHIFT 3
#define FUZZ_CFG2_LATE_MASK 0x78
#define FUZZ_LATE_UNIT_TICKS 200u
#define FUZZ_CFG2_LIVE_HOST 0x80

enum {
  FUZZ_OP_RAW = 0,
  FUZZ_OP_COBS,
  FUZZ_OP_FRAME,
  FUZZ_OP_SEND,
  FUZZ_OP_BATCH,
  FUZZ_OP_ROM,
  FUZZ_OP_ADVANCE,
  FUZZ_OP_READ,
  FUZZ_OP_ACK,
  FUZZ_OP_AUTO_ACK,
  FUZZ_OP_RESYNC,
  FUZZ_OP_STOP,
  FUZZ_OP_I2C,
  FUZZ_OP_COUNT
};

/* FRAME mode bits. */
#define FUZZ_FRAME_HOST_SESSION 0x01
#define FUZZ_FRAME_RELATIVE_SEQ 0x02
#define FUZZ_FRAME_RELATIVE_ACK 0x04
#define FUZZ_FRAME_VERSION_1 0x08

/* ADVANCE kinds (the op's first argument >> 6). */
#define FUZZ_ADVANCE_TICKS 0
#define FUZZ_ADVANCE_100_TICKS 1
#define FUZZ_ADVANCE_MS 2
#define FUZZ_ADVANCE_20_MS 3

/* BATCH kind bits. */
#define FUZZ_BATCH_REPLACE 0x01
#define FUZZ_BATCH_BAD_CHANNEL 0x06
#define FUZZ_BATCH_SCALE_1 0x00
#define FUZZ_BATCH_SCALE_64 0x08
#define FUZZ_BATCH_SCALE_FRAME 0x10
#define FUZZ_BATCH_SCALE_65536 0x18

#endif
