/// How the domain's records look to scenarios and to the control API: each record's fields, once. The vendors'
/// REST replies add their own fields to these in one place per flavour (`BackendlessWire`, `KiiWire` in the
/// HTTP module).

extension UserStatus {
    /// The raw value as a literal, so writers can skip copying it.
    package var literal: StaticString {
        switch self {
        case .enabled: return "ENABLED"
        case .disabled: return "DISABLED"
        case .emailConfirmationPending: return "EMAIL_CONFIRMATION_PENDING"
        case .guest: return "GUEST"
        }
    }
}

extension BackendlessUser: Presentable {
    /// Every stored property except the password, then `objectId`, `userStatus`, `created` (ms),
    /// `socialAccount` and `___class`.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        for property in properties { writer.write(dynamic: property.name, property.value) }
        writer.write("objectId", identifier: identifier)
        writer.write("userStatus", literal: status.literal)
        writer.write("created", created)
        if isSocial { writer.write("socialAccount", socialAccount) } else { writer.write("socialAccount", literal: "BACKENDLESS") }
        writer.write("___class", literal: "Users")
    }
}

extension BackendlessSession: Presentable {
    /// `{ user, token }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("user", record: user)
        writer.write("token", token)
    }
}

extension DeviceRegistration: Presentable {
    /// `{ registrationId, channels = { [channel] = registration id }, device_id, token, os, os_version?,
    /// expiration? }` (expiration in seconds on the virtual clock).
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("registrationId", registrationID)
        writer.write("channels", pairs: channels.map { ($0.name, $0.registrationID) })
        writer.write("device_id", deviceID)
        writer.write("token", token)
        writer.write("os", literal: os == .ios ? "IOS" : "ANDROID")
        writer.write("os_version", osVersion)
        writer.write("expiration", expiration)
    }
}

extension KiiUser: Presentable {
    /// `{ userID, loginName?, emailAddress?, phoneNumber?, country?, pendingEmailAddress?, pendingPhoneNumber?,
    /// token?, emailAddressVerified, phoneNumberVerified, displayName?, locale?, disabled, hasPassword, ...custom
    /// fields }`:
    /// absent ones are left out.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("userID", userID)
        if let loginName { writer.write("loginName", loginName) }
        if let emailAddress { writer.write("emailAddress", emailAddress) }
        if let phoneNumber { writer.write("phoneNumber", phoneNumber) }
        if let country { writer.write("country", country) }
        if let pendingEmailAddress { writer.write("pendingEmailAddress", pendingEmailAddress) }
        if let pendingPhoneNumber { writer.write("pendingPhoneNumber", pendingPhoneNumber) }
        if let token { writer.write("token", token) }
        writer.write("emailAddressVerified", emailAddressVerified)
        writer.write("phoneNumberVerified", phoneNumberVerified)
        if let displayName { writer.write("displayName", displayName) }
        if let locale { writer.write("locale", locale) }
        writer.write("disabled", disabled)
        writer.write("hasPassword", hasPassword)
        var accounts: [String: Value] = [:]
        for account in thirdPartyAccounts {
            let seconds = Double(account.createdAt) / 1000
            accounts[account.provider.rawValue] = .object([
                "id": .string(account.id), "type": .string(account.provider.rawValue),
                "createdAt": seconds == seconds.rounded() ? .int(account.createdAt / 1000) : .double(seconds),
            ])
        }
        writer.write(dynamic: "thirdPartyAccounts", .object(accounts))
        for field in customFields { writer.write(dynamic: field.name, field.value) }
    }
}

extension KiiSession: Presentable {
    /// `{ user, token }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("user", record: user)
        writer.write("token", token)
    }
}

extension JournalEntry: Presentable {
    /// `{ seq, method, path, query, flavour, app_id, op, body, json, status, code, time, delay_ms,
    /// connection_dropped, test, fault }`; absent values are null; `fault` is `{ id, effect }`.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("seq", Int64(sequence))
        writer.write("method", method)
        writer.write("path", path)
        writer.write("query", query)
        writer.write("flavour", flavour)
        writer.write("app_id", appID)
        writer.write("op", operation)
        writer.write("body", body)
        if let json { writer.write("json", value: json) } else { writer.write("json", null: ()) }
        writer.write("status", Int64(status))
        if let code { writer.write("code", value: code) } else { writer.write("code", null: ()) }
        writer.write("time", time)
        writer.write("delay_ms", Int64(delayMilliseconds))
        writer.write("connection_dropped", connectionDropped)
        writer.write("test", test)
        if let fault {
            var mark: [String: Value] = ["effect": .string(fault.effect)]
            if let id = fault.id { mark["id"] = .int(Int64(id)) }
            writer.write("fault", value: .object(mark))
        } else {
            writer.write("fault", null: ())
        }
    }
}

extension Fault: Presentable {
    /// `{ id, op, code, message, status, hits, remaining, probability, delay_ms, drop, reset, reply, after_commit,
    /// from, until, conditional }`; `delay_ms` is `{ min, max }` for a drawn delay; `conditional` is true for a
    /// fault with a `when` predicate.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("id", Int64(id))
        writer.write("op", operation)
        switch code {
        case .number(let number)?: writer.write("code", Int64(number))
        case .text(let text)?: writer.write("code", text)
        case nil: writer.write("code", null: ())
        }
        writer.write("message", message)
        writer.write("status", status.map(Int64.init))
        writer.write("hits", Int64(hits))
        writer.write("remaining", remaining.map(Int64.init))
        writer.write("probability", probability)
        if let delayRange {
            writer.write("delay_ms", value: .array([.int(Int64(delayRange.lowerBound)), .int(Int64(delayRange.upperBound))]))
        } else {
            writer.write("delay_ms", Int64(delayMilliseconds))
        }
        writer.write("drop", dropConnection)
        writer.write("reset", resetConnection)
        writer.write("reply", replyFault?.rawValue)
        writer.write("after_commit", afterCommit)
        writer.write("from", from)
        writer.write("until", until)
        writer.write("conditional", condition != nil)
    }
}

// MARK: Errors

extension BackendlessError: Presentable {
    /// `{ code, message }`: a scenario's `err` table, and the start of the HTTP reply body.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("code", Int64(code))
        writer.write("message", message)
        if let retryAfter { writer.write("retry_after", Int64(retryAfter)) }
    }
}

extension KiiError: Presentable {
    /// `{ status, code, message, field?, value? }`: a scenario's `err` table. (The HTTP reply is Kii's wire shape,
    /// whose names differ: `errorCode`, no `status`.)
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("status", Int64(status))
        writer.write("code", code)
        writer.write("message", message)
        if let field { writer.write("field", field) }
        if let value { writer.write("value", value) }
        if let retryAfter { writer.write("retry_after", Int64(retryAfter)) }
    }
}
