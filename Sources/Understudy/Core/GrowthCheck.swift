/// Asked before a call builds what its arguments do not bound (a template filled with the values a call gives,
/// once per recipient), with the bytes it is about to add: false refuses the call before anything is built. The
/// owner of an app installs it: the Lua bridge asks the scenario's memory cap (a refusal fails the scenario, as
/// the cap does), the server its `--max-memory` (a refusal answers 507). An app no one owns admits everything.
package typealias GrowthCheck = (_ bytes: Int) -> Bool

extension BackendlessError {
    /// 8000 (HTTP 507): a call would grow the app past its owner's memory cap; nothing was done.
    package static func memoryCapReached(_ bytes: Int) -> BackendlessError {
        BackendlessError(code: 8000, message: GrowthRefusal.message(bytes), httpStatus: 507)
    }
}

extension KiiError {
    /// 507 `MEMORY_CAP_REACHED`: a call would grow the app past its owner's memory cap; nothing was done.
    package static func memoryCapReached(_ bytes: Int) -> KiiError {
        KiiError(status: 507, code: "MEMORY_CAP_REACHED", message: GrowthRefusal.message(bytes))
    }
}

enum GrowthRefusal {
    static func message(_ bytes: Int) -> String {
        "memory cap reached: this call would add about \(max(1, bytes / (1024 * 1024))) MiB, more than the memory cap (--max-memory) leaves; nothing was done"
    }
}
