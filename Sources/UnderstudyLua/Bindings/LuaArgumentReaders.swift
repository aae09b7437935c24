internal import CLua
internal import CLuaShim
internal import Understudy

/// The named Lua readers (`LuaArgumentReader`) of the arguments whose declared type does not say all a scenario's
/// table may hold: each reads the table field by field, with misuse naming the field, into what the domain method
/// takes (the declared fields, or the domain's own type as the route's resolver builds it over HTTP).
extension LuaCall {
    /// `argument` at `index`, read by `reader`.
    func read(_ argument: ArgumentDeclaration, at index: Int32, by reader: LuaArgumentReader) throws(LuaMisuse) -> ArgumentValue {
        switch reader {
        case .backendlessDeviceRegistration:
            _ = try read(argument, at: index)  // a table of the declared fields
            return try deviceRegistration(index)
        case .backendlessPublication:
            _ = try read(argument, at: index)  // a table of the declared fields
            return .typed(try publication(index))
        case .backendlessOAuthOptions:
            guard case .table(let table) = try read(argument, at: index) else { return .absent }
            return .typed(try oauthOptions(table))
        case .backendlessOAuthAccount:
            _ = try read(argument, at: index)  // a table of the declared fields
            return .typed(try oauthAccount(index))
        case .backendlessPushTemplate:
            _ = try read(argument, at: index)  // a table of the declared fields
            return .typed(try pushTemplate(index))
        case .journalFilter:
            guard host.world != nil else { throw LuaMisuse(ConsoleCall.journalOnlyServed) }
            if isNil(index) { return .absent }
            return .typed(try journalFilter(index))
        }
    }

    // MARK: The journal

    /// `understudy.journal.*(filter?)`: `{ method?, path?, op?, app_id?, status?, code?, test?, limit? }`.
    private func journalFilter(_ index: Int32) throws(LuaMisuse) -> JournalFilter {
        var filter = JournalFilter()
        try table(index, "filter")
        try rejectUnknownFields(index, known: ["method", "path", "op", "app_id", "status", "code", "test", "limit"], in: "the journal filter")
        filter.method = try field(index, "method", string: "filter.method")
        filter.path = try field(index, "path", string: "filter.path")
        filter.operation = try field(index, "op", string: "filter.op")
        filter.appID = try field(index, "app_id", string: "filter.app_id")
        filter.test = try field(index, "test", string: "filter.test")
        if let status = try field(index, "status", value: "filter.status") {
            guard case .int(let number) = status else { throw LuaMisuse("filter.status must be an integer") }
            filter.status = Int(number)
        }
        filter.code = try field(index, "code", value: "filter.code")
        if let limit = try field(index, "limit", value: "filter.limit") {
            guard case .int(let number) = limit, number >= 0 else { throw LuaMisuse("filter.limit must be a whole number") }
            filter.limit = Int(number)
        }
        return filter
    }

    // MARK: Devices

    /// `devices.register{ token, device_id?, os, os_version?, channels?, expiration? }`: the declared fields.
    private func deviceRegistration(_ index: Int32) throws(LuaMisuse) -> ArgumentValue {
        guard let token = try field(index, "token", string: "registration.token") else {
            throw LuaMisuse("registration.token is required (the APNS or FCM device token)")
        }
        let deviceID = try field(index, "device_id", string: "registration.device_id")
        let osName = try field(index, "os", string: "registration.os")
        guard let osName, DeviceRegistration.OperatingSystem(rawValue: osName) != nil else {
            throw LuaMisuse("registration.os must be \"IOS\" or \"ANDROID\"\(osName.map { ", got \"\($0)\"" } ?? "")")
        }
        var fields: [String: Value] = ["token": .string(token), "os": .string(osName)]
        if let deviceID { fields["device_id"] = .string(deviceID) }
        if let osVersion = try field(index, "os_version", string: "registration.os_version") { fields["os_version"] = .string(osVersion) }
        if let channels = try field(index, "channels", strings: "registration.channels") { fields["channels"] = .array(channels.map(Value.string)) }
        if let expiration = try field(index, "expiration", value: "registration.expiration") { fields["expiration"] = expiration }
        return .value(.object(fields))
    }

    // MARK: Push

    /// `push.publish{...}` as the domain's `PushRequest`.
    private func publication(_ index: Int32) throws(LuaMisuse) -> PushRequest {
        guard let message = try field(index, "message", string: "publication.message") else {
            throw LuaMisuse("publication.message is required (a string)")
        }
        var request = PushRequest(message: message)
        request.channel = try field(index, "channel", string: "publication.channel")
        request.headers = try stringPairs(index, field: "headers", "publication.headers") ?? []
        request.broadcast = try broadcast(index)
        request.singlecast = try field(index, "singlecast", strings: "publication.singlecast")
        request.deviceIDs = try field(index, "device_ids", strings: "publication.device_ids")
        if let policy = try field(index, "policy", string: "publication.policy") {
            guard let known = PushPolicy(rawValue: policy) else {
                throw LuaMisuse("publication.policy must be \"PUSH\", \"PUBSUB\" or \"BOTH\", got \"\(policy)\"")
            }
            request.policy = known
        }
        request.publishAt = try time(index, "publish_at")
        request.repeatExpiresAt = try time(index, "repeat_expires_at")
        if let every = try field(index, "repeat_every", value: "publication.repeat_every") {
            // A whole number, also as a float (`3600 / 60` is 60.0 in Lua 5.4).
            let seconds: Double
            switch every {
            case .int(let whole): seconds = Double(whole)
            case .double(let number) where number.rounded(.down) == number: seconds = number
            default: seconds = 0
            }
            guard seconds >= 1, seconds <= VirtualClock.limit else {
                throw LuaMisuse("publication.repeat_every must be a whole number of seconds, at least 1, got \(every.luaText)")
            }
            request.repeatEvery = seconds
        } else if request.repeatExpiresAt != nil {
            throw LuaMisuse("publication.repeat_expires_at is given without repeat_every")
        }
        return request
    }

    /// `broadcast`: `"ALL"` or a list of `"IOS"`, `"ANDROID"`, `"WP"`, `"OSX"`; nil when absent.
    private func broadcast(_ index: Int32) throws(LuaMisuse) -> PushBroadcast? {
        let name = "publication.broadcast"
        let type = LuaValues.getField(L, lua_absindex(L, index), "broadcast")
        if type == LUA_TSTRING {
            let text = LuaValues.string(L, at: -1)
            us_pop(L, 1)
            guard text == "ALL" else { throw LuaMisuse("\(name) must be \"ALL\" or a list of \"IOS\", \"ANDROID\", \"WP\", \"OSX\", got \"\(text ?? "")\"") }
            return .all
        }
        us_pop(L, 1)
        guard let names = try field(index, "broadcast", strings: name) else { return nil }
        var mask: PushBroadcast = []
        for (offset, os) in names.enumerated() {
            guard PushBroadcast.names.contains(where: { $0.name == os }), let value = PushBroadcast(name: os) else {
                throw LuaMisuse("\(name)[\(offset + 1)] must be \"IOS\", \"ANDROID\", \"WP\" or \"OSX\", got \"\(os)\"")
            }
            mask.insert(value)
        }
        return mask
    }

    /// A time field of a publication (seconds on the virtual clock); nil when absent.
    private func time(_ index: Int32, _ key: StaticString) throws(LuaMisuse) -> Double? {
        guard let value = try field(index, key, value: "publication.\(key)") else { return nil }
        switch value {
        case .int(let seconds): return Double(seconds)
        case .double(let seconds): return seconds
        default: throw LuaMisuse("publication.\(key) must be a number (seconds on the virtual clock), got \(value.luaText)")
        }
    }

    /// A table of string values by string names (headers); nil when absent.
    private func stringPairs(_ index: Int32, field key: StaticString, _ name: String) throws(LuaMisuse) -> [(name: String, value: String)]? {
        guard let value = try field(index, key, value: name) else { return nil }
        switch value {
        case .object(let members):
            var pairs: [(name: String, value: String)] = []
            for (key, member) in members {
                guard case .string(let text) = member else {
                    throw LuaMisuse("\(name).\(key) must be a string, got \(member.luaText)")
                }
                pairs.append((key, text))
            }
            return pairs.sorted { $0.name < $1.name }
        case .array(let items) where items.isEmpty: return []
        default: throw LuaMisuse("\(name) must be a table of strings by name, got \(value.luaText)")
        }
    }

    /// `push.templates.define{ name, message, title?, subtitle?, headers?, os?, channel? }` as a `PushTemplate`.
    private func pushTemplate(_ index: Int32) throws(LuaMisuse) -> PushTemplate {
        guard let name = try field(index, "name", string: "template.name"), !name.isEmpty else {
            throw LuaMisuse("template.name is required (a non-empty string)")
        }
        guard let message = try field(index, "message", string: "template.message") else {
            throw LuaMisuse("template.message is required (a string)")
        }
        var os = PushTemplate.Audience.all
        if let given = try field(index, "os", string: "template.os") {
            guard let audience = PushTemplate.Audience(name: given) else {
                throw LuaMisuse("template.os must be \"ALL\", \"IOS\" or \"ANDROID\", got \"\(given)\"")
            }
            os = audience
        }
        let headers = try stringPairs(index, field: "headers", "template.headers")
        return PushTemplate(
            name: name, message: message, title: try field(index, "title", string: "template.title"),
            subtitle: try field(index, "subtitle", string: "template.subtitle"),
            headers: headers?.map { PushTemplate.Pair($0.name, $0.value) }, os: os,
            channel: try field(index, "channel", string: "template.channel") ?? DeviceRegistry.defaultChannel
        )
    }

    // MARK: OAuth

    /// `users.login_oauth`'s options table (at `table`) as `OAuthLoginOptions`.
    private func oauthOptions(_ table: Int32) throws(LuaMisuse) -> OAuthLoginOptions {
        var read = OAuthLoginOptions()
        read.guest = try field(table, "guest", string: "options.guest")
        read.secret = try field(table, "secret", string: "options.secret")
        let type = LuaValues.getField(L, table, "fields_mapping")
        if type > LUA_TNIL {
            guard type == LUA_TTABLE else {
                us_pop(L, 1)
                throw LuaMisuse("options.fields_mapping must be a table { [profile field] = property }, got \(LuaValues.typeName(L, type))")
            }
            do throws(LuaMisuse) {
                read.fieldsMapping = try stringMap(at: lua_gettop(L), "options.fields_mapping").map { OAuthFieldMapping($0.0, to: $0.1) }
            } catch {
                us_pop(L, 1)
                throw error
            }
        }
        us_pop(L, 1)
        return read
    }

    /// `oauth.account{ provider, token, secret?, profile = { id = ..., ... } }` as an `OAuthAccount`.
    private func oauthAccount(_ index: Int32) throws(LuaMisuse) -> OAuthAccount {
        guard let provider = try field(index, "provider", string: "account.provider") else {
            throw LuaMisuse("account.provider is required (the provider code the app's SDK sends, e.g. \"facebook\")")
        }
        guard let token = try field(index, "token", string: "account.token") else {
            throw LuaMisuse("account.token is required (the access token the provider accepts)")
        }
        let secret = try field(index, "secret", string: "account.secret")
        guard LuaValues.getField(L, lua_absindex(L, index), "profile") == LUA_TTABLE else {
            let found = LuaValues.typeName(L, at: -1)
            us_pop(L, 1)
            throw LuaMisuse("account.profile must be a table of strings with an id, got \(found)")
        }
        let profile = try stringMap(at: lua_gettop(L), "account.profile")
        us_pop(L, 1)
        return OAuthAccount(provider: provider, token: token, secret: secret, profile: profile.map { Property($0.0, .string($0.1)) })
    }

    /// A table of string keys and string values, sorted by key; raises naming `name` for anything else. Pops
    /// nothing: the table stays where it is.
    private func stringMap(at index: Int32, _ name: String) throws(LuaMisuse) -> [(String, String)] {
        var pairs: [(String, String)] = []
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING, let key = try? LuaValues.utf8String(L, at: -2) else {
                let found = LuaValues.typeName(L, at: -2)
                us_pop(L, 2)
                throw LuaMisuse("\(name) keys must be strings, got \(found == "string" ? "a key that is not valid UTF-8" : found)")
            }
            guard lua_type(L, -1) == LUA_TSTRING, let value = try? LuaValues.utf8String(L, at: -1) else {
                let found = LuaValues.typeName(L, at: -1)
                us_pop(L, 2)
                throw LuaMisuse("\(name).\(key) must be a string, got \(found == "string" ? "text that is not valid UTF-8" : found)")
            }
            pairs.append((key, value))
            us_pop(L, 1)
        }
        pairs.sort { $0.0 < $1.0 }
        return pairs
    }
}

extension Value {
    /// The value as a message shows it: a number or string as written, else its kind (`a table`, `a boolean`).
    fileprivate var luaText: String {
        switch self {
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .bool(let flag): return String(flag)
        case .null: return "nil"
        case .array, .object: return "a table"
        }
    }
}
