internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy._known_code(code)` (taken by the prelude for `expect.error`): whether any backend answers `code` (a
/// Backendless number, a Kii errorCode or a Kii HTTP status), and otherwise the nearest code.
enum KnownCodes {
    static let numbers: Set<Int> = Set(ErrorCatalogue.all.compactMap(\.number))
        .union(ErrorCatalogue.entries(of: .kii).map(\.status))
    static let names: [String] = ErrorCatalogue.entries(of: .kii).map(\.code)
    static let namesUppercased: Set<String> = Set(names.map { $0.uppercased() })

    static func isKnown(_ code: String) -> Bool {
        if let number = Int(code) { return numbers.contains(number) }
        return namesUppercased.contains(code.uppercased())
    }

    static func nearest(to code: String) -> String? {
        if Int(code) != nil {
            return NearestName.to(code, among: numbers.sorted().map(String.init))
        }
        return NearestName.to(code, among: names).map { "\"\($0)\"" }
    }

    static let check: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        let code: String
        switch lua_type(L, 1) {
        case LUA_TNUMBER:
            guard lua_isinteger(L, 1) != 0 || us_tonumber(L, 1, nil) == us_tonumber(L, 1, nil).rounded() else {
                lua_pushboolean(L, 0)
                return 1
            }
            code = String(Int64(us_tonumber(L, 1, nil)))
        case LUA_TSTRING: code = LuaValues.string(L, at: 1) ?? ""
        default:
            lua_pushboolean(L, 0)
            return 1
        }
        if isKnown(code) {
            lua_pushboolean(L, 1)
            return 1
        }
        lua_pushboolean(L, 0)
        guard let suggestion = nearest(to: code) else { return 1 }
        LuaValues.push(L, suggestion)
        return 2
    }
}
