# uno.mk — the build every ATmega328P (Arduino Uno) board shares: the portable protocol core
# (src/: COBS, CRC, frames, wire, link, queues, board loop), the Uno HAL (hal_avr_*.c, one
# peripheral per file, and main_avr.c), the host-test harness (test/: a fake HAL on a virtual
# clock, a minimal host, batches, shared checks) and the core's own host tests (test/test_*.c).
# A board's Makefile sets these, then includes this file:
#
#   TARGET_NAME     the image's name: build/$(TARGET_NAME).elf and .hex
#   DRIVER_SRC      the board's portable driver back end (driver.h), host-tested: src/...
#   DRIVER_AVR_SRC  its AVR-only part (timers, interrupts), if any
#   DRIVER_PARTS    the core's optional back-end parts it uses: unstaged (src/driver_unstaged.c:
#                   driver.h's staging for a back end that stages nothing), or nothing
#   HAL_PERIPHERALS the optional HAL parts its back end uses: i2c (hal_avr_i2c.c), or nothing
#   TEST_SRC        the board's host tests (test/...; one of them defines fake_board_reset)
#
# and gets: all (image + avr-size), size, test, clean. `make test` builds and runs two programs:
# build/core-tests, the core's tests on this board's configuration (its board_config.h) with a
# test back end (test/fake_driver.c, staging nothing: src/driver_unstaged.c) in place of its
# driver, then build/host-tests, the board's own tests of its back end through the core. The
# board's src/ comes first on the include path (its board_config.h), then the core's.

MCU     := atmega328p
F_CPU   := 16000000UL
BUILD   := build
TARGET  := $(BUILD)/$(TARGET_NAME)
CORE    := $(dir $(lastword $(MAKEFILE_LIST)))
CORE_DIR := $(CORE)src
CORE_TEST_DIR := $(CORE)test

AVR_CC      := avr-gcc
AVR_OBJCOPY := avr-objcopy
AVR_SIZE    := avr-size
HOST_CC     ?= cc

# The portable core: no AVR headers (crc16.c uses util/crc16.h, hal.h avr/pgmspace.h under
# __AVR__ only).
CORE_SRC := $(addprefix $(CORE_DIR)/,cobs.c crc16.c frame.c wire.c link.c queue.c playback.c board.c)
DRIVER_PARTS_SRC := $(addprefix $(CORE_DIR)/driver_,$(addsuffix .c,$(DRIVER_PARTS)))
PORTABLE_SRC := $(CORE_SRC) $(DRIVER_PARTS_SRC) $(DRIVER_SRC)
# The ATmega328P HAL: what every board uses, and the parts its back end asks for.
HAL_AVR_SRC := $(addprefix $(CORE_DIR)/hal_avr_,system.c clock.c uart.c eeprom.c $(addsuffix .c,$(HAL_PERIPHERALS)))
AVR_SRC  := $(PORTABLE_SRC) $(DRIVER_AVR_SRC) $(HAL_AVR_SRC) $(CORE_DIR)/main_avr.c
# The host-test harness, the core's tests (on the test back end) and the board's tests.
HARNESS_SRC := $(addprefix $(CORE_TEST_DIR)/,fake_hal.c host.c batch.c expect.c test_run.c)
CORE_TEST_SRC := $(CORE_SRC) $(CORE_DIR)/driver_unstaged.c $(HARNESS_SRC) \
                 $(addprefix $(CORE_TEST_DIR)/,fake_driver.c test_core_main.c \
                 test_wire.c test_vectors.c test_link.c test_playback.c test_board.c test_requests.c \
                 test_identity.c)
HOST_SRC := $(PORTABLE_SRC) $(HARNESS_SRC) $(TEST_SRC)
HEADERS  := $(wildcard src/*.h) $(wildcard $(CORE_DIR)/*.h)
TEST_HEADERS := $(wildcard test/*.h) $(wildcard $(CORE_TEST_DIR)/*.h)

WARN       := -std=c11 -Wall -Wextra -Werror
INCLUDES   := -Isrc -I$(CORE_DIR)
TEST_INCLUDES := $(INCLUDES) -Itest -I$(CORE_TEST_DIR)
AVR_CFLAGS := -mmcu=$(MCU) -DF_CPU=$(F_CPU) -Os $(WARN) -ffunction-sections -fdata-sections \
              -fno-strict-aliasing $(INCLUDES)
AVR_LDFLAGS := -mmcu=$(MCU) -Wl,--gc-sections
# Tests leave trailing fields of their tables to C's zero-fill (seg_spec_t's frequencies).
HOST_TEST_CFLAGS := $(WARN) -Wno-missing-field-initializers -O1 -g -fsanitize=address,undefined \
                    -fno-omit-frame-pointer -fno-sanitize-recover=all
HOST_CFLAGS := $(HOST_TEST_CFLAGS) $(TEST_INCLUDES)
# The core's tests see the board's src/ (board_config.h) and the core, not the board's tests.
CORE_TEST_CFLAGS := $(HOST_TEST_CFLAGS) $(INCLUDES) -I$(CORE_TEST_DIR)
PROTOCOL_DOC := $(CORE)../../docs/protocol.md

AVR_OBJ := $(addprefix $(BUILD)/avr/,$(notdir $(AVR_SRC:.c=.o)))
vpath %.c src $(CORE_DIR)

.PHONY: all size test clean

all: $(TARGET).hex
	$(AVR_SIZE) $(TARGET).elf

# Every output is written under a name of its own (.PID) and renamed: two makes at once (flash
# or emulate while a test builds) never read each other's half-written files.
$(BUILD)/avr/%.o: %.c $(HEADERS) | $(BUILD)/avr
	$(AVR_CC) $(AVR_CFLAGS) -c $< -o $@.$$$$ && mv $@.$$$$ $@

$(TARGET).elf: $(AVR_OBJ)
	$(AVR_CC) $(AVR_LDFLAGS) $^ -o $@.$$$$ && mv $@.$$$$ $@

$(TARGET).hex: $(TARGET).elf
	$(AVR_OBJCOPY) -O ihex -R .eeprom $< $@.$$$$ && mv $@.$$$$ $@

size: $(TARGET).elf
	$(AVR_SIZE) -C --mcu=$(MCU) $<

$(BUILD)/core-tests: $(CORE_TEST_SRC) $(HEADERS) $(wildcard $(CORE_TEST_DIR)/*.h) | $(BUILD)
	$(HOST_CC) $(CORE_TEST_CFLAGS) $(CORE_TEST_SRC) -o $@.$$$$ -lm && mv $@.$$$$ $@

$(BUILD)/host-tests: $(HOST_SRC) $(HEADERS) $(TEST_HEADERS) | $(BUILD)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_SRC) -o $@.$$$$ -lm && mv $@.$$$$ $@

test: $(BUILD)/core-tests $(BUILD)/host-tests
	./$(BUILD)/core-tests $(PROTOCOL_DOC)
	./$(BUILD)/host-tests $(PROTOCOL_DOC)

$(BUILD) $(BUILD)/avr:
	mkdir -p $@

clean:
	rm -rf $(BUILD)
