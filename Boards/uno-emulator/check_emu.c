/*
 * check_emu.c — end-to-end check of the emulated board (`make check`):
 *
 *   check-emu EMULATOR FIRMWARE.elf BUILD_DIR [docs/protocol.md]
 *
 * Starts the emulator, opens its pty (raw, 115200), and talks to the firmware as a host:
 *  1. the `identify` test vector as raw bytes (no session yet: the board must ignore it),
 *     then a SYN identify of our own -> reset notice (0x0B, SYN) and capabilities (0x02);
 *  2. clock queries -> the board clock against ours;
 *  3. a queue batch -> RTP_INPUT writes in the trace at the frame times and levels;
 *  4. a late replace -> latency from our write() to the RTP write;
 *  5. silence -> the watchdog stops the drive (RTP 0) ~100 ms after our last frame, and the
 *     next status says "fired";
 *  6. calibration -> a calibration result (f0 175.1 Hz from the model);
 *  7. v1.1: capabilities announce the measured f0, calibrated; `identity request` -> 0 (no
 *     serial yet), then an assign kept; SIGUSR1 (a power cycle) -> both still there (the
 *     firmware's EEPROM: calibration record, serial at 1020-1023), an assign then ignored;
 *  8. SIGINT -> exit status 0, --link removed;
 *  9. --no-chip -> status fault bit 2; a missing firmware file -> exit status 1.
 * Prints what it measured; exit status 0 when every check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_host.h"

/* --no-chip: the board runs and reports "driver not responding"; a missing firmware file is
 * exit status 1 with a message. */
static void check_without_chip(const char *emulator, const char *firmware, const char *build) {
  char log[4096], pty[256];
  snprintf(log, sizeof log, "%s/check-emulator-nochip.log", build);
  pid_t child = spawn(emulator, firmware, NULL, NULL, true, log, pty);
  fd = open_pty(pty);
  reset_host();
  usleep(50000);
  send_message(MSG_IDENTIFY, NULL, 0);
  rx_frame_t frames[64];
  receive(frames, 64, MSG_CAPABILITIES, 1000);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  int n = receive(frames, 64, MSG_STATUS, 1000);
  const rx_frame_t *status = find(frames, n, MSG_STATUS);
  EXPECT(status && (status->payload[5] & 0x04), "--no-chip: status faults 0x%02X (bit 2: driver not responding)",
         status ? status->payload[5] : 0xFF);
  close(fd);
  EXPECT(stop_emulator(child) == 0, "--no-chip: clean exit on SIGINT");

  snprintf(log, sizeof log, "%s/check-emulator-missing.log", build);
  child = spawn(emulator, "/nonexistent/hapticctl-uno.elf", NULL, NULL, false, log, pty);
  int wait_status = 0;
  waitpid(child, &wait_status, 0);
  char message[256] = {0};
  FILE *l = fopen(log, "r");
  if (l) {
    if (!fgets(message, sizeof message, l)) message[0] = 0;
    fclose(l);
  }
  message[strcspn(message, "\n")] = 0;
  EXPECT(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 1 && pty[0] == 0 && strstr(message, "cannot read"),
         "missing firmware: exit status %d, stderr \"%s\"", WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1,
         message);
}

/* Sends a request and waits up to 500 ms for the answer of type `answer` (NULL if none). */
static const rx_frame_t *ask(rx_frame_t *frames, uint8_t type, const uint8_t *payload, uint8_t length, uint8_t answer) {
  send_message(type, payload, length);
  int n = receive(frames, 64, answer, 500);
  return find(frames, n, answer);
}

/* The serial an `identity` answer carries; -1 without one. */
static long long serial_of(const rx_frame_t *identity) {
  if (!identity || identity->frame.length != 4) return -1;
  const uint8_t *p = identity->payload;
  return (long long)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Capabilities' f0 (x10) and calibration state of the LRA; checks their values. */
static void expect_calibrated_f0(rx_frame_t *frames, const char *when) {
  const rx_frame_t *caps = ask(frames, MSG_IDENTIFY, NULL, 0, MSG_CAPABILITIES);
  const uint8_t *q = caps && caps->frame.length == 60 ? caps->payload + 34 : NULL;
  EXPECT(q && le16(q + 12) == 0x5B && le16(q + 16) == 1751 && q[25] == 2,
         "%s: capabilities features 0x%02X, f0 %.1f Hz, calibration %d (calibrated: the measured f0)", when,
         q ? le16(q + 12) : 0, q ? le16(q + 16) / 10.0 : 0, q ? q[25] : -1);
}

/* v1.1 (§6.3, §6.11) after a calibration: the measured f0 and the serial, also after a power
 * cycle (SIGUSR1), which keeps the EEPROM. */
static void check_identity(pid_t child, rx_frame_t *frames) {
  expect_calibrated_f0(frames, "after the calibration");
  const uint8_t assign[4] = {0x4D, 0x3C, 0x2B, 0x1A}; /* 0x1A2B3C4D, the §9 vector's */
  long long serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, NULL, 0, MSG_IDENTITY));
  EXPECT(serial == 0, "identity request: serial %lld (none yet)", serial);
  double sent = now_us();
  const rx_frame_t *identity = ask(frames, MSG_IDENTITY_REQUEST, assign, 4, MSG_IDENTITY);
  serial = serial_of(identity);
  EXPECT(serial == 0x1A2B3C4D, "identity request assigning 0x1A2B3C4D: serial 0x%llX, %.1f ms after the request",
         serial, identity ? (identity->time - sent) / 1000 : 0);
  /* Power cycle: a new boot (reset notice with SYN, power-on), then a host of its own. */
  kill(child, SIGUSR1);
  usleep(300000);
  reset_host();
  send_message(MSG_IDENTIFY, NULL, 0);
  int n = receive(frames, 64, MSG_CAPABILITIES, 1000);
  const rx_frame_t *notice = find(frames, n, MSG_RESET_NOTICE);
  EXPECT(notice && le16(notice->payload) == 2 && notice->payload[2] == 1,
         "power cycle: reset notice, boot count %u, cause %u (power-on)", notice ? le16(notice->payload) : 0,
         notice ? notice->payload[2] : 0);
  expect_calibrated_f0(frames, "after the power cycle");
  serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, NULL, 0, MSG_IDENTITY));
  EXPECT(serial == 0x1A2B3C4D, "identity request after the power cycle: serial 0x%llX (kept)", serial);
  const uint8_t other[4] = {5, 0, 0, 0};
  serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, other, 4, MSG_IDENTITY));
  EXPECT(serial == 0x1A2B3C4D, "identity request assigning 5: serial 0x%llX (the board keeps its own)", serial);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: check-emu EMULATOR FIRMWARE.elf BUILD_DIR [protocol.md]\n");
    return 2;
  }
  const char *doc = argc > 4 ? argv[4] : "../../docs/protocol.md";
  char link[4096], log[4096];
  snprintf(trace_path, sizeof trace_path, "%s/check-trace.csv", argv[3]);
  snprintf(link, sizeof link, "%s/check-link", argv[3]);
  snprintf(log, sizeof log, "%s/check-emulator.log", argv[3]);
  setvbuf(stdout, NULL, _IOLBF, 0);

  /* 0. Start the emulator; its first stdout line is the pty. */
  double started = now_us();
  char pty[256];
  pid_t child = spawn(argv[1], argv[2], trace_path, link, false, log, pty);
  printf("emulator: pty %s (first stdout line after %.0f ms)\n", pty, (now_us() - started) / 1000);
  EXPECT(strncmp(pty, "/dev/pts/", 9) == 0, "the first stdout line is the pty path");
  char target[256] = {0};
  ssize_t tl = readlink(link, target, sizeof target - 1);
  EXPECT(tl > 0 && strcmp(target, pty) == 0, "--link %s points at it", link);

  fd = open_pty(pty);
  if (fd < 0) {
    printf("cannot open %s: %s\n", pty, strerror(errno));
    kill(child, SIGKILL);
    return 1;
  }
  reset_host();
  usleep(100000);

  /* 1. The raw identify vector (session 0x5A, seq 7, no SYN): ignored, no session yet. */
  uint8_t vector[64];
  size_t vector_length = identify_vector(doc, vector);
  EXPECT(vector_length == 11, "identify vector read from %s", doc);
  const uint8_t delimiter = 0;
  write_all(&delimiter, 1);
  write_all(vector, vector_length);
  rx_frame_t frames[64];
  int n = receive(frames, 64, -1, 150);
  EXPECT(find(frames, n, MSG_CAPABILITIES) == NULL, "the vector frame (no SYN, no session) is not answered");
  /* Our own SYN identify. */
  double identify_sent = now_us();
  send_message(MSG_IDENTIFY, NULL, 0);
  int m = receive(frames + n, 64 - n, MSG_CAPABILITIES, 1000);
  n += m;
  const rx_frame_t *first_reliable = NULL;
  for (int i = 0; i < n && !first_reliable; i++) {
    if (frames[i].frame.flags & FLAG_RELIABLE) first_reliable = &frames[i];
  }
  EXPECT(first_reliable && first_reliable->frame.type == MSG_RESET_NOTICE && (first_reliable->frame.flags & FLAG_SYN),
         "first frame: reset notice (0x0B) with SYN, boot count %u, cause %u",
         first_reliable ? le16(first_reliable->payload) : 0, first_reliable ? first_reliable->payload[2] : 0);
  const rx_frame_t *caps = find(frames, n, MSG_CAPABILITIES);
  EXPECT(caps != NULL, "capabilities (0x02) %.1f ms after the identify", caps ? (caps->time - identify_sent) / 1000 : 0);
  if (caps) {
    EXPECT(memmem(caps->payload, caps->frame.length, "uno-drv2605l", 12) != NULL, "boardID uno-drv2605l in it");
    const uint8_t *q = caps->payload + 34;
    printf("        clock %u Hz, frames %u us, queue %u, watchdog %u ms, features 0x%02X\n",
           (unsigned)(q[2] | q[3] << 8 | q[4] << 16 | (uint32_t)q[5] << 24), le16(q + 6), le16(q + 8), le16(q + 10),
           le16(q + 12));
  }

  /* 2. Clock sync. */
  clock_sync(8);
  printf("clock: best round trip %.2f ms\n", best_rtt / 1000);
  EXPECT(best_rtt < 20000, "clock queries answered (round trip %.2f ms)", best_rtt / 1000);

  /* 3. A queue batch 30 ms ahead: 10 frames at 100, a ramp 100 -> 10 over 10, 5 at 60, 0. */
  static const int segs[][3] = {{10, 100, 100}, {10, 100, 10}, {5, 60, 60}, {1, 0, 0}};
  uint32_t start = (uint32_t)(board_at(now_us()) + 60000);
  uint8_t payload[64];
  send_message(MSG_QUEUE_SEGMENTS, payload, batch(payload, start, segs, 4));
  double batch_sent = last_write_us;
  for (int i = 0; i < 5; i++) {
    receive(frames, 64, -1, 20);
    send_message(MSG_HEARTBEAT, NULL, 0);
  }
  receive(frames, 64, -1, 20);
  static write_t writes[20000];
  int count = read_trace(writes, 20000, NULL);
  int first = -1;
  for (int i = 0; i < count; i++) {
    if (writes[i].reg == 2 && writes[i].value == 100) {
      first = i;
      break;
    }
  }
  EXPECT(first >= 0, "RTP_INPUT = 100 in the trace");
  if (first >= 0) {
    /* Expected level changes, frame by frame from the start. */
    int expected_frames = 0, matched = 0;
    double worst = 0;
    int previous = 100;
    int k = 0;
    for (int s = 0; s < 4; s++) {
      for (int j = 0; j < segs[s][0]; j++, k++) {
        int level = segs[s][0] == 1 ? segs[s][1]
                                     : (int)lround(segs[s][1] + (double)(segs[s][2] - segs[s][1]) * j / (segs[s][0] - 1));
        if (k == 0 || level == previous) {
          previous = level;
          continue;
        }
        previous = level;
        expected_frames++;
        for (int i = first + 1; i < count; i++) {
          /* Within 250 us of the grid: RTP_INPUT is written when the main loop computes the
           * frame (~50 us in), later when a received frame (a heartbeat: ~0.15 ms) is being
           * handled at the boundary. The write itself takes ~0.1 ms of I2C. */
          if (writes[i].reg == 2 && writes[i].value == level && fabs(writes[i].us - writes[first].us - k * 1000.0) < 250) {
            matched++;
            double error = fabs(writes[i].us - writes[first].us - k * 1000.0);
            if (error > worst) worst = error;
            break;
          }
        }
      }
    }
    EXPECT(matched == expected_frames,
           "%d of %d level changes at their frame times, values as the rounding rule (worst %.0f us off the 1 ms grid)",
           matched, expected_frames, worst);
    /* The first write against the clock sync: when the host expected the start. */
    double t0 = writes[first].us; /* simulated us at board tick `start` */
    printf("        batch start: sim %.0f us; by the clock sync +%.1f ms after the send (asked: +30.0 ms)\n", t0,
           (host_at(start) - batch_sent) / 1000);
  }

  /* 4. Latency: a replace that starts in the past plays at once (level 77). */
  uint32_t past = (uint32_t)(board_at(now_us()) - 10000);
  static const int hold[][3] = {{2000, 77, 77}};
  uint8_t replace_length = batch(payload, past, hold, 1);
  unsigned replace_bytes = FRAME_WIRE_SIZE(FRAME_HEADER_SIZE + replace_length + 2u);
  send_message(MSG_REPLACE_SEGMENTS, payload, replace_length);
  double written = last_write_us;
  double seen = 0;
  bool header_ok = false;
  while (now_us() - written < 200000 && seen == 0) {
    count = read_trace(writes, 20000, &header_ok);
    for (int i = count - 1; i >= 0 && i >= count - 50; i--) {
      if (writes[i].reg == 2 && writes[i].value == 77) seen = now_us();
    }
    if (seen == 0) usleep(200);
  }
  EXPECT(header_ok, "trace header time_us,register,value");
  EXPECT(seen > 0, "late replace: RTP 77 in the trace %.2f ms after write() returned (polling the file)",
         (seen - written) / 1000);
  double sim_77 = 0, sim_100 = 0;
  for (int i = 0; i < count; i++) {
    if (writes[i].reg == 2 && writes[i].value == 77 && sim_77 == 0) sim_77 = writes[i].us;
    if (writes[i].reg == 2 && writes[i].value == 100 && sim_100 == 0) sim_100 = writes[i].us;
  }
  /* Simulated us -> host time, through the batch start (sim_100 is board tick `start`). */
  double latency = (host_at(start + (sim_77 - sim_100) * 2.0) - written) / 1000;
  printf("        by the board clock: RTP 77 written %.2f ms after write() (a %u-byte frame: %.1f ms on the wire)\n",
         latency, replace_bytes, replace_bytes * 10 / 115.2);

  /* 5. Silence: the watchdog (100 ms) stops the drive. The host's last frame is a clock query
   * left unacknowledged (an ack would be a frame too): its answer is the board time the board
   * last heard the host, so the watchdog is measured on the board's own clock. */
  receive(frames, 64, -1, 5);
  auto_ack = false;
  const uint8_t last_query[2] = {0x99, 0x99};
  send_message(MSG_CLOCK_QUERY, last_query, 2);
  double last_frame = last_write_us;
  n = receive(frames, 64, MSG_CLOCK, 200);
  const rx_frame_t *heard = find(frames, n, MSG_CLOCK);
  usleep(300000);
  auto_ack = true;
  count = read_trace(writes, 20000, NULL);
  double stop_us = 0;
  for (int i = 0; i < count; i++) {
    if (writes[i].us > sim_77 && writes[i].reg == 2 && writes[i].value == 0) {
      stop_us = writes[i].us;
      break;
    }
  }
  double stop_ticks = start + (stop_us - sim_100) * 2.0; /* the trace's time on the board clock */
  double silence_board = heard ? (stop_ticks - (double)le64(heard->payload + 2)) / 2000.0 : -1;
  double silence_wall = (host_at(stop_ticks) - last_frame) / 1000;
  /* The clock answer is stamped when it is built, after the query was handled: up to ~0.2 ms
   * after the board's time of receipt, from which the watchdog counts. */
  EXPECT(stop_us > 0 && silence_board > 99.75 && silence_board < 100.5,
         "watchdog: RTP 0 %.2f ms (board clock) after the board last heard the host; %.1f ms after our last "
         "write() by the clock sync",
         silence_board, silence_wall);
  /* The host speaks again: the first status says fired, the next one idle. */
  receive(frames, 64, -1, 5);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  n = receive(frames, 64, MSG_STATUS, 500);
  const rx_frame_t *status = find(frames, n, MSG_STATUS);
  EXPECT(status && status->payload[4] == 2, "status after the silence: watchdog fired (%d), faults 0x%02X",
         status ? status->payload[4] : -1, status ? status->payload[5] : 0xFF);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  n = receive(frames, 64, MSG_STATUS, 500);
  status = find(frames, n, MSG_STATUS);
  EXPECT(status && status->payload[4] == 0 && le16(status->payload + 6) == 0,
         "next status: watchdog idle (%d), bad frames %u",
         status ? status->payload[4] : -1, status ? le16(status->payload + 6) : 0);

  /* 6. Calibration through the DRV2605L model (about 1 s). */
  const uint8_t channel = 0;
  double calibrate_sent = now_us();
  send_message(MSG_CALIBRATE, &channel, 1);
  const rx_frame_t *result = NULL;
  for (int i = 0; i < 30 && !result; i++) {
    n = receive(frames, 64, MSG_CALIBRATION_RESULT, 100);
    result = find(frames, n, MSG_CALIBRATION_RESULT);
    if (!result) send_message(MSG_HEARTBEAT, NULL, 0);
  }
  EXPECT(result && result->payload[1] == 1 && le16(result->payload + 2) == 1751,
         "calibration result after %.0f ms: succeeded %d, f0 %.1f Hz, comp 0x%02X, back-EMF 0x%02X",
         result ? (result->time - calibrate_sent) / 1000 : 0, result ? result->payload[1] : -1,
         result ? le16(result->payload + 2) / 10.0 : 0, result ? result->payload[4] : 0, result ? result->payload[5] : 0);

  /* 7. v1.1: the measured f0 and the serial, across a power cycle. */
  check_identity(child, frames);

  /* 8. SIGINT: a clean exit, the link removed. */
  close(fd);
  int exit_status = stop_emulator(child);
  EXPECT(exit_status == 0, "SIGINT: exit status %d", exit_status);
  struct stat st;
  EXPECT(lstat(link, &st) != 0, "--link removed on exit");
  printf("emulator log (%s):\n", log);
  FILE *l = fopen(log, "r");
  char line[512];
  while (l && fgets(line, sizeof line, l)) {
    if (strncmp(line, "hapticctl-emu-uno:", 18) == 0) printf("  %s", line);
  }
  if (l) fclose(l);

  check_without_chip(argv[1], argv[2], argv[3]);
  printf("%s\n", failures ? "make check: FAILED" : "make check: all checks passed");
  return failures ? 1 : 0;
}
