// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The dashboard's files (Sources/UnderstudyHTTP/Dashboard), each served by DashboardAssets.swift.
let dashboardFiles = [
    "index.html", "dashboard.css", "main.js", "api.js", "dom.js", "apps.js", "users.js", "outbox.js", "devices.js",
    "faults.js", "journal.js", "lua.js", "oauth.js", "kii.js", "coverage.js", "roles.js", "world.js", "record.js",
]

/// The authoring tools' text (Sources/UnderstudyAuthoring/Resources): the LuaLS types and `.luarc.json`, the starter
/// kit `understudy init` writes, and the scenarios and HTTP requests `understudy explain` prints.
let authoringFiles = [
    "understudy_types.lua", "luarc.json", "first_backendless.lua", "first_kii.lua", "scenarios_workflow.yml",
    "explain_scenarios.lua", "explain_requests.http",
]

let package = Package(
    name: "understudy",
    products: [
        // The command line is the product. The modules are not a library: they share what they must with
        // `package` access, and nothing outside this package imports them.
        .executable(name: "understudy", targets: ["understudy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Tests only: docs/openapi.yaml is read as YAML, not by its indentation.
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // Lua 5.4 from the system package liblua5.4-dev.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // C trampolines, the sandbox, the instruction budget, the memory cap and wrappers of Lua's macros.
        // Every call that can longjmp (lua_error, luaL_error, ...) lives here, never in Swift.
        .target(name: "CLuaShim", dependencies: ["CLua"]),

        // libphonenumber (Debian's libphonenumber-dev, C++) behind a plain C interface.
        .target(name: "CPhoneNumber", linkerSettings: [.linkedLibrary("phonenumber")]),

        // The AMF codec (AMF0 envelopes, AMF3 values) the Backendless native SDKs speak. Depends on nothing.
        .target(name: "AMF", swiftSettings: swiftSettings),

        // The emulator: users, verification, devices, channels, clock, outbox, faults, errors. No Lua, no HTTP.
        .target(
            name: "Understudy",
            dependencies: ["CPhoneNumber"],
            swiftSettings: swiftSettings
        ),
        // The Lua bridge: the sandboxed Lua state, the bindings of both flavours, one scenario file run against
        // fresh backends, and the live session of the server. What UnderstudyHTTP needs, and no more.
        .target(
            name: "UnderstudyLua",
            dependencies: ["Understudy", "CLua", "CLuaShim"],
            // The scenario prelude, Lua read by Lua tooling, compiled into the binary (`PackageResources.prelude_lua`).
            resources: [.embedInCode("Resources/prelude.lua")],
            swiftSettings: swiftSettings
        ),
        // The scenario runner: discovery, scheduling, worker processes, reporters, error-code coverage, watch.
        .target(
            name: "UnderstudyRunner",
            dependencies: ["Understudy", "UnderstudyLua", "CLuaShim"],
            swiftSettings: swiftSettings
        ),
        // The authoring tools: editor types, the starter kit of `understudy init`, `understudy explain`'s examples.
        .target(
            name: "UnderstudyAuthoring",
            dependencies: ["Understudy"],
            resources: authoringFiles.map { .embedInCode("Resources/" + $0) },
            swiftSettings: swiftSettings
        ),
        // The MQTT broker of `understudy serve` (Kii's push to MQTT installations): MQTT 3.1.1 over TCP and over
        // WebSocket, on SwiftNIO. No HTTP routing, no Lua.
        .target(
            name: "UnderstudyMQTT",
            dependencies: [
                "Understudy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The HTTP server: the real services' REST routes, the control API and the request journal.
        .target(
            name: "UnderstudyHTTP",
            dependencies: [
                "Understudy", "UnderstudyLua", "UnderstudyMQTT", "AMF",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The dashboard at /_understudy/ui/: plain HTML, CSS and JavaScript modules compiled into the binary
            // (`PackageResources.<file_name>`), so it needs no build step and fetches nothing at run time.
            resources: dashboardFiles.map { .embedInCode("Dashboard/" + $0) },
            swiftSettings: swiftSettings
        ),
        // The command line.
        .executableTarget(
            name: "understudy",
            dependencies: [
                "Understudy", "UnderstudyLua", "UnderstudyRunner", "UnderstudyAuthoring", "UnderstudyHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Shared setup for the test targets.
        .target(
            name: "UnderstudyTestSupport",
            dependencies: ["Understudy", "UnderstudyLua", "UnderstudyRunner"],
            path: "Tests/UnderstudyTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyTests",
            dependencies: ["Understudy", "UnderstudyTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyHTTPTests",
            dependencies: [
                "UnderstudyHTTP", "UnderstudyMQTT", "Understudy", "UnderstudyLua", "UnderstudyAuthoring", "UnderstudyTestSupport", "AMF",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "AMFTests", dependencies: ["AMF"], swiftSettings: swiftSettings),
        .testTarget(
            name: "UnderstudyLuaTests",
            dependencies: ["UnderstudyLua", "UnderstudyRunner", "UnderstudyAuthoring", "Understudy", "UnderstudyTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
