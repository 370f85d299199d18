import ArgumentParser
import Foundation
import HapticServer

/// `hapticctl studio [--open] [serve's options]` (issue 29): the board server with the studio's
/// web page, and the page's address.
struct Studio: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "studio",
    abstract: "Serve boards with the studio's web page: see a pattern, audition it, tune it live.",
    discussion: """
      Runs `hapticctl serve` with the same options and also serves the studio, a web page \
      (static HTML, CSS and JavaScript shipped with hapticctl; nothing is fetched from outside \
      the machine): open AHAP or .haptic files (dropped on the page, or from --library), see \
      their events and curves over time with what the chosen board drives and the simulated \
      acceleration, and play them on the board. Prints "listening on http://HOST:PORT", then \
      "studio: URL" (with --token the URL carries it). --open also opens the URL with xdg-open.
      """)

  @OptionGroup var serve: Serve

  @Flag(help: "Open the studio's page in the desktop's browser (xdg-open).")
  var open = false

  @Option(help: .hidden)
  var studioDir: String?

  func run() throws {
    let page: StudioPage
    do {
      page = try StudioPage(folder: studioDir)
    } catch {
      throw CLIError("studio: \(error.message)")
    }
    let token = serve.token
    let open = self.open
    try serve.serve(studio: page) { base in
      var url = base + "/studio/"
      if let token, let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
        url += "?access_token=\(encoded)"
      }
      print("studio: \(url)")
      fflush(nil)
      if open { Self.openInBrowser(url) }
    }
  }

  /// Opens `url` with xdg-open; says so on standard error when it cannot (no desktop).
  static func openInBrowser(_ url: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", url]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      printError("studio: could not run xdg-open (\(error.localizedDescription)); open \(url) in a browser")
    }
  }
}
