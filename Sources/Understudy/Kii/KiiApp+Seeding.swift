/// Bulk seeding: many verified users from one template, far cheaper than registering them one by one.
extension KiiApp {
    /// Adds `count` users from a template with the fields `username`, `email`, `phone`, `country` and
    /// `password`; every `%d` becomes the user's number (`start`, `start + 1`, ...). The first and last users
    /// pass every registration check; all are indexed (login, find and duplicates work) and verified, and none
    /// is logged in. Phone numbers are checked with libphonenumber each (about 40 µs apiece).
    /// - Returns: the number of users added.
    @discardableResult
    package func seedUsers(count: Int, template: [Property], start: Int = 1) throws(KiiError) -> Int {
        guard count > 0 else { return 0 }
        for property in template where !["username", "email", "phone", "country", "password"].contains(property.name) {
            throw .invalidInput(field: property.name, value: nil, message: "Unknown field '\(property.name)' in a Kii seeding template")
        }
        guard users.count + count <= capacity.maxUsers else { throw .capacityReached(capacity.maxUsers) }
        let expander = TemplateExpander(template)
        var sharedHash: PasswordHash?
        let created = clock.milliseconds
        users.reserveCapacity(users.count + count)
        for number in start..<(start + count) {
            let fields = expander.properties(for: number)
            let username = fields[named: "username"]?.stringValue
            let email = fields[named: "email"]?.stringValue
            let phone = fields[named: "phone"]?.stringValue
            let country = fields[named: "country"]?.stringValue
            guard let password = fields[named: "password"]?.stringValue else {
                throw .invalidInput(field: "password", value: nil, message: "The password is required")
            }
            let checkFully = number == start || number == start + count - 1
            let loginName = try username.map { name throws(KiiError) in try KiiIdentifiers.loginName(name) }
            if checkFully {
                if let email { _ = try KiiIdentifiers.emailAddress(email) }
                try KiiIdentifiers.validatePassword(password)
                guard loginName != nil || email != nil || phone != nil else { throw .noIdentifier }
            }
            var e164: String?
            var storedCountry = try country.map { code throws(KiiError) in try KiiIdentifiers.country(code) }
            if let phone {
                let parsed = try KiiIdentifiers.phoneNumber(phone, country: country, cache: &phoneCache)
                e164 = parsed.e164
                if storedCountry == nil { storedCountry = parsed.country }
            }
            if let loginName, loginNames[loginName] != nil { throw .userAlreadyExists(field: "loginName", value: loginName) }
            if let email, emails[email.asciiLowercased()] != nil { throw .userAlreadyExists(field: "emailAddress", value: email) }
            if let e164, phones[e164] != nil { throw .userAlreadyExists(field: "phoneNumber", value: e164) }

            let hash: PasswordHash
            if expander.passwordVaries {
                hash = PasswordHash(password: password, generator: &salts)
            } else if let sharedHash {
                hash = sharedHash
            } else {
                hash = PasswordHash(password: password, generator: &salts)
                sharedHash = hash
            }
            let user = KiiStoredUser(id: ids.nextIdentifier(), loginName: loginName, password: hash, created: created, changes: userChanges)
            user.country = storedCountry
            users[user.id] = user
            userBytes += HeldBytes.perUser
            registrationOrder.append(user)
            if let loginName { loginNames[loginName] = user }
            if let email {
                user.email.current = email
                emails[email.asciiLowercased()] = user
            }
            if let e164 {
                user.phone.current = e164
                phones[e164] = user
            }
        }
        return count
    }
}
