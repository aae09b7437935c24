/// Push device registration and publishing.
extension BackendlessApp {
    /// Registers a device for push notifications on its channels (the `default` channel when none is given).
    package func registerDevice(
        token: String, deviceID: String?, os: DeviceRegistration.OperatingSystem, osVersion: String? = nil,
        channels: [String]? = nil, expiration: Value? = nil
    ) throws(BackendlessError) -> DeviceRegistration {
        try checkFaults(.registerDevice, [
            .object([
                "token": .string(token), "device_id": Value(deviceID), "os": .string(os.rawValue), "os_version": Value(osVersion),
                "channels": channels.map { .array($0.map(Value.string)) } ?? .null, "expiration": expiration ?? .null,
            ])
        ])
        return try devices.register(
            token: token, deviceID: deviceID, os: os, osVersion: osVersion, channels: channels,
            expiration: expiration, now: clock.now
        )
    }

    /// The live registration of a device, or nil.
    package func device(_ deviceID: String) -> DeviceRegistration? {
        devices.registration(of: deviceID, now: clock.now)
    }

    /// `devices.get`: the live registration of a device, or nil; an injected fault fails it.
    package func getDevice(_ deviceID: String) throws(BackendlessError) -> DeviceRegistration? {
        return device(deviceID)
    }

    /// Cancels a device's registration (5001 when it has none).
    package func unregisterDevice(_ deviceID: String) throws(BackendlessError) {
        guard devices.unregister(deviceID, now: clock.now) else { throw BackendlessError.catalogue(5001) }
    }

    /// Every live device registration, sorted by device id.
    package var allDevices: [DeviceRegistration] {
        var ids = Set<String>()
        for channel in channelNames { ids.formUnion(devices(onChannel: channel)) }
        return ids.sorted().compactMap { device($0) }
    }

    /// Every channel name, sorted (`default` always exists).
    package var channelNames: [String] { devices.channelNames }

    /// The devices live on a channel, sorted.
    package func devices(onChannel channel: String) -> [String] {
        devices.devices(on: channel, now: clock.now)
    }

    /// Publishes a push notification now to the live devices of a channel, or to the listed devices (on any
    /// channel; those pushes carry no channel). Returns the device ids delivered to, sorted.
    package func publish(message: String, channel: String? = nil, deviceIDs: [String]? = nil) throws(BackendlessError) -> [String] {
        try publish(PushRequest(message: message, channel: channel, deviceIDs: deviceIDs)).delivered
    }
}
