/// The declaration of every Backendless operation: arguments by the contract's names, routes under
/// `/{appId}/{apiKey}`, the order of checks (docs/errors.md) and the result. See `OperationDeclaration`.
extension BackendlessOperation {
    package var declaration: OperationDeclaration { Self.declared[self]! }

    private static let declared: [BackendlessOperation: OperationDeclaration] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, $0.declare()) }
    )

    private func declare() -> OperationDeclaration {
        let user = ResultKind.record("BackendlessUser", "user")
        let session = ResultKind.record("BackendlessSession", "session")
        let token = ArgumentDeclaration.string("token", from: .header("user-token"), "a live session's user-token")
        let key = ArgumentDeclaration.oneOf(
            "key", ["rest", "cloudcode"], optional: true, from: .resolved("the API key of the path"),
            "the API key the call is made with: \"rest\" (the default, any client key) or \"cloudcode\""
        )
        let queryFields: [ArgumentDeclaration] = [
            .string("where", optional: true, from: .bodyField("where"), "a where clause"),
            ArgumentDeclaration("page_size", .integer, optional: true, from: .bodyField("pageSize"), "1-100, default 10"),
            ArgumentDeclaration("offset", .integer, optional: true, from: .bodyField("offset"), "≥ 0, default 0"),
            ArgumentDeclaration("sort_by", .any, optional: true, from: .bodyField("sortBy"), "\"column\", \"column asc\", \"column desc\", or a list of them"),
            ArgumentDeclaration("properties", .strings, optional: true, from: .bodyField("props"), "the columns each record keeps (\"*\": all)"),
            ArgumentDeclaration("exclude_properties", .strings, optional: true, from: .bodyField("excludeProps"), "columns left out"),
            .boolean("distinct", optional: true, from: .bodyField("distinct"), "equal records once"),
        ]
        let query = ArgumentDeclaration.table("query", "DataQuery", fields: queryFields, optional: true, from: .body, "the query")
        func declare(
            version: Int = 1, lua: String?, _ arguments: [ArgumentDeclaration] = [], routes: [RouteDeclaration] = [],
            checks: [Check] = [.fault], result: ResultKind, answeredByAdapter: Bool = false, methodChecksFaults: Bool = false,
            misuse: MisuseCheck? = nil, performs method: BackendlessApp.Method? = nil
        ) -> OperationDeclaration {
            // An adapter-answered operation's faults are checked by the adapter, before the route's guards; a method
            // that checks its own does so with what it works out first (the objectId a confirmation link names).
            let faultsChecked = !answeredByAdapter && !methodChecksFaults
            return OperationDeclaration(
                rawValue, .backendless, version: version, lua: lua, arguments: arguments, routes: routes, checks: checks,
                result: result, answeredByAdapter: answeredByAdapter,
                perform: method.map { BackendlessApp.performer(self, misuse: misuse, checkingFaults: faultsChecked, $0) }
            )
        }
        switch self {
        case .register:
            return declare(
                lua: "users.register", [.properties("props", optional: true, from: .body, "the new user's properties")],
                routes: [.post("/users/register", "Register a user (or convert a guest)").resolving("props", .backendlessNewUserProperties)],
                checks: [.fault, 3038, 3009, 3039, 3043, 3011, 3050, 3013, 3078, 3040, 3010, 3012, 3041, 8000, 3033, 3021], result: user
            ) { app, a throws(BackendlessError) in .record(try app.register(a.optionalProperties("props"))) }
        case .login:
            return declare(
                lua: "users.login",
                [
                    .string("identity_value", optional: true, from: .bodyField("login"), "the value of the identity property"),
                    .string("password", optional: true, from: .bodyField("password")),
                ],
                routes: [
                    .post("/users/login", "Log in with the identity property and password (with objectId and no login: users.login_by_id)")
                        .handingOver(to: "users.login_by_id", when: .bodyMember("objectId", without: "login"), resolving: ["key": .backendlessKey])
                ],
                checks: [.fault, 3034, 3006, 3003, 3036, 3003, 3090, 3087, 3002, 3044], result: session
            ) { app, a throws(BackendlessError) in
                .record(try app.login(identity: a.optionalString("identity_value"), password: a.optionalString("password")))
            }
        case .logout:
            return declare(
                lua: "users.logout", [token], routes: [.get("/users/logout", "End the session of the user-token header").replying(.status(200))],
                checks: [.fault, 3064], result: .true
            ) { app, a throws(BackendlessError) in
                try app.logout(token: a.string("token"))
                return .done
            }
        case .guestLogin:
            return declare(
                lua: "users.guest_login", routes: [.post("/users/register/guest", "Create a guest account and log it in")],
                checks: [.fault, 3021], result: session
            ) { app, _ throws(BackendlessError) in .record(try app.guestLogin()) }
        case .confirmEmail:
            return declare(
                lua: "users.confirm_email", [.string("objectId", from: .resolved("the user of the link's {token}"))],
                routes: [
                    .get("/users/confirmemail/{token}", "The link of the confirmation email")
                        .resolving("objectId", .backendlessConfirmationLink).replying(.backendlessEmailConfirmed)
                ],
                checks: [.fault, 3092, 1000], result: user, methodChecksFaults: true
            ) { app, a throws(BackendlessError) in .record(try app.confirmEmail(objectIDOrLink: a.string("objectId"))) }
        case .setStatus:
            return declare(
                lua: "users.set_status",
                [.string("objectId", from: .none), .oneOf("status", ["ENABLED", "DISABLED"], from: .none, "what the console sets")],
                checks: [.fault, 1000], result: user
            ) { app, a throws(BackendlessError) in
                .record(try app.setStatus(objectID: a.string("objectId"), to: a.string("status") == "DISABLED" ? .disabled : .enabled))
            }
        case .isValidToken:
            return declare(
                lua: nil, [.string("token", from: .path("userToken"))],
                routes: [.get("/users/isvalidusertoken/{userToken}", "Whether a user-token is a live session")], result: .http
            ) { app, a throws(BackendlessError) in .value(.bool(try app.isValidToken(a.string("token")))) }
        case .restorePassword:
            return declare(
                version: 2, lua: "users.restore_password", [.string("identity", from: .path("identity"), "the identity value")],
                routes: [
                    .get("/users/restorepassword/{identity}", "Send the password-recovery email").guarded(.liveUserToken)
                        .resolving("identity", .backendlessIdentity(rawFallback: false)).replying(.status(200))
                ],
                checks: [.fault, 3101, 3020, 3075, 3025], result: .true
            ) { app, a throws(BackendlessError) in
                try app.restorePassword(identity: a.string("identity"))
                return .done
            }
        case .resetPassword:
            return declare(
                version: 2, lua: "users.reset_password",
                [
                    .string("link_or_token", from: .path("token"), "the recovery link or its token"),
                    .string("new_password", from: .bodyField("password")),
                ],
                routes: [
                    .get("/users/changepassword/{token}", "The recovery link's page: a form for a new password", variant: "page"),
                    .post("/users/changepassword/{token}", .text, "The recovery page's form: set the new password"),
                ],
                checks: [.fault, 3092, 3045, 8000], result: .true, methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                try app.resetPassword(linkOrToken: a.string("link_or_token"), newPassword: a.string("new_password"))
                return .done
            }
        case .resendConfirmation:
            return declare(
                version: 2, lua: "users.resend_confirmation", [.string("identity", from: .path("identity"))],
                routes: [
                    .post("/users/resendconfirmation/{identity}", .none, "Send the confirmation email again").guarded(.liveUserToken)
                        .resolving("identity", .backendlessIdentity(rawFallback: true)).replying(.status(200))
                ],
                checks: [.fault, 3103, 3104, 3102, 3104], result: .true
            ) { app, a throws(BackendlessError) in
                try app.resendConfirmation(identity: a.string("identity"))
                return .done
            }
        case .confirmationURL:
            return declare(
                version: 2, lua: "users.confirmation_url", [.string("identity", from: .path("identity"))],
                routes: [
                    .post("/users/createEmailConfirmationURL/{identity}", .none, "A new confirmation link, sent nowhere")
                        .guarded(.liveUserToken).resolving("identity", .backendlessIdentity(rawFallback: true))
                        .replying(.field("confirmationURL"))
                ],
                checks: [.fault, 3103, 3104, 3102, 3104], result: .value("string", "link")
            ) { app, a throws(BackendlessError) in .text(try app.confirmationURL(identity: a.string("identity"))) }
        case .getUser:
            return declare(
                version: 2, lua: "users.get", [.string("objectId", from: .path("objectId"))],
                routes: [
                    .get("/data/Users/{objectId}", "Read a user by objectId (with props / excludeProps: the Data service's record, contract v4)", variant: "projection")
                        .guarded(.liveUserToken).replying(.backendlessUserOrNotFound)
                ],
                result: .optionalRecord("BackendlessUser")
            ) { app, a throws(BackendlessError) in .optional(try app.getUser(objectID: a.string("objectId"))) }
        case .updateUser:
            return declare(
                version: 2, lua: "users.update",
                [
                    .string("objectId", from: .path("objectId")),
                    .properties("props", from: .body, "the properties to change"),
                    token,
                ],
                routes: [.put("/users/{objectId}", "Update the user of the user-token header")],
                checks: [.fault, 3064, 3030, 3029, 3072, 3096, 3040, 3018, 3050, 3045, 8000], result: user
            ) { app, a throws(BackendlessError) in
                .record(try app.update(objectID: a.string("objectId"), properties: a.properties("props"), token: a.string("token")))
            }
        case .deleteUser:
            return declare(
                version: 2, lua: "users.delete", [.string("objectId", from: .path("objectId"))],
                routes: [.delete("/data/Users/{objectId}", "Delete a user by objectId").guarded(.liveUserToken).replying(.backendlessDeletionTime)],
                checks: [.fault, 1000], result: .true
            ) { app, a throws(BackendlessError) in
                try app.delete(objectID: a.string("objectId"))
                return .done
            }
        case .registerDevice:
            return declare(
                lua: "devices.register",
                [
                    .table(
                        "registration", "DeviceRegistrationRequest",
                        fields: [
                            .string("token", from: .bodyField("deviceToken"), "the APNS or FCM device token"),
                            .string("device_id", optional: true, from: .bodyField("deviceId")),
                            .oneOf("os", ["IOS", "ANDROID"], from: .bodyField("os")),
                            .string("os_version", optional: true, from: .bodyField("osVersion")),
                            ArgumentDeclaration("channels", .strings, optional: true, from: .bodyField("channels")),
                            ArgumentDeclaration(
                                "expiration", .any, optional: true, from: .bodyField("expiration"),
                                "seconds on the virtual clock (over HTTP: milliseconds or an ISO 8601 date)"
                            ),
                        ],
                        from: .body
                    ).readInLua(by: .backendlessDeviceRegistration)
                ],
                routes: [
                    .post("/messaging/registrations", "Register a device for push notifications")
                        .resolving("registration", .backendlessDeviceRegistration).replying(.backendlessRegistrationID)
                ],
                checks: [.fault, 5011, 8000, 8000, 5044, 5004, 5043], result: .record("DeviceRegistration", "reg"),
                methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                let fields = a.fields("registration") ?? [:]
                return .record(
                    try app.registerDevice(
                        token: fields["token"]?.stringValue ?? "", deviceID: fields["device_id"]?.stringValue,
                        os: fields["os"]?.stringValue.flatMap(DeviceRegistration.OperatingSystem.init(rawValue:)) ?? .android,
                        osVersion: fields["os_version"]?.stringValue, channels: fields["channels"]?.strings,
                        expiration: fields["expiration"]
                    )
                )
            }
        case .getDevice:
            return declare(
                lua: "devices.get", [.string("device_id", from: .path("deviceId"))],
                routes: [.get("/messaging/registrations/{deviceId}", "A device's registration").replying(.backendlessDeviceList)],
                result: .optionalRecord("DeviceRegistration")
            ) { app, a throws(BackendlessError) in .optional(try app.getDevice(a.string("device_id"))) }
        case .unregisterDevice:
            return declare(
                lua: "devices.unregister", [.string("device_id", from: .path("deviceId"))],
                routes: [.delete("/messaging/registrations/{deviceId}", "Cancel a device's registration").replying(.field("result"))],
                checks: [.fault, 5001], result: .true
            ) { app, a throws(BackendlessError) in
                try app.unregisterDevice(a.string("device_id"))
                return .done
            }
        case .publish:
            return declare(
                lua: "push.publish",
                [
                    .table(
                        "publication", "Publication",
                        fields: [
                            .string("channel", optional: true, from: .path("channel"), "default \"default\"; an unknown channel is created"),
                            .string("message", from: .bodyField("message")),
                            ArgumentDeclaration("headers", .properties, optional: true, from: .bodyField("headers"), "kept on each outbox push"),
                            ArgumentDeclaration(
                                "broadcast", .any, optional: true, from: .bodyField("pushBroadcast"),
                                "\"ALL\" or a list of \"IOS\", \"ANDROID\", \"WP\", \"OSX\" (over HTTP a mask or names)"
                            ),
                            ArgumentDeclaration("singlecast", .strings, optional: true, from: .bodyField("pushSinglecast"), "device ids of the channel"),
                            .oneOf("policy", ["PUSH", "PUBSUB", "BOTH"], optional: true, from: .bodyField("publishPolicy"), "default \"BOTH\""),
                            ArgumentDeclaration("publish_at", .number, optional: true, from: .bodyField("publishAt"), "seconds on the virtual clock (HTTP: ms)"),
                            ArgumentDeclaration("repeat_every", .integer, optional: true, from: .bodyField("repeatEvery"), "seconds, a whole number ≥ 1"),
                            ArgumentDeclaration(
                                "repeat_expires_at", .number, optional: true, from: .bodyField("repeatExpiresAt"),
                                "the last firing time (HTTP: ms); required with repeat_every"
                            ),
                            ArgumentDeclaration("device_ids", .strings, optional: true, from: .none, "these devices, on any channel"),
                        ],
                        from: .body
                    ).readInLua(by: .backendlessPublication)
                ],
                routes: [
                    .post(
                        "/messaging/{channel}",
                        "Publish a push notification to a channel (delivery options: pushBroadcast, pushSinglecast, publishAt, repeatEvery, repeatExpiresAt)"
                    ).resolving("publication", .backendlessPublication).replying(.backendlessScheduled)
                ],
                checks: [.fault, 5030, 5003], result: .record("PublishResult", "result"), methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                .record(try app.publish(a.typed("publication", as: PushRequest.self) ?? PushRequest(message: "")))
            }
        case .cancelMessage:
            return declare(
                version: 3, lua: "push.cancel", [.string("messageId", from: .path("messageId"))],
                routes: [.delete("/messaging/{messageId}", "Cancel a scheduled message").replying(.backendlessCancelled)],
                checks: [.fault, 5040], result: .true
            ) { app, a throws(BackendlessError) in
                try app.cancelMessage(a.string("messageId"))
                return .done
            }
        case .pushTemplates:
            return declare(
                version: 3, lua: "push.templates.list",
                [.string("os", optional: true, from: .path("deviceType"), "\"ALL\" (or nil) for every template, \"IOS\"/\"ANDROID\" for that os's and the ALL ones")],
                routes: [
                    .get("/messaging/pushtemplates/{deviceType}", "The push templates for a device type (ios, android) and ALL"),
                    .get("/messaging/pushtemplates", "Every push template, by name", sources: ["os": .none]),
                ],
                result: .value("table<string, PushTemplate>", "templates")
            ) { app, a throws(BackendlessError) in
                .recordsByName(try app.listPushTemplates(os: a.optionalString("os")).map { ($0.name, $0 as any Presentable) })
            }
        case .pushWithTemplate:
            return declare(
                version: 3, lua: "push.with_template",
                [
                    .string("name", from: .path("templateName")),
                    .properties("values", optional: true, from: .bodyField("templateValues"), "fill each {var}"),
                ],
                routes: [
                    .post("/messaging/push/{templateName}", "Send a push template, its {var}s filled from templateValues")
                        .resolving("values", .backendlessTemplateValues).replying(.backendlessScheduled)
                ],
                checks: [.fault, 24002], result: .record("PublishResult", "result"), methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                // The method checks its faults with the values as the text it fills in.
                var values: [String: String] = [:]
                for property in a.optionalProperties("values") ?? [] {
                    switch property.value {
                    case .string(let text): values[property.name] = text
                    case .int(let number): values[property.name] = String(number)
                    case .double(let number): values[property.name] = String(number)
                    case .bool(let flag): values[property.name] = String(flag)
                    default: continue
                    }
                }
                return .record(try app.pushWithTemplate(a.string("name"), values: values))
            }
        case .sendEmail:
            return declare(
                version: 3, lua: nil,
                [
                    .string("subject", from: .bodyField("subject")),
                    ArgumentDeclaration("bodyparts", .any, optional: true, from: .bodyField("bodyparts"), "{ textmessage?, htmlmessage? }"),
                    ArgumentDeclaration("to", .strings, from: .bodyField("to"), "the recipients' addresses"),
                ],
                routes: [
                    .post("/messaging/email", "Send an email to the listed addresses (lands in the outbox)")
                        .resolving("subject", .backendlessEmailSubject).resolving("bodyparts", .backendlessEmailBodyParts)
                        .resolving("to", .backendlessEmailRecipients).replying(.backendlessScheduled)
                ],
                result: .http, methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                let parts = a.value("bodyparts")
                return .text(
                    try app.sendEmail(
                        subject: a.string("subject"), text: parts?.member("textmessage")?.stringValue, html: parts?.member("htmlmessage")?.stringValue,
                        to: a.value("to")?.strings ?? []
                    )
                )
            }
        case .loginOAuth:
            return declare(
                version: 3, lua: "users.login_oauth",
                [
                    .string("provider", from: .path("provider"), "the provider code the app's SDK sends (compared without case)"),
                    .string("token", from: .bodyField("accessToken"), "the access token the provider accepts"),
                    .table(
                        "options", "OAuthLoginOptions",
                        fields: [
                            ArgumentDeclaration(
                                "fields_mapping", .table("table<string, string>", fields: []), optional: true,
                                from: .bodyField("fieldsMapping"), "provider profile field → user property (first login only)"
                            ),
                            .string("guest", optional: true, from: .bodyField("guestUser"), "objectId of the guest the first login converts"),
                            .string("secret", optional: true, from: .bodyField("accessTokenSecret"), "the OAuth1 token secret"),
                        ],
                        optional: true, from: .body
                    ).readInLua(by: .backendlessOAuthOptions),
                ],
                routes: [
                    .post("/users/social/{provider}/login", "Log in through an OAuth provider; the first login registers the user (what the SDKs call)")
                        .resolving("options", .backendlessOAuthOptions),
                    .post("/users/oauth/{provider}/login", "Log in through an OAuth provider; the first login registers the user (the REST docs' path)")
                        .resolving("options", .backendlessOAuthOptions),
                    .post(
                        "/users/social/facebook/sdk/login", "Log in with a Facebook access token (the legacy SDK login)",
                        sources: ["provider": .resolved("facebook")]
                    ).resolving("provider", .constant("facebook")).resolving("options", .backendlessOAuthOptions),
                    .post(
                        "/users/social/googleplus/sdk/login", "Log in with a Google+ access token (the legacy SDK login)",
                        sources: ["provider": .resolved("googleplus")]
                    ).resolving("provider", .constant("googleplus")).resolving("options", .backendlessOAuthOptions),
                ],
                checks: [.fault, 3034, 3052, 3009, 3039, 3014, 3021, 3090, 3036], result: session, methodChecksFaults: true
            ) { app, a throws(BackendlessError) in
                .record(
                    try app.loginOAuth(
                        provider: a.string("provider"), token: a.string("token"), options: a.typed("options", as: OAuthLoginOptions.self)
                    )
                )
            }
        case .appInfo:
            return declare(
                version: 2, lua: nil, routes: [.get("/info", "App info the JS SDK loads at start (loggers, rtURL)").guarded(.liveUserToken)],
                result: .http, answeredByAdapter: true
            ) { _, _ throws(BackendlessError) in .value(.object(["loggers": .array([]), "rtURL": .null])) }
        case .userRoles:
            return declare(
                version: 2, lua: nil, routes: [.get("/users/userroles", "The roles of the caller").replying(.backendlessCallerRoles)],
                result: .http, answeredByAdapter: true
            ) { _, _ throws(BackendlessError) in .nothing }
        case .describeUsers:
            return declare(
                version: 4, lua: "users.describe",
                routes: [.get("/users/userclassprops", "The columns of the Users table (password included)").guarded(.liveUserToken)],
                result: .value("UsersColumn[]", "columns")
            ) { app, _ throws(BackendlessError) in .records(app.usersColumns.map { $0 as any Presentable }) }
        case .loginByID:
            return declare(
                version: 4, lua: "users.login_by_id",
                [.string("objectId", from: .bodyField("objectId")), key],
                checks: [.fault, 2014, 3034, 3057, 3036, 3090, 3087, 3002, 3044], result: session
            ) { app, a throws(BackendlessError) in
                .record(try app.loginByID(objectID: a.string("objectId"), key: a.apiKey))
            }
        case .updateStatus:
            return declare(
                version: 4, lua: "users.update_status",
                [.string("objectId", from: .path("objectId")), .oneOf("status", ["ENABLED", "DISABLED"], from: .bodyField("userStatus")), key],
                routes: [
                    .put("/users/{objectId}/status", "Enable or disable a user (CloudCode key only: 3054)")
                        .resolving("key", .backendlessKey).resolving("status", .backendlessUserStatus).replying(.status(200))
                ],
                checks: [.fault, 3054, 1000, 3085, 3086], result: user
            ) { app, a throws(BackendlessError) in
                .record(try app.updateStatus(objectID: a.string("objectId"), to: a.string("status") == "DISABLED" ? .disabled : .enabled, key: a.apiKey))
            }
        case .assignRole:
            return declare(
                version: 4, lua: "roles.assign",
                [
                    .string("identity", from: .bodyField("user"), "the identity value or the objectId"),
                    .string("role", from: .bodyField("roleName")), key,
                ],
                routes: [
                    .post("/users/assignRole", "Assign a custom role to a user (CloudCode key only: 2011)").resolving("key", .backendlessKey)
                        .replying(.status(200))
                ],
                checks: [.fault, 2011, 2005, 2007, 3057], result: .true
            ) { app, a throws(BackendlessError) in
                try app.assignRole(identity: a.string("identity"), role: a.string("role"), key: a.apiKey)
                return .done
            }
        case .unassignRole:
            return declare(
                version: 4, lua: "roles.unassign",
                [
                    .string("identity", from: .bodyField("user"), "the identity value or the objectId"),
                    .string("role", from: .bodyField("roleName")), key,
                ],
                routes: [
                    .post("/users/unassignRole", "Unassign a custom role from a user (CloudCode key only: 2011)").resolving("key", .backendlessKey)
                        .replying(.status(200))
                ],
                checks: [.fault, 2011, 2005, 2008, 3057], result: .true
            ) { app, a throws(BackendlessError) in
                try app.unassignRole(identity: a.string("identity"), role: a.string("role"), key: a.apiKey)
                return .done
            }
        case .rolesOf:
            return declare(
                version: 4, lua: "roles.of", [.string("objectId", from: .path("objectId")), key],
                routes: [
                    .get("/users/userroles/{objectId}", "A user's roles, system then custom (CloudCode key only: 3081)").resolving("key", .backendlessKey)
                ],
                checks: [.fault, 3081, 3057], result: .value("string[]", "roles")
            ) { app, a throws(BackendlessError) in
                .value(.array(try app.rolesOf(objectID: a.string("objectId"), key: a.apiKey).map(Value.string)))
            }
        case .roleUsers:
            return declare(
                version: 4, lua: "roles.users",
                [
                    .string("role", from: .path("roleName"), "a custom role"),
                    .table(
                        "options", "RoleUsersOptions",
                        fields: [
                            .boolean("load_roles", optional: true, from: .query("loadRoles"), "each record also gets roles: its custom roles"),
                            ArgumentDeclaration("query", .table("DataQuery", fields: queryFields), optional: true, from: .resolved("the Data service's query parameters"), "as data.users.find's"),
                        ],
                        optional: true, from: .none
                    ),
                ],
                routes: [
                    .get("/users/role/{roleName}", "The users holding a custom role, as Data service records (loadRoles, the Data service's query parameters)")
                        .resolving("options", .backendlessRoleUsersOptions)
                ],
                checks: [.fault, 2005, 2003, 19000, 1006], result: .value("DataRecord[]", "records"), misuse: .roleUsersOptions("options")
            ) { app, a throws(BackendlessError) in
                let options = RoleUsersOptions.of(a, "options")
                return .records(try app.roleUsers(role: a.string("role"), loadRoles: options.loadRoles, query: options.query))
            }
        case .dataSave:
            return declare(
                version: 4, lua: "data.users.save",
                [
                    .properties("record", from: .body, "without objectId: a new user (as users.register); with one: the changes"),
                    .string("token", optional: true, from: .header("user-token"), "a live session's user-token: then only its user may be changed"),
                ],
                routes: [
                    .put("/data/{table}", "Save a Users record: create, or update by the body's objectId (the JS SDK's save)")
                        .guarded(.backendlessUsersTable).resolving("record", .backendlessDataRecord).resolving("token", .nonEmptyText),
                    .post("/data/{table}", "Create a Users record (registers a user)")
                        .guarded(.backendlessUsersTable).resolving("record", .backendlessDataRecord).resolving("token", .nonEmptyText),
                    .put("/data/{table}/{objectId}", "Update a Users record", sources: ["record": .resolved("the body, with objectId from the path's {objectId}")])
                        .guarded(.backendlessUsersTable).resolving("record", .backendlessDataRecord).resolving("token", .nonEmptyText),
                ],
                checks: [.fault, 3064, 1000, 3029], result: .record("DataRecord", "record")
            ) { app, a throws(BackendlessError) in .record(try app.dataSave(a.properties("record"), token: a.optionalString("token"))) }
        case .dataFind:
            return declare(
                version: 4, lua: "data.users.find", [query],
                routes: [
                    .get("/data/{table}", "Find Users records (where, pageSize, offset, sortBy, props, excludeProps, distinct)", sources: ["query": .resolved("the query parameters")])
                        .guarded(.backendlessUsersTable).resolving("query", .backendlessQuery),
                    .post("/data/{table}/find", "Find Users records (the JS SDK's body: where, pageSize, offset, sortBy, props, excludeProps, distinct)")
                        .guarded(.backendlessUsersTable).resolving("query", .backendlessQuery),
                ],
                checks: [.fault, 19000, 1006], result: .value("DataRecord[]", "records"), misuse: .dataQuery("query")
            ) { app, a throws(BackendlessError) in .records(try app.dataFind(DataQuery.of(a, "query") ?? DataQuery())) }
        case .dataFindFirst:
            return declare(
                version: 4, lua: "data.users.find_first", [query],
                routes: [
                    .get("/data/Users/first", "The first Users record in find's order (1010 when there is none)", sources: ["query": .resolved("the query parameters")])
                        .resolving("query", .backendlessQuery).replying(.backendlessRecordOrEmptyStore)
                ],
                checks: [.fault, 19000, 1006], result: .optionalRecord("DataRecord"), misuse: .dataQuery("query")
            ) { app, a throws(BackendlessError) in .optional(try app.dataFindFirst(DataQuery.of(a, "query") ?? DataQuery())) }
        case .dataFindLast:
            return declare(
                version: 4, lua: "data.users.find_last", [query],
                routes: [
                    .get("/data/Users/last", "The last Users record in find's order (1010 when there is none)", sources: ["query": .resolved("the query parameters")])
                        .resolving("query", .backendlessQuery).replying(.backendlessRecordOrEmptyStore)
                ],
                checks: [.fault, 19000, 1006], result: .optionalRecord("DataRecord"), misuse: .dataQuery("query")
            ) { app, a throws(BackendlessError) in .optional(try app.dataFindLast(DataQuery.of(a, "query") ?? DataQuery())) }
        case .dataFindByID:
            return declare(
                version: 4, lua: "data.users.find_by_id", [.string("objectId", from: .path("objectId")), query],
                checks: [.fault, 1000, 1006], result: .record("DataRecord", "record"), misuse: .dataQuery("query")
            ) { app, a throws(BackendlessError) in .record(try app.dataFindByID(a.string("objectId"), DataQuery.of(a, "query"))) }
        case .dataCount:
            return declare(
                version: 4, lua: "data.users.count", [.string("where", optional: true, from: .bodyField("where"), "a where clause; all rows when absent")],
                routes: [
                    .get("/data/Users/count", "How many Users records match where (guests included)", sources: ["where": .query("where")])
                        .resolving("where", .nonEmptyText),
                    .post("/data/{table}/count", "How many Users records match where (the JS SDK's body)").guarded(.backendlessUsersTable)
                        .resolving("where", .nonEmptyText),
                ],
                checks: [.fault, 19000, 1006], result: .value("integer", "count")
            ) { app, a throws(BackendlessError) in .value(.int(Int64(try app.dataCount(a.optionalString("where"))))) }
        case .sendTemplate:
            return declare(
                version: 4, lua: "email.send_template",
                [
                    .string("name", from: .bodyField("template-name"), "the template's name"),
                    .table(
                        "envelope", "EmailEnvelope",
                        fields: [
                            ArgumentDeclaration("to", .strings, optional: true, from: .bodyField("addresses"), "the recipients"),
                            ArgumentDeclaration("cc", .strings, optional: true, from: .bodyField("cc-addresses"), "copied onto each email"),
                            ArgumentDeclaration("bcc", .strings, optional: true, from: .bodyField("bcc-addresses"), "copied onto each email"),
                            .string("query", optional: true, from: .bodyField("criteria"), "a where clause: the matching users' emails (to is ignored)"),
                            .boolean("unique_emails", optional: true, from: .bodyField("uniqueEmails"), "one email per address (without case)"),
                        ],
                        from: .body
                    ),
                    .properties("values", optional: true, from: .bodyField("template-values"), "fill each {var}"),
                ],
                routes: [
                    .post("/emailtemplate/send", "Send an email template to addresses or to the users a where clause finds")
                        .resolving("name", .textOrEmpty).resolving("envelope", .backendlessEmailEnvelope)
                        .resolving("values", .backendlessTemplateValuesObject).replying(.backendlessScheduled)
                ],
                checks: [.fault, 24002, 19000, 1006, 5048, 5047], result: .record("TemplateSending", "result")
            ) { app, a throws(BackendlessError) in
                .record(
                    try app.sendTemplate(
                        name: a.string("name"), envelope: EmailEnvelope(fields: a.fields("envelope") ?? [:]), values: a.optionalProperties("values")
                    )
                )
            }
        case .dataRemove:
            return declare(
                version: 4, lua: "data.users.remove", [.string("objectId", from: .path("objectId"))],
                checks: [.fault, 1000], result: .record("DataDeletion", "deletion")
            ) { app, a throws(BackendlessError) in .record(try app.dataRemove(a.string("objectId"))) }
        case .oauthURL:
            return declare(
                version: 4, lua: "oauth.authorization_url",
                [
                    .string("provider", from: .path("provider"), "any provider code (lower-cased in the URL)"),
                    .table(
                        "options", "AuthorizationURLOptions",
                        fields: [
                            ArgumentDeclaration(
                                "fields_mapping", .stringMap, optional: true, from: .bodyField("fieldsMapping"),
                                "provider profile field → user property (first login only)"
                            ),
                            ArgumentDeclaration("permissions", .strings, optional: true, from: .bodyField("permissions"), "the scopes asked of the provider (kept, not checked)"),
                            .string(
                                "redirect_after_login_url", optional: true, from: .bodyField("redirectAfterLoginUrl"),
                                "where the browser goes after the sign-in, with userId and userToken"
                            ),
                            .boolean(
                                "popup", optional: true, from: .none,
                                "the sign-in ends in a popup posting the session to its opener (wins over redirect_after_login_url)"
                            ),
                        ],
                        optional: true, from: .body
                    ),
                ],
                routes: [
                    .post(
                        "/users/social/oauth/{provider}/request_url",
                        "The provider's sign-in page URL for a popup (the JS SDK's loginWithFacebook, loginWithGooglePlus, loginWithTwitter)"
                    ).resolving("options.popup", .flag(true)).replying(.backendlessAuthorizationURL(redirects: false)),
                    .post(
                        "/users/oauth/{provider}/request_url",
                        "The provider's sign-in page URL (getAuthorizationUrlLink): a 302 to it unless redirect is false"
                    ).replying(.backendlessAuthorizationURL(redirects: true)),
                ],
                result: .value("string", "url")
            ) { app, a throws(BackendlessError) in
                .text(app.authorizationURL(provider: a.string("provider"), options: OAuthURLOptions(fields: a.fields("options"))))
            }
        case .oauthPage:
            return declare(
                version: 4, lua: nil, [.string("url", from: .resolved("the request's own URL"))],
                routes: [
                    .get(
                        "/users/oauth/{provider}/authorize",
                        "The stand-in provider's sign-in page (HTML): a button per scripted account, a form for any access token",
                        sources: ["url": .resolved("the request's own URL: its {provider} and ?state=")]
                    ).resolving("url", .requestURL).replying(.backendlessProviderPage)
                ],
                checks: [.fault, 3080], result: .http
            ) { app, a throws(BackendlessError) in .record(try app.providerPage(url: a.string("url"))) }
        case .oauthAuthorize:
            return declare(
                version: 4, lua: "oauth.authorize",
                [
                    .string("url", from: .resolved("the request's own URL"), "the sign-in page URL authorization_url made"),
                    .string("token", from: .bodyField("accessToken"), "the access token of a provider account (app.oauth.account)"),
                    .table(
                        "options", "OAuthAuthorizeOptions",
                        fields: [.string("secret", optional: true, from: .bodyField("accessTokenSecret"), "the OAuth1 token secret")],
                        optional: true, from: .body
                    ),
                ],
                routes: [
                    RouteDeclaration(
                        .post, "/users/oauth/{provider}/authorize", .form,
                        "The provider page's form (accessToken, accessTokenSecret): signs in, then the popup's page, a 302 to redirectAfterLoginUrl or the user",
                        sources: ["url": .resolved("the request's own URL: its {provider} and ?state=")]
                    ).resolving("url", .requestURL).replying(.backendlessSignInEnding)
                ],
                checks: [.fault, 3080, 3034, 3052, 3009, 3014, 3021, 3090, 3036], result: .record("OAuthSignIn", "signin")
            ) { app, a throws(BackendlessError) in
                .record(try app.authorize(url: a.string("url"), token: a.string("token"), secret: a.fields("options")?["secret"]?.stringValue))
            }
        case .verifyPassword:
            return declare(
                version: 2, lua: nil,
                routes: [
                    .post("/users/verifypassword", .none, "Verify a password (CloudCode only: 3122)"),
                    .post("/users/verifypassowrd", .none, "Verify a password, the JS SDK's spelling (CloudCode only: 3122)"),
                ],
                result: .http, answeredByAdapter: true
            ) { _, _ throws(BackendlessError) in throw .catalogue(3122) }
        case .messageStatus:
            return declare(
                version: 2, lua: "push.status", [.string("messageId", from: .path("messageId"))],
                routes: [
                    .get("/messaging/{messageId}", "The status of a published message").guarded(.liveUserToken)
                        .replying(.backendlessMessageStatus)
                ],
                result: .record("MessageStatus", "status")
            ) { app, a throws(BackendlessError) in .record(try app.messageStatus(a.string("messageId"))) }
        }
    }
}

extension CallArguments {
    /// The optional `key` argument of contract version 4's CloudCode calls (`"rest"`, `"cloudcode"`); nil when absent.
    fileprivate var apiKey: APIKeyKind? { optionalString("key").flatMap(APIKeyKind.init(rawValue:)) }
}

extension Value {
    /// A list's string items; nil for anything but a list.
    fileprivate var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }

    /// An object's member; nil for none or for another kind.
    fileprivate func member(_ name: String) -> Value? {
        guard case .object(let fields) = self else { return nil }
        return fields[name]
    }
}
