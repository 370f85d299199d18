import ArgumentParser
import HapticCLI

Hapticctl.main()
