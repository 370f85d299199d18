#!/usr/bin/env bash
# Installs hapticctl under a prefix (default /usr/local) so that it works from any folder:
#
#   PREFIX/bin/hapticctl                                 the release build (or --binary PATH)
#   PREFIX/share/hapticctl/Boards/                       board files, firmware and emulator
#                                                        sources, images prebuilt by make
#   PREFIX/share/hapticctl/docs/                         boards.md, protocol.md (linked from them)
#   PREFIX/share/man/man1/hapticctl.1                    man page (argument-parser's plugin)
#   PREFIX/share/bash-completion/completions/hapticctl   completions, from the installed binary
#   PREFIX/share/zsh/site-functions/_hapticctl
#   PREFIX/share/fish/vendor_completions.d/hapticctl.fish
#
# hapticctl finds PREFIX/share/hapticctl/Boards beside its own executable (or through
# $HAPTICCTL_DATA_DIR/Boards). Safe to re-run: every file is replaced, the board data is copied
# afresh and rebuilt. Swift builds run as the calling user; when PREFIX is not writable the
# install steps (only they) run through sudo.
set -euo pipefail
umask 022

usage() {
  cat <<'EOF'
Usage: Scripts/install.sh [--prefix DIR] [--binary PATH] [--man FILE | --no-man]
       Scripts/install.sh --uninstall [--prefix DIR]

Installs hapticctl, its board data (firmware and emulator sources with prebuilt images), a man
page and shell completions under DIR (default /usr/local).

  --prefix DIR    install under DIR: DIR/bin, DIR/share/hapticctl, DIR/share/man, ...
  --binary PATH   install this hapticctl instead of building one (Scripts/build-release.sh:
                  release, the Swift runtime linked in)
  --man FILE      install FILE as the man page instead of generating it
  --no-man        install no man page
  --uninstall     remove what an install under DIR put there
  -h, --help      show this help

The man page comes from swift-argument-parser's generate-manual tool, built beside hapticctl
and run on the installed program; with --binary it is generated only when that tool was already
built (a previous install without --binary), else pass --man FILE or it is skipped.
The firmware images and emulators are built with make (avr-gcc, simavr: Scripts/install-system-
deps.sh); without them the install goes on, and flash/emulate build them on first use.
EOF
}

usage_error() {
  echo "install.sh: $1" >&2
  echo "Usage: Scripts/install.sh [--prefix DIR] [--binary PATH] [--man FILE | --no-man] [--uninstall] (--help: more)" >&2
  exit 2
}

prefix=/usr/local
binary=""
man_source=""
no_man=0
uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --prefix | --binary | --man)
      [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
      case "$1" in --prefix) prefix="$2" ;; --binary) binary="$2" ;; --man) man_source="$2" ;; esac
      shift 2 ;;
    --prefix=?*) prefix="${1#--prefix=}"; shift ;;
    --binary=?*) binary="${1#--binary=}"; shift ;;
    --man=?*) man_source="${1#--man=}"; shift ;;
    --no-man) no_man=1; shift ;;
    --uninstall) uninstall=1; shift ;;
    *) usage_error "unknown option or argument '$1'" ;;
  esac
done
[ -z "$man_source" ] || [ "$no_man" -eq 0 ] || usage_error "--man and --no-man exclude each other"
if [ "$uninstall" -eq 1 ] && { [ -n "$binary" ] || [ -n "$man_source" ] || [ "$no_man" -eq 1 ]; }; then
  usage_error "--uninstall takes only --prefix"
fi

# Paths given relative to the caller's folder, before moving to the checkout.
absolute() {
  local path="$1" dir
  case "$path" in /*) ;; *) path="$PWD/$path" ;; esac
  if [ -d "$path" ]; then (CDPATH='' cd "$path" && pwd); return; fi
  dir="$(dirname "$path")"
  if [ -d "$dir" ]; then
    printf '%s/%s\n' "$(CDPATH='' cd "$dir" && pwd)" "$(basename "$path")"
  else
    printf '%s\n' "$path"
  fi
}
prefix="$(absolute "$prefix")"
prefix="${prefix%/}"
[ -n "$prefix" ] || usage_error "--prefix / is not supported"
[ -z "$binary" ] || binary="$(absolute "$binary")"
[ -z "$man_source" ] || man_source="$(absolute "$man_source")"
if [ -n "$binary" ] && { [ ! -f "$binary" ] || [ ! -x "$binary" ]; }; then
  echo "error: --binary $binary: no such executable" >&2
  exit 1
fi
if [ -n "$man_source" ] && [ ! -f "$man_source" ]; then
  echo "error: --man $man_source: no such file" >&2
  exit 1
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

bin_dir="$prefix/bin"
data_dir="$prefix/share/hapticctl"
boards_dir="$data_dir/Boards"
man_file="$prefix/share/man/man1/hapticctl.1"
bash_file="$prefix/share/bash-completion/completions/hapticctl"
zsh_file="$prefix/share/zsh/site-functions/_hapticctl"
fish_file="$prefix/share/fish/vendor_completions.d/hapticctl.fish"

# sudo for the install steps only, when DIR (or the nearest existing folder above it, or its
# bin/ or share/) is not writable and this is not root.
writable() {
  local path="$1"
  while [ ! -e "$path" ]; do path="$(dirname "$path")"; done
  [ -w "$path" ]
}
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  for path in "$prefix" "$bin_dir" "$prefix/share"; do
    if ! writable "$path"; then sudo_cmd=sudo; fi
  done
  if [ -n "$sudo_cmd" ] && ! command -v sudo >/dev/null; then
    echo "error: cannot write to $prefix and sudo is not installed: run as root or pass --prefix \"\$HOME/.local\"" >&2
    exit 1
  fi
fi
as_root() { if [ -n "$sudo_cmd" ]; then sudo -- "$@"; else "$@"; fi; }

scratch="$(mktemp -d "${TMPDIR:-/tmp}/hapticctl-install.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

if [ "$uninstall" -eq 1 ]; then
  for file in "$bin_dir/hapticctl" "$man_file" "$bash_file" "$zsh_file" "$fish_file"; do
    if [ -e "$file" ] || [ -L "$file" ]; then as_root rm -f "$file"; echo "removed $file"; fi
  done
  if [ -d "$data_dir" ]; then as_root rm -rf "$data_dir"; echo "removed $data_dir"; fi
  echo "hapticctl uninstalled from $prefix"
  exit 0
fi

problems=0
problem() { echo "install.sh: $1" >&2; problems=$((problems + 1)); }

# 1. The program.
built=0
if [ -z "$binary" ]; then
  if [ "$(id -u)" -eq 0 ] && [ "$(stat -c %u "$root")" -ne 0 ]; then
    echo "error: this checkout belongs to another user: run Scripts/install.sh as that user, without sudo (it builds" >&2
    echo "       as you and uses sudo for the install steps only; a build as root leaves root-owned files in .build)," >&2
    echo "       or pass --binary PATH" >&2
    exit 1
  fi
  command -v swift >/dev/null || { echo "error: swift is not on PATH (Swift 6.1 or newer; or pass --binary PATH)" >&2; exit 1; }
  echo "Building hapticctl (release, the Swift runtime linked in)..."
  binary="$(bash "$root/Scripts/build-release.sh" hapticctl)"
  built=1
fi
if [ -n "$sudo_cmd" ]; then echo "$prefix is not writable: installing with sudo"; fi
as_root mkdir -p "$bin_dir"
if [ ! "$binary" -ef "$bin_dir/hapticctl" ]; then
  # A new file renamed over the old one: a running hapticctl keeps its own.
  as_root install -m 755 "$binary" "$bin_dir/.hapticctl.new.$$"
  as_root mv -f "$bin_dir/.hapticctl.new.$$" "$bin_dir/hapticctl"
fi
echo "installed $bin_dir/hapticctl (from $binary)"

# 2. The board data: sources only (no build/ folders, objects, images or fuzzer files from the
# checkout), copied afresh, then built in place.
as_root rm -rf "$boards_dir"
as_root mkdir -p "$boards_dir" "$data_dir/docs"
tar -C "$root/Boards" -cf - --exclude=build --exclude='*.o' --exclude='*.elf' --exclude='*.hex' \
  --exclude='fuzz-*.log' --exclude='crash-*' --exclude='leak-*' --exclude='timeout-*' --exclude='oom-*' \
  --exclude='slow-unit-*' . | as_root tar -C "$boards_dir" -x -m --no-same-owner -f -
for doc in boards.md protocol.md; do
  as_root install -m 644 "$root/docs/$doc" "$data_dir/docs/$doc"
done
echo "installed $boards_dir (board files, firmware-core, firmware and emulator sources) and $data_dir/docs"

missing=()
for tool in make avr-gcc avr-objcopy avr-size; do command -v "$tool" >/dev/null || missing+=("$tool"); done
emulator_missing=()
command -v cc >/dev/null || emulator_missing+=("cc")
if ! command -v pkg-config >/dev/null || ! pkg-config --exists simavr simavrparts 2>/dev/null; then
  emulator_missing+=("simavr (pkg-config simavr simavrparts)")
fi
optiboot=/usr/share/arduino/hardware/arduino/avr/bootloaders/optiboot/optiboot.c
[ -f "$optiboot" ] || emulator_missing+=("Optiboot's source (arduino-core-avr)")
# make -C FOLDER ARGS…, its output in a log shown on failure.
build() {
  local what="$1" log
  shift
  log="$scratch/make-$(echo "$what" | tr ' /' '__').log"
  if as_root make "$@" >"$log" 2>&1; then
    echo "built $what (make $*)"
  else
    tail -n 30 "$log" >&2
    problem "building $what failed (make $*; its last lines are above)"
  fi
}
if [ ${#missing[@]} -gt 0 ]; then
  echo "note: ${missing[*]} not found: the firmware images and emulators are not prebuilt; flash and emulate build"
  echo "      them on first use (in $boards_dir: that needs write access there) or say what is missing."
  echo "      Scripts/install-system-deps.sh installs the toolchain; then run this script again."
else
  firmware_boards=()
  for makefile in "$boards_dir"/*/firmware/Makefile; do
    [ -f "$makefile" ] || continue
    board="$(basename "$(dirname "$(dirname "$makefile")")")"
    firmware_boards+=("$board")
    build "the $board firmware" -C "$boards_dir/$board/firmware"
  done
  if [ ${#emulator_missing[@]} -gt 0 ]; then
    echo "note: ${emulator_missing[*]} not found: the emulators are not prebuilt; emulate builds them on first use"
    echo "      (in $boards_dir/uno-emulator: that needs write access there) or says what is missing."
  elif [ -f "$boards_dir/uno-emulator/Makefile" ]; then
    for board in "${firmware_boards[@]}"; do
      # The boards whose emulator the Makefile models (its MODEL_SRC_<board>).
      grep -q "^MODEL_SRC_$board " "$boards_dir/uno-emulator/Makefile" || continue
      build "the $board emulator" -C "$boards_dir/uno-emulator" "BOARD=$board"
    done
  fi
fi

# 3. The man page.
man_tool=""
if [ -n "$man_source" ]; then
  : # --man FILE, checked above
elif [ "$no_man" -eq 1 ]; then
  echo "man page: skipped (--no-man)"
elif [ "$built" -eq 1 ]; then
  echo "Generating the man page (swift-argument-parser's generate-manual)..."
  if man_tool="$(bash "$root/Scripts/build-release.sh" generate-manual)" \
    && "$man_tool" "$bin_dir/hapticctl" --output-directory "$scratch" && [ -f "$scratch/hapticctl.1" ]; then
    man_source="$scratch/hapticctl.1"
  else
    man_tool=""
    problem "generate-manual failed: no man page installed (pass --man FILE, or --no-man)"
  fi
else
  # --binary: the plugin's tool, if a previous install built it, reads the binary's help.
  man_tool="$(find "$root/.build-release" "$root/.build" -name generate-manual -type f -perm -u+x 2>/dev/null | head -n 1 || true)"
  if [ -n "$man_tool" ] && "$man_tool" "$bin_dir/hapticctl" --output-directory "$scratch" >/dev/null 2>&1 \
    && [ -f "$scratch/hapticctl.1" ]; then
    man_source="$scratch/hapticctl.1"
  else
    man_tool=""
    echo "man page: skipped (with --binary it needs --man FILE, or the generate-manual tool a previous install without --binary built)"
  fi
fi
if [ -n "$man_source" ]; then
  as_root install -D -m 644 "$man_source" "$man_file"
  echo "installed $man_file (from ${man_tool:-$man_source})"
fi

# 4. Completions, from the installed program.
for shell in bash zsh fish; do
  case "$shell" in bash) file="$bash_file" ;; zsh) file="$zsh_file" ;; fish) file="$fish_file" ;; esac
  if "$bin_dir/hapticctl" --generate-completion-script "$shell" >"$scratch/completion.$shell"; then
    as_root install -D -m 644 "$scratch/completion.$shell" "$file"
    echo "installed $file"
  else
    problem "hapticctl --generate-completion-script $shell failed"
  fi
done

case ":$PATH:" in *":$bin_dir:"*) ;; *) echo "note: $bin_dir is not on PATH: add it (export PATH=\"$bin_dir:\$PATH\")" ;; esac
echo "note: zsh finds the completions once $prefix/share/zsh/site-functions is in fpath; bash and fish look under $prefix/share when it is a system prefix or in XDG_DATA_DIRS"
if [ "$problems" -gt 0 ]; then
  echo "hapticctl installed in $prefix with $problems problem(s) (above)" >&2
  exit 1
fi
echo "hapticctl installed in $prefix (uninstall: Scripts/install.sh --uninstall --prefix $prefix)"
