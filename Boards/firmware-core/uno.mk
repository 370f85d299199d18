# uno.mk — the build every ATmega328P (Arduino Uno) board shares: the portable protocol core
# (src/: COBS, CRC, frames, wire, link, queues, board loop), the Uno HAL (hal_avr.c, main_avr.c)
# and the host-test harness (test/: a fake HAL on a virtual clock, a minimal host). A board's
# Makefile sets these, then includes this file:
#
#   TARGET_NAME   the image's name: build/$(TARGET_NAME).elf and .hex
#   DRIVER_SRC    the board's portable driver back end (driver.h), host-tested: src/...
#   DRIVER_AVR_SRC  its AVR-only part (timers, interrupts), if any
#   TEST_SRC      the board's host tests (test/...), run by `make test`
#
# and gets: all (image + avr-size), size, test, clean. The board's src/ comes first on the
# include path (its board_config.h), then the core's.

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

# The portable core: no AVR headers (crc16.c uses util/crc16.h under __AVR__ only).
CORE_SRC := $(addprefix $(CORE_DIR)/,cobs.c crc16.c frame.c wire.c link.c queue.c playback.c board.c)
PORTABLE_SRC := $(CORE_SRC) $(DRIVER_SRC)
AVR_SRC  := $(PORTABLE_SRC) $(DRIVER_AVR_SRC) $(CORE_DIR)/hal_avr.c $(CORE_DIR)/main_avr.c
HOST_SRC := $(PORTABLE_SRC) $(addprefix $(CORE_TEST_DIR)/,fake_hal.c host.c batch.c test_run.c) $(TEST_SRC)
HEADERS  := $(wildcard src/*.h) $(wildcard $(CORE_DIR)/*.h)
TEST_HEADERS := $(wildcard test/*.h) $(wildcard $(CORE_TEST_DIR)/*.h)

WARN       := -std=c11 -Wall -Wextra -Werror
INCLUDES   := -Isrc -I$(CORE_DIR)
TEST_INCLUDES := $(INCLUDES) -Itest -I$(CORE_TEST_DIR)
AVR_CFLAGS := -mmcu=$(MCU) -DF_CPU=$(F_CPU) -Os $(WARN) -ffunction-sections -fdata-sections \
              -fno-strict-aliasing -mcall-prologues $(INCLUDES)
AVR_LDFLAGS := -mmcu=$(MCU) -Wl,--gc-sections
# Tests leave trailing fields of their tables to C's zero-fill (seg_spec_t's frequencies).
HOST_CFLAGS := $(WARN) -Wno-missing-field-initializers -O1 -g -fsanitize=address,undefined \
               -fno-omit-frame-pointer -fno-sanitize-recover=all $(TEST_INCLUDES)
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

$(BUILD)/host-tests: $(HOST_SRC) $(HEADERS) $(TEST_HEADERS) | $(BUILD)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_SRC) -o $@.$$$$ -lm && mv $@.$$$$ $@

test: $(BUILD)/host-tests
	./$(BUILD)/host-tests $(PROTOCOL_DOC)

$(BUILD) $(BUILD)/avr:
	mkdir -p $@

clean:
	rm -rf $(BUILD)
