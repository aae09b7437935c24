internal import CPhoneNumber

/// libphonenumber's verdict on one number, through the CPhoneNumber facade.
enum PhoneNumberVerdict: Sendable, Hashable {
    /// A valid MOBILE or FIXED_LINE_OR_MOBILE number, in E.164 form (`+819012345678`).
    case mobile(e164: String)
    /// A valid number of another type (landline, toll-free, VoIP, ...).
    case notMobile
    /// Not a valid number (unparseable, unknown country code, no matching numbering plan).
    case invalid
    /// The region is not one libphonenumber knows.
    case unknownRegion

    /// The longest number libphonenumber is asked about, in bytes. A valid number has at most 17 national
    /// digits (libphonenumber's own limit) after a country code of up to 3 digits and a dialling, national or
    /// carrier prefix of a few; anything longer is no phone number. libphonenumber's parser takes time
    /// quadratic in its input's length (100,000 digits: about a minute), so nothing longer ever reaches it.
    static let maxInputLength = 40

    /// Asks libphonenumber (about 40 µs). `number` must hold no NUL; `region` is an ISO 3166 alpha-2 code or nil
    /// for a `+` number. A number longer than `maxInputLength` is `.invalid` (`.unknownRegion` for an unknown
    /// region, checked first as libphonenumber does) without being read.
    static func evaluate(_ number: String, region: String?) -> PhoneNumberVerdict {
        guard number.utf8.count <= maxInputLength else {
            guard let region, !region.isEmpty else { return .invalid }
            return understudy_phone_region_known(region) != 0 ? .invalid : .unknownRegion
        }
        let capacity = Int(UNDERSTUDY_PHONE_E164_CAPACITY)
        var buffer = [CChar](repeating: 0, count: capacity)
        let status = number.withCString { numberPointer in
            if let region {
                return region.withCString { regionPointer in
                    understudy_phone_normalize(numberPointer, regionPointer, &buffer, capacity)
                }
            }
            return understudy_phone_normalize(numberPointer, nil, &buffer, capacity)
        }
        switch status {
        case UNDERSTUDY_PHONE_OK:
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return .mobile(e164: String(decoding: bytes, as: UTF8.self))
        case UNDERSTUDY_PHONE_NOT_MOBILE: return .notMobile
        case UNDERSTUDY_PHONE_BAD_REGION: return .unknownRegion
        default: return .invalid
        }
    }
}

/// libphonenumber verdicts remembered per (number, region), since each call costs about 40 µs. Bounded: the
/// memory is dropped when it grows past `limit` entries.
struct PhoneNumberCache {
    private struct Key: Hashable {
        var number: String
        var region: String?
    }

    private var verdicts: [Key: PhoneNumberVerdict] = [:]
    private let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    /// The verdict on `number` read in `region` (nil for a `+` number). One too long to be a number is answered
    /// without libphonenumber and not remembered.
    mutating func verdict(_ number: String, region: String?) -> PhoneNumberVerdict {
        if number.utf8.count > PhoneNumberVerdict.maxInputLength { return .evaluate(number, region: region) }
        let key = Key(number: number, region: region)
        if let known = verdicts[key] { return known }
        let verdict = PhoneNumberVerdict.evaluate(number, region: region)
        if verdicts.count >= limit { verdicts.removeAll(keepingCapacity: true) }
        verdicts[key] = verdict
        return verdict
    }
}
