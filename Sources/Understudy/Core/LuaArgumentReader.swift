/// A named way the Lua adapter (`OperationAdapter`) reads an argument, where reading it as its declared type is
/// not all a scenario's table may hold: the Lua counterpart of a route's `ArgumentResolver`. An argument names its
/// reader in its declaration (`ArgumentDeclaration.readInLua(by:)`); the bridge implements each reader once, and the
/// call is performed by the declaration's domain method like any other. Misuse names the offending field
/// (`registration.os must be "IOS" or "ANDROID", got "ios"`).
package enum LuaArgumentReader: Sendable, Hashable {
    /// Backendless `devices.register{...}`: the declared fields, `os` named as one of its two values.
    case backendlessDeviceRegistration
    /// Backendless `push.publish{...}` as a `PushRequest`: `broadcast` as `"ALL"` or names, times in seconds, a
    /// whole `repeat_every` also as a float (`3600 / 60`).
    case backendlessPublication
    /// Backendless `users.login_oauth`'s options as `OAuthLoginOptions` (`fields_mapping` a table of strings).
    case backendlessOAuthOptions
    /// Backendless `oauth.account{...}` as an `OAuthAccount` (`profile` a table of strings with an id).
    case backendlessOAuthAccount
    /// Backendless `push.templates.define{...}` as a `PushTemplate`.
    case backendlessPushTemplate
    /// `understudy.journal.*`'s filter as a `JournalFilter` (raising first, outside `understudy serve`, that the
    /// journal exists only there).
    case journalFilter
}

extension OAuthAccount: TypedArgument {
    package var faultValue: Value {
        var object: [String: Value] = ["provider": .string(provider), "token": .string(token), "profile": Value(properties: profile)]
        if let secret { object["secret"] = .string(secret) }
        return .object(object)
    }
}

extension JournalFilter: TypedArgument {
    package var faultValue: Value { .null }
}

extension PushTemplate: TypedArgument {
    package var faultValue: Value { value }
}
