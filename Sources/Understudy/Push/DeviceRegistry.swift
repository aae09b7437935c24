/// A device's registration for push notifications.
package struct DeviceRegistration: Sendable, Hashable {
    /// The operating system of the device.
    package enum OperatingSystem: String, Sendable, Hashable, CaseIterable {
        case ios = "IOS"
        case android = "ANDROID"
    }

    package var deviceID: String
    package var token: String
    package var os: OperatingSystem
    package var osVersion: String?
    /// Channel name and that channel's registration id, in the order registered.
    package var channels: [(name: String, registrationID: String)]
    /// Seconds on the virtual clock when the registration ends; nil for never.
    package var expiration: Double?

    /// The real service's reply form: `id::channel,id::channel`.
    package var registrationID: String {
        channels.map { "\($0.registrationID)::\($0.name)" }.joined(separator: ",")
    }

    package static func == (lhs: DeviceRegistration, rhs: DeviceRegistration) -> Bool {
        lhs.deviceID == rhs.deviceID && lhs.token == rhs.token && lhs.os == rhs.os && lhs.osVersion == rhs.osVersion
            && lhs.expiration == rhs.expiration && lhs.channels.elementsEqual(rhs.channels, by: { $0 == $1 })
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(deviceID)
        hasher.combine(token)
    }
}

/// Push device registrations and channels. Expired registrations leave lazily: a heap ordered by expiration is
/// drained up to the current time before any read, so moving the clock costs nothing per registration.
package struct DeviceRegistry {
    package static let defaultChannel = "default"
    static let maxChannelNameLength = 100
    static let maxDeviceIDLength = 100
    static let maxTokenLength = 500

    private struct Entry {
        var registration: DeviceRegistration
        var generation: Int
    }

    private struct Expiry {
        var time: Double
        var deviceID: String
        var generation: Int
    }

    private var entries: ShardedDictionary<String, Entry> = [:]
    private var members: [String: Set<String>] = [DeviceRegistry.defaultChannel: []]

    /// Registrations held now, expired ones included (they go when `count(now:)` or a lookup sweeps them).
    package var heldCount: Int { entries.count }
    /// What the registrations' text and the channels hold beyond `HeldBytes.perRegistration` each (device ids,
    /// tokens, channel names with their registration ids and members, the expirations waiting), kept as
    /// registrations come and go: the memory cap counts it.
    package private(set) var textBytes = 0
    /// `heldCount` registrations and their text.
    package var heldBytes: Int {
        heldCount * HeldBytes.perRegistration + textBytes + 2 * expiringCount * HeldBytes.perEntry
    }

    /// What one registration holds beyond `HeldBytes.perRegistration`: its text, each channel's name, registration
    /// id and membership.
    static func textBytes(of registration: DeviceRegistration) -> Int {
        var total = HeldBytes.of(registration.deviceID) + HeldBytes.of(registration.token) + HeldBytes.of(registration.osVersion)
        for channel in registration.channels {
            total += 2 * HeldBytes.perEntry + HeldBytes.of(channel.name) + HeldBytes.of(channel.registrationID)
        }
        return total
    }
    private var expiries = MinHeap<Expiry>(by: { $0.time < $1.time })
    /// How many live registrations have an expiration: `expiries` also holds those of registrations replaced or
    /// cancelled since (they go when their time comes, or when `expiries` holds twice as many as there are live
    /// ones, and 64 more), so registering and cancelling again and again does not grow it. `heldBytes` counts
    /// twice the live ones.
    private var expiringCount = 0
    private var generation = 0
    private var random: SeededGenerator
    private let capacity: Int

    init(random: SeededGenerator, capacity: Int) {
        self.random = random
        self.capacity = capacity
    }

    /// Removes every registration whose expiration is at or before `now`.
    mutating func expire(upTo now: Double) {
        while let next = expiries.min, next.time <= now {
            expiries.removeMin()
            if let entry = entries[next.deviceID], entry.generation == next.generation {
                remove(entry.registration)
            }
        }
    }

    private mutating func remove(_ registration: DeviceRegistration) {
        entries[registration.deviceID] = nil
        textBytes -= Self.textBytes(of: registration)
        for channel in registration.channels { members[channel.name]?.remove(registration.deviceID) }
        if registration.expiration != nil {
            expiringCount -= 1
            dropCancelledExpiries()
        }
    }

    /// Drops the expirations of registrations replaced or cancelled once they are as many as the live ones (and 64
    /// more): their count stays within twice the live ones, at a cost linear in what is dropped.
    private mutating func dropCancelledExpiries() {
        guard expiries.count >= 2 * expiringCount + 64 else { return }
        expiries.retain { entries[$0.deviceID]?.generation == $0.generation }
    }

    /// Keeps a registration (new, or replacing none), counting its text and waiting for its expiration.
    private mutating func store(_ registration: DeviceRegistration) {
        generation += 1
        entries[registration.deviceID] = Entry(registration: registration, generation: generation)
        textBytes += Self.textBytes(of: registration)
        for channel in registration.channels {
            addChannel(channel.name)
            members[channel.name, default: []].insert(registration.deviceID)
        }
        guard let expiresAt = registration.expiration else { return }
        expiringCount += 1
        expiries.insert(Expiry(time: expiresAt, deviceID: registration.deviceID, generation: generation))
    }

    /// Registers (or re-registers, replacing) a device.
    mutating func register(
        token: String, deviceID: String?, os: DeviceRegistration.OperatingSystem, osVersion: String?,
        channels requested: [String]?, expiration: Value?, now: Double
    ) throws(BackendlessError) -> DeviceRegistration {
        guard let deviceID, !deviceID.isEmpty else { throw BackendlessError.catalogue(5011) }
        if deviceID.unicodeScalars.count > Self.maxDeviceIDLength {
            throw BackendlessError.valueTooLong("deviceId", limit: Self.maxDeviceIDLength)
        }
        if token.unicodeScalars.count > Self.maxTokenLength {
            throw BackendlessError.valueTooLong("deviceToken", limit: Self.maxTokenLength)
        }
        var channelNames: [String] = []
        var seen = Set<String>()
        for name in requested ?? [] where seen.insert(name).inserted {
            if let problem = Self.channelNameProblem(name) { throw BackendlessError.invalidChannelName(name, problem) }
            channelNames.append(name)
        }
        if channelNames.isEmpty { channelNames = [Self.defaultChannel] }

        var expiresAt: Double?
        switch expiration {
        case nil, .null?: expiresAt = nil
        case .int(let seconds)?: expiresAt = Double(seconds)
        case .double(let seconds)? where seconds.isFinite: expiresAt = seconds
        default: throw BackendlessError.catalogue(5004)
        }
        // Not later than now, or a date the clock can never show (beyond `VirtualClock.limit`): 5004.
        if let expiresAt, expiresAt <= now || !VirtualClock.accepts(expiresAt) { throw BackendlessError.catalogue(5004) }

        expire(upTo: now)
        if let previous = entries[deviceID] {
            remove(previous.registration)
        } else if entries.count >= capacity {
            throw BackendlessError.devicesFull(capacity)
        }
        let registration = DeviceRegistration(
            deviceID: deviceID, token: token, os: os, osVersion: osVersion,
            channels: channelNames.map { ($0, random.nextIdentifier().formatted()) }, expiration: expiresAt
        )
        store(registration)
        return registration
    }

    /// The live registration of a device.
    mutating func registration(of deviceID: String, now: Double) -> DeviceRegistration? {
        expire(upTo: now)
        return entries[deviceID]?.registration
    }

    /// Cancels a registration. False when the device has none.
    mutating func unregister(_ deviceID: String, now: Double) -> Bool {
        expire(upTo: now)
        guard let entry = entries[deviceID] else { return false }
        remove(entry.registration)
        return true
    }

    /// Creates a channel when its name is valid and it does not exist yet (a publish to an unknown channel).
    mutating func createChannel(_ name: String) {
        if Self.isValidChannelName(name) { addChannel(name) }
    }

    /// Adds a channel unless it exists, counting what its name holds.
    private mutating func addChannel(_ name: String) {
        guard members[name] == nil else { return }
        members[name] = []
        textBytes += HeldBytes.perEntry + HeldBytes.of(name)
    }

    /// Every channel name, sorted.
    var channelNames: [String] { members.keys.sorted() }

    /// The devices live on a channel, sorted.
    mutating func devices(on channel: String, now: Double) -> [String] {
        expire(upTo: now)
        return members[channel].map { $0.sorted() } ?? []
    }

    /// How many devices a channel holds, expired ones not yet swept included: at most how many a push to it reaches.
    func memberCount(of channel: String) -> Int { members[channel]?.count ?? 0 }

    /// How many registrations are live.
    mutating func count(now: Double) -> Int {
        expire(upTo: now)
        return entries.count
    }

    /// The registrations live at `now`, oldest registration first, the channels (those with no device too) and
    /// the generator of registration ids, as an exported world keeps them.
    func archive(now: Double) -> Value {
        var live = entries.values.filter { $0.registration.expiration.map { $0 > now } ?? true }
        live.sort { $0.generation < $1.generation }
        let registrations = live.map { entry -> Value in
            let registration = entry.registration
            return ArchiveValues.object([
                "device_id": .string(registration.deviceID), "token": .string(registration.token),
                "os": .string(registration.os.rawValue), "os_version": ArchiveValues.optional(registration.osVersion),
                "channels": .array(registration.channels.map { .array([.string($0.name), .string($0.registrationID)]) }),
                "expiration": ArchiveValues.optional(registration.expiration),
            ])
        }
        return ArchiveValues.object([
            "ids": .string(random.archived), "channels": .array(channelNames.map(Value.string)),
            "registrations": .array(registrations),
        ])
    }

    /// Restores what `archive(now:)` kept into an empty registry.
    mutating func restore(_ archive: ArchiveReader) throws(ArchiveError) {
        random = try archive.generator("ids")
        for (index, name) in try archive.list("channels").enumerated() {
            guard case .string(let name) = name, Self.isValidChannelName(name) else {
                throw ArchiveError("\(archive.field("channels"))[\(index + 1)] must be a channel name")
            }
            addChannel(name)
        }
        for reader in try archive.tables("registrations") {
            let osText = try reader.string("os")
            guard let os = DeviceRegistration.OperatingSystem(rawValue: osText) else {
                throw ArchiveError("\(reader.field("os")) must be IOS or ANDROID, got '\(osText)'")
            }
            var channels: [(name: String, registrationID: String)] = []
            for item in try reader.list("channels") {
                guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0], case .string(let id) = pair[1] else {
                    throw ArchiveError("\(reader.field("channels")) must hold {channel, registrationId} pairs")
                }
                channels.append((name, id))
            }
            let registration = DeviceRegistration(
                deviceID: try reader.string("device_id"), token: try reader.string("token"), os: os,
                osVersion: try reader.optionalString("os_version"), channels: channels, expiration: try reader.optionalDouble("expiration")
            )
            if let previous = entries[registration.deviceID] { remove(previous.registration) }
            store(registration)
        }
    }

    static func isValidChannelName(_ name: String) -> Bool { channelNameProblem(name) == nil }

    /// What is wrong with a channel name (empty, too long, a character outside A-Z a-z 0-9 _ -), or nil.
    static func channelNameProblem(_ name: String) -> ChannelNameProblem? {
        if name.isEmpty { return .empty }
        if name.utf8.count > maxChannelNameLength { return .tooLong(characters: name.unicodeScalars.count, limit: maxChannelNameLength) }
        for scalar in name.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-": continue
            default: return .invalidCharacter
            }
        }
        return nil
    }
}

/// Why a channel name is refused with 5044: the real service says "invalid character" for each; the emulator
/// keeps that text for a bad character and says what is wrong otherwise.
enum ChannelNameProblem: Equatable {
    case empty
    case tooLong(characters: Int, limit: Int)
    case invalidCharacter
}
