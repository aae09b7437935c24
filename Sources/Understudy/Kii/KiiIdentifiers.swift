/// The seed's identifier rules ("Limitations"): validation of usernames, email addresses, countries, phone
/// numbers and passwords, and the normalisation of phone numbers to E.164.
enum KiiIdentifiers {
    /// Username length, in characters.
    static let usernameLength = 3...64
    /// Longest email address, in characters.
    static let maxEmailLength = 200
    /// Digits after the `+` of an international phone number.
    static let internationalDigits = 10...15
    /// Password length, in characters.
    static let passwordLength = 4...50

    // MARK: Username

    /// True for 3–64 characters from `A–Z a–z 0–9 _ - .`.
    static func isUsername(_ text: String) -> Bool {
        guard usernameLength.contains(text.utf8.count) else { return false }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return true
    }

    /// The stored (lower-cased) form of a valid username; 400 `INVALID_INPUT_DATA` (field `loginName`) otherwise.
    static func loginName(_ username: String) throws(KiiError) -> String {
        guard isUsername(username) else {
            throw .invalidInput(
                field: "loginName", value: username,
                message: "loginName \(username) must be 3 to 64 characters from A-Z a-z 0-9 _ - ."
            )
        }
        return username.asciiLowercased()
    }

    // MARK: Email address

    /// True for `local@domain` of at most 200 characters: the local part from `A–Z a–z 0–9 . _ % + -`, the domain
    /// from `A–Z a–z 0–9 .`; neither empty, and (RFC 822) no part starts or ends with a period or has two in a row.
    static func isEmailAddress(_ text: String) -> Bool {
        guard text.utf8.count <= maxEmailLength else { return false }
        var inDomain = false
        var partLength = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "@"):
                guard !inDomain, partLength > 0, previous != UInt8(ascii: ".") else { return false }
                inDomain = true
                partLength = 0
                previous = byte
                continue
            case UInt8(ascii: "."):
                guard partLength > 0, previous != UInt8(ascii: ".") else { return false }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "_"), UInt8(ascii: "%"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard !inDomain else { return false }
            default:
                return false
            }
            partLength += 1
            previous = byte
        }
        return inDomain && partLength > 0 && previous != UInt8(ascii: ".")
    }

    /// The address itself when valid; 400 `INVALID_INPUT_DATA` (field `emailAddress`) otherwise.
    static func emailAddress(_ email: String) throws(KiiError) -> String {
        if email.unicodeScalars.count > maxEmailLength {
            throw .invalidInput(
                field: "emailAddress", value: email,
                message: "emailAddress \(email) is longer than \(maxEmailLength) characters"
            )
        }
        guard isEmailAddress(email) else {
            throw .invalidInput(
                field: "emailAddress", value: email,
                message: "emailAddress \(email) must be local@domain, the local part from A-Z a-z 0-9 . _ % + - and the domain from A-Z a-z 0-9 ."
            )
        }
        return email
    }

    // MARK: Country

    /// True for two capital letters `A–Z`.
    static func isCountry(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == 2 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// The country when it is two capital letters; 400 `INVALID_INPUT_DATA` (field `country`) otherwise.
    static func country(_ country: String) throws(KiiError) -> String {
        guard isCountry(country) else {
            throw .invalidInput(
                field: "country", value: country, message: "country \(country) must be two capital letters such as JP or US"
            )
        }
        return country
    }

    // MARK: Phone number

    /// A phone number as written, before libphonenumber reads it.
    enum PhoneInput: Equatable {
        /// `+` and 10–15 digits.
        case international(String)
        /// Domestic digits and the country to read them in (from `country`, or from `US-2015550123`).
        case local(digits: String, country: String)
    }

    /// True for a non-empty string of ASCII digits.
    static func isDigits<S: Collection>(_ bytes: S) -> Bool where S.Element == UInt8 {
        !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Reads `+819012345678`, `09012345678` (with `country`) or `JP-09012345678`. Nil for anything else.
    /// Throws only for a local number without a usable country.
    static func phoneInput(_ phone: String, country: String?) throws(KiiError) -> PhoneInput? {
        let bytes = Array(phone.utf8)
        if bytes.first == UInt8(ascii: "+") {
            let digits = bytes.dropFirst()
            guard internationalDigits.contains(digits.count), isDigits(digits) else { return nil }
            return .international(phone)
        }
        if bytes.count > 3, bytes[2] == UInt8(ascii: "-"), isCountry(String(decoding: bytes[0..<2], as: UTF8.self)),
            isDigits(bytes[3...])
        {
            return .local(digits: String(decoding: bytes[3...], as: UTF8.self), country: String(decoding: bytes[0..<2], as: UTF8.self))
        }
        guard isDigits(bytes) else { return nil }
        guard let country else {
            throw .invalidInput(
                field: "country", value: nil,
                message: "The local phoneNumber \(phone) needs a country (two capital letters such as JP)"
            )
        }
        return .local(digits: phone, country: try Self.country(country))
    }

    /// The E.164 form of an international number, or of local digits read in their country (libphonenumber's
    /// verdict; only MOBILE and FIXED_LINE_OR_MOBILE numbers pass). Errors name `phoneNumber` or `country`.
    static func e164(_ input: PhoneInput, written phone: String, cache: inout PhoneNumberCache) throws(KiiError) -> String {
        let verdict: PhoneNumberVerdict
        switch input {
        case .international(let number): verdict = cache.verdict(number, region: nil)
        case .local(let digits, let country): verdict = cache.verdict(digits, region: country)
        }
        switch verdict {
        case .mobile(let e164):
            guard internationalDigits.contains(e164.utf8.count - 1) else {
                throw .invalidInput(
                    field: "phoneNumber", value: phone,
                    message: "phoneNumber \(phone) is \(e164) in international form, which must have 10 to 15 digits"
                )
            }
            return e164
        case .notMobile:
            throw .notMobile(phone)
        case .unknownRegion:
            let country: String
            if case .local(_, let name) = input { country = name } else { country = "" }
            throw .invalidInput(field: "country", value: country, message: "country \(country) is not a known country")
        case .invalid:
            throw .invalidInput(field: "phoneNumber", value: phone, message: "phoneNumber \(phone) is not a valid phone number")
        }
    }

    /// Validates a phone number given at registration or in a change, with its optional country. Returns the E.164
    /// form and, for a local number, the country it was read in.
    static func phoneNumber(
        _ phone: String, country: String?, cache: inout PhoneNumberCache
    ) throws(KiiError) -> (e164: String, country: String?) {
        guard let input = try phoneInput(phone, country: country) else {
            throw .invalidInput(
                field: "phoneNumber", value: phone,
                message: "phoneNumber \(phone) must be + and 10 to 15 digits, or local digits with a country (JP-09012345678)"
            )
        }
        let number = try e164(input, written: phone, cache: &cache)
        if case .local(_, let readIn) = input { return (number, readIn) }
        return (number, nil)
    }

    // MARK: Password

    /// Passes 4–50 characters, each U+0020…U+007E. Fewer than 4: 400 `PASSWORD_TOO_SHORT`; otherwise a broken
    /// rule is 400 `INVALID_INPUT_DATA` with field `password`.
    static func validatePassword(_ password: String) throws(KiiError) {
        let scalars = password.unicodeScalars
        var count = 0
        var printable = true
        for scalar in scalars {
            count += 1
            if scalar.value < 0x20 || scalar.value > 0x7E { printable = false }
        }
        if count < passwordLength.lowerBound { throw .passwordTooShort }
        if count > passwordLength.upperBound {
            throw .invalidInput(field: "password", value: nil, message: "The password must be at most 50 characters long")
        }
        guard printable else {
            throw .invalidInput(
                field: "password", value: nil,
                message: "The password must consist of printable ASCII characters (U+0020 to U+007E)"
            )
        }
    }
}

extension String {
    /// Lower-cases `A–Z` only, so that no non-ASCII character can fold onto an ASCII one (the Kelvin sign K onto
    /// `k`, for instance).
    func asciiLowercased() -> String {
        guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return self }
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
