internal import CLua
internal import CLuaShim
package import Understudy

/// An error code a scenario's call answered (or an app under `serve` met): which flavour, which code, and how:
/// its real trigger, an injected fault, or (over HTTP) a network fault.
package struct ProducedCode: Sendable, Hashable {
    package var flavour: Flavour
    /// A Backendless number as text (`"3033"`), a Kii `errorCode`, or a network outcome (`connection dropped`).
    package var code: String
    package var origin: CodeOrigin

    package init(flavour: Flavour, code: String, origin: CodeOrigin) {
        self.flavour = flavour
        self.code = code
        self.origin = origin
    }

    package init(flavour: Flavour, code: String, injected: Bool) {
        self.init(flavour: flavour, code: code, origin: injected ? .injected : .real)
    }

    /// True when `app.faults.inject` produced it rather than the call's real trigger.
    package var injected: Bool { origin == .injected }
}

/// An error that can say which catalogued code it is.
protocol CataloguedError {
    var flavour: Flavour { get }
    var catalogueCode: String { get }
}

extension BackendlessError: CataloguedError {
    var flavour: Flavour { .backendless }
    var catalogueCode: String { String(code) }
}

extension KiiError: CataloguedError {
    var flavour: Flavour { .kii }
    var catalogueCode: String { code }
}

extension LuaCall {
    /// Counts the code of an error handed to Lua, as produced by an injected fault when one fired in this call.
    func recordProduced(_ error: some LuaPresentable) {
        guard let error = error as? any CataloguedError else { return }
        let handle = Int64(us_tointeger(L, us_upvalueindex(2), nil))
        let injected = host.app(handle)?.faults.lastFired?.code != nil
        host.producedCodes[ProducedCode(flavour: error.flavour, code: error.catalogueCode, injected: injected), default: 0] += 1
    }
}
