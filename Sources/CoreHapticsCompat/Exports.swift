// `import CoreHaptics` on Apple's systems brings Foundation with it (the framework's module
// re-exports it): code written for it uses `URL`, `Date`, `TimeInterval`, `NSError` and
// Core Graphics' geometry types without importing Foundation itself. So does this module:
// porting such code changes exactly one line, the import.
@_exported public import Foundation
