/*
 * expect.h — checks the core's and the boards' host tests share (they CHECK, test.h): a status
 * requested, the error a request got, a board whose driver does not answer, the vector batch
 * played frame by frame and levels clamped to the board's range.
 */
#ifndef TEST_EXPECT_H
#define TEST_EXPECT_H

#include <stdint.h>

#include "host.h"

/* Requests a status, runs the board 10 ticks and reads it; checks one came (NULL if not). */
const host_frame_t *request_status(host_t *host);

/* The error the last host_read got, checked to carry `code`, `type` and `detail` (NULL, a
 * failed check, when none came). */
const host_frame_t *expect_error(host_t *host, uint8_t code, uint8_t type, uint16_t detail);

/* Starts the board on the fakes as they are (the test made its driver absent: init_and_listen)
 * and checks that it still talks (the reset notice first), that its status reports
 * driverNotResponding (fault bit 2), and that playback goes on without an error: 10 frames at
 * level 100 queued on channel 0 from 1 ms on, the board run 20 ms (what reaches the hardware is
 * the back end's). */
void expect_driver_not_responding(host_t *host);

/* Boots for playback (boot_for_playback), queues 2-byte levels beyond 8 bits on channel 0 from
 * 1 ms on (3 frames at 255, one at 300, a ramp -100 -> 100 over 3), runs the board 10 ms and
 * checks the drive `drive_at` reports, each queued level mapped by `level` (the board's range):
 * 255, 300, -100, the ramp passing 0, 100. */
void expect_levels_clamped(int (*drive_at)(uint64_t time), int (*level)(long queued));

/* Checks the vector batch (batch.h) queued at `start` as the drive `drive_at` reports at each
 * board time: 0 before it, frame k's level mapped by `level` (the board's range) from the
 * frame's first tick to its last, 0 after the last frame. */
void expect_vector_batch(uint32_t start, int (*drive_at)(uint64_t time), int (*level)(long queued));

#endif
