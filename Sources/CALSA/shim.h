#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* alsa-lib prints every failed configuration lookup to stderr (a machine without a sound card
   prints a dozen lines for one failed snd_pcm_open of "default"). hapticctl reports the
   failure itself, with the device name and snd_strerror, so the library's printer is replaced
   by one that prints nothing. Variadic, so it lives here in C rather than in Swift. */
static void calsa_quiet_error(const char *file, int line, const char *function, int err,
                              const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void calsa_silence_library_errors(void) {
  snd_lib_error_set_handler(calsa_quiet_error);
}
#endif
