/// The declaration of every Kii operation: arguments by the contract's names, routes under `/api/apps/{appID}`,
/// the order of checks (docs/errors.md) and the result. See `OperationDeclaration`.
extension KiiOperation {
    package var declaration: OperationDeclaration { Self.declared[self]! }

    private static let declared: [KiiOperation: OperationDeclaration] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, $0.declare()) }
    )

    private func declare() -> OperationDeclaration {
        let user = ResultKind.record("KiiUser", "user")
        /// The user a `{user}` path segment names (`me`, a userID, `EMAIL:…`, `PHONE:…`, `LOGIN_NAME:…`).
        let userID = ArgumentDeclaration.string("userID", from: .resolved("the user the path's {user} names"))
        let installationID = ArgumentDeclaration.string("installationID", from: .path("installation"))
        func declare(
            version: Int = 1, lua: String?, _ arguments: [ArgumentDeclaration] = [], routes: [RouteDeclaration] = [],
            checks: [Check] = [.fault], result: ResultKind, answeredByAdapter: Bool = false, methodChecksFaults: Bool = false,
            misuse: MisuseCheck? = nil, performs method: KiiApp.Method? = nil
        ) -> OperationDeclaration {
            // An adapter-answered operation's faults are checked by the adapter, before the route's resolvers; a
            // method that other routes also call checks its own.
            let faultsChecked = !answeredByAdapter && !methodChecksFaults
            return OperationDeclaration(
                rawValue, .kii, version: version, lua: lua, arguments: arguments, routes: routes, checks: checks,
                result: result, answeredByAdapter: answeredByAdapter,
                perform: method.map {
                    KiiApp.performer(self, misuse: misuse, checkingFaults: faultsChecked, answeredByAdapter: answeredByAdapter, $0)
                }
            )
        }
        func checks(_ codes: String...) -> [Check] { [.fault] + codes.map(Check.kii) }
        // Contract v3's topics: `{scope}` is the app's (empty) or a user's (`users/{user}`).
        let topicScopes = ["", "/users/{user}"]
        let topicPath = "/topics/{topic}"
        let subscriptionPath = topicPath + "/push/subscriptions/users/{subscriber}"
        let topicID = ArgumentDeclaration.string("topicID", from: .path("topic"), "1-64 of A-Z a-z 0-9 _ -")
        let owner = ArgumentDeclaration.string(
            "owner", optional: true, from: .resolved("the userID the path's users/{user} names; absent for the app scope"),
            "the userID of a user-scope topic"
        )
        let subscriber = ArgumentDeclaration.string("userID", from: .path("subscriber"), "the subscribing user")
        /// Topic routes work out the scope's owner (and, with `mustOwn`, refuse a caller who is neither it nor the
        /// administrator) and, with `subscriber`, the subscribing user.
        func topics(_ routes: [RouteDeclaration], mustOwn: String? = nil, subscriber: Bool = false, reply: ReplyPresenter = .status(204)) -> [RouteDeclaration] {
            routes.map { route in
                let scoped = route.resolving("owner", .kiiTopicOwner(mustOwn: mustOwn)).replying(reply)
                return subscriber ? scoped.resolving("userID", .kiiSubscriber) : scoped
            }
        }
        switch self {
        case .register:
            return declare(
                lua: "users.register",
                [
                    .table(
                        "registration", "KiiRegistration",
                        fields: [
                            .string("username", optional: true, from: .bodyField("loginName")),
                            .string("email", optional: true, from: .bodyField("emailAddress")),
                            .string("phone", optional: true, from: .bodyField("phoneNumber")),
                            .string("country", optional: true, from: .bodyField("country")),
                            .string("password", from: .bodyField("password")),
                            .string("displayName", optional: true, from: .bodyField("displayName"), "1-50 characters (v4)"),
                            .string("locale", optional: true, from: .bodyField("locale"), "stored as given (v4)"),
                            .properties("fields", optional: true, from: .resolved("the body's other members"),
                                        "custom fields (v4): strings, numbers, booleans"),
                        ],
                        from: .body
                    )
                ],
                routes: [.post("/users", "Sign up a user (app credentials); 201 with the user record, no token")],
                checks: checks("INVALID_INPUT_DATA", "PASSWORD_TOO_SHORT", "INVALID_INPUT_DATA", "INVALID_INPUT_DATA", "USER_ALREADY_EXISTS", "RESOURCE_TEMPORARILY_UNAVAILABLE"),
                result: user
            )
        case .login:
            return declare(
                lua: "users.login",
                [
                    .string("identifier", from: .bodyField("username"), "username, email, +international or CC-local phone"),
                    .string("password", from: .bodyField("password")),
                ],
                routes: [
                    .post("/oauth2/token", "Log in (Basic app credentials): username and password for an access token"),
                    .post("/api/oauth2/token", "Log in (headers X-Kii-AppID and X-Kii-AppKey) for an access token", variant: "legacy"),
                ],
                checks: checks("invalid_grant"), result: .record("KiiSession", "session")
            ) { app, a throws(KiiError) in .record(try app.login(identifier: a.string("identifier"), password: a.string("password"))) }
        case .verifyEmail:
            return declare(
                lua: "users.verify_email", [userID, .string("code", from: .bodyField("verificationCode"))],
                routes: [
                    .post("/users/{user}/email-address/verify", "Verify the email address with its code")
                        .resolving("userID", .kiiOwner(appAllowed: true)).replying(.kiiVerified),
                    // The link in the email: no credentials, the code in the query.
                    .get("/users/{user}/email-address/verify", "The link of the verification email (?code=…)",
                         sources: ["code": .query("code")], variant: "link").resolving("userID", .kiiUser).replying(.kiiVerified),
                ],
                checks: checks("USER_NOT_FOUND", "USER_DISABLED", "INVALID_ACCOUNT_STATUS", "INVALID_VERIFICATION_CODE"),
                result: user
            ) { app, a throws(KiiError) in .record(try app.verifyEmail(userID: a.string("userID"), code: a.string("code"))) }
        case .verifyPhone:
            return declare(
                lua: "users.verify_phone", [userID, .string("code", from: .bodyField("verificationCode"))],
                routes: [
                    .post("/users/{user}/phone-number/verify", "Verify the phone number with the SMS code")
                        .resolving("userID", .kiiOwner(appAllowed: true)).replying(.kiiVerified)
                ],
                checks: checks(
                    "USER_NOT_FOUND", "USER_DISABLED", "INVALID_ACCOUNT_STATUS", "INVALID_VERIFICATION_CODE",
                    "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED"
                ),
                result: user
            ) { app, a throws(KiiError) in .record(try app.verifyPhone(userID: a.string("userID"), code: a.string("code"))) }
        case .changeEmail:
            return declare(
                lua: "users.change_email", [userID, .string("email", from: .bodyField("emailAddress"))],
                routes: [
                    // `verified: true` is the administrator's, whom the emulator does not have (401).
                    .put("/users/{user}/email-address", "Change the email address (pending until verified)")
                        .resolving("userID", .kiiOwner(appAllowed: false)).resolving("email", .kiiUnverifiedAddress).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "INVALID_INPUT_DATA", "USER_ALREADY_EXISTS"), result: user
            ) { app, a throws(KiiError) in .record(try app.changeEmail(userID: a.string("userID"), email: a.string("email"))) }
        case .changePhone:
            return declare(
                lua: "users.change_phone",
                [
                    userID, .string("phone", from: .bodyField("phoneNumber")),
                    .string("country", optional: true, from: .bodyField("country"), "to read a local number"),
                ],
                routes: [
                    .put("/users/{user}/phone-number", "Change the phone number (pending until verified)")
                        .resolving("userID", .kiiOwner(appAllowed: false)).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "INVALID_INPUT_DATA", "USER_ALREADY_EXISTS"), result: user
            ) { app, a throws(KiiError) in
                .record(try app.changePhone(userID: a.string("userID"), phone: a.string("phone"), country: a.optionalString("country")))
            }
        case .getUser:
            // Contract v4: `GET users/{user}` is users.lookup's route (the reader's view); users.get is the console's.
            return declare(lua: "users.get", [userID], result: .optionalRecord("KiiUser")) { app, a throws(KiiError) in
                .optional(try app.getUser(userID: a.string("userID")))
            }
        case .lookup:
            return declare(
                version: 4, lua: "users.lookup",
                [
                    .string("identifier", from: .path("user"), "a userID, LOGIN_NAME:/EMAIL:/PHONE: forms, a username, email or +phone"),
                    .string("token", from: .header("Authorization"), "an access token: the user's, another user's or an administrator's"),
                ],
                routes: [
                    .get("/users/{user}", "A user's record: full for its own token and the administrator, else {userID, loginName?, displayName?}")
                        .resolving("identifier", .kiiAnyUser).resolving("token", .bearerTokenIfAny).replying(.kiiUserView)
                ],
                checks: checks("UNAUTHORIZED", "WRONG_TOKEN", "USER_NOT_FOUND"), result: .record("KiiUser", "user")
            ) { app, a throws(KiiError) in
                // Over HTTP app credentials send no token: an anonymous app (the presenter shows the administrator
                // by its credentials the full record).
                let viewer = a.optionalString("token").map(KiiViewer.token) ?? .anonymous
                return .record(try app.lookup(identifier: a.string("identifier"), viewer: viewer))
            }
        case .loginSocial, .linkSocial, .unlinkSocial:
            let provider = ArgumentDeclaration.string(
                "provider", from: .path("provider"), "facebook, twitter, google, qq or renren (without case)"
            )
            let options = ArgumentDeclaration.table(
                "options", "KiiSocialOptions",
                fields: [
                    .string("secret", optional: true, from: .bodyField("accessTokenSecret"), "twitter only"),
                    .string("open_id", optional: true, from: .bodyField("openID"), "qq only"),
                ],
                optional: true, from: .body
            )
            let session = ArgumentDeclaration.string("token", from: .header("Authorization"), "the user's access token")
            /// Over HTTP the resolvers give a known provider and only its own option.
            let socialRoute = { (route: RouteDeclaration) in
                route.resolving("provider", .kiiProvider).resolving("options", .kiiSocialOptions)
            }
            switch self {
            case .loginSocial:
                return declare(
                    version: 4, lua: "users.login_social",
                    [provider, .string("token", from: .bodyField("accessToken"), "the provider's access token"), options],
                    routes: [
                        socialRoute(.post("/integration/{provider}", "Sign in with a provider's token (app credentials): {id, access_token, expires_in, token_type, new_user_created}"))
                            .guarded(.credentials).replying(.kiiSocialLogin)
                    ],
                    checks: checks("invalid_grant", "invalid_grant"), result: .record("KiiSocialLogin", "login"),
                    misuse: KiiSocialProvider.misuse
                ) { app, a throws(KiiError) in
                    let (provider, secret, openID) = try KiiSocialProvider.read(a)
                    return .record(try app.loginSocial(provider: provider, token: a.string("token"), secret: secret, openID: openID))
                }
            case .linkSocial:
                return declare(
                    version: 4, lua: "users.link_social",
                    [session, provider, .string("provider_token", from: .bodyField("accessToken"), "the provider's access token"), options],
                    routes: [
                        socialRoute(.post("/users/{user}/{provider}/link", "Link the user to the provider account of the token (204)").resolving("token", .kiiOwnToken))
                            .replying(.status(204))
                    ],
                    checks: checks("UNAUTHORIZED", "WRONG_TOKEN", "INVALID_INPUT_DATA", "FACEBOOK_USER_ALREADY_LINKED", "USER_ALREADY_LINKED"),
                    result: user, misuse: KiiSocialProvider.misuse
                ) { app, a throws(KiiError) in
                    let (provider, secret, openID) = try KiiSocialProvider.read(a)
                    return .record(
                        try app.linkSocial(
                            token: a.string("token"), provider: provider, providerToken: a.string("provider_token"), secret: secret, openID: openID
                        )
                    )
                }
            default:
                return declare(
                    version: 4, lua: "users.unlink_social", [session, provider],
                    routes: [
                        RouteDeclaration.post("/users/{user}/{provider}/unlink", .none, "Unlink the user from the provider (204)")
                            .resolving("token", .kiiOwnToken).resolving("provider", .kiiProvider).replying(.status(204))
                    ],
                    checks: checks("UNAUTHORIZED", "WRONG_TOKEN", "USER_NOT_LINKED"), result: user, misuse: KiiSocialProvider.misuse
                ) { app, a throws(KiiError) in
                    .record(try app.unlinkSocial(token: a.string("token"), provider: try KiiSocialProvider.read(a).provider))
                }
            }
        case .loginMFA:
            // Over HTTP: the `mfa` grant of `oauth2/token`, which the login route hands over.
            return declare(
                version: 4, lua: "users.login_mfa",
                [
                    .table(
                        "grant", "KiiMFAGrant",
                        fields: [
                            .string("totp_code", optional: true, from: .bodyField("totp_code")),
                            .string("recovery_code", optional: true, from: .bodyField("recovery_code")),
                        ],
                        from: .body
                    )
                ],
                checks: checks("invalid_grant"), result: .record("KiiSession", "session"),
                misuse: MisuseCheck { a throws(CallMisuse) in
                    let grant = a.fields("grant") ?? [:]
                    guard (grant["totp_code"] == nil) != (grant["recovery_code"] == nil) else {
                        throw CallMisuse("login_mfa needs exactly one of totp_code and recovery_code")
                    }
                }
            ) { app, a throws(KiiError) in
                let grant = a.fields("grant") ?? [:]
                try app.loginMFA(totpCode: grant["totp_code"]?.stringValue, recoveryCode: grant["recovery_code"]?.stringValue)
            }
        case .resendEmailVerification:
            return declare(
                lua: "users.resend_email_verification", [userID],
                routes: [
                    .post("/users/{user}/email-address/resend-verification", .none, "Send the verification email again")
                        .resolving("userID", .kiiOwner(appAllowed: false)).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "INVALID_ACCOUNT_STATUS"), result: .true
            ) { app, a throws(KiiError) in
                try app.resendEmailVerification(userID: a.string("userID"))
                return .done
            }
        case .resendPhoneVerification:
            return declare(
                lua: "users.resend_phone_verification", [userID],
                routes: [
                    .post("/users/{user}/phone-number/resend-verification", .none, "Text a new verification code")
                        .resolving("userID", .kiiOwner(appAllowed: false)).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "INVALID_ACCOUNT_STATUS"), result: .true
            ) { app, a throws(KiiError) in
                try app.resendPhoneVerification(userID: a.string("userID"))
                return .done
            }
        case .requestPasswordReset:
            return declare(
                version: 2, lua: "users.request_password_reset",
                [
                    .string("identifier", from: .resolved("the user the path's {user} names")),
                    .oneOf("method", ["EMAIL", "SMS", "SMS_PIN"], optional: true,
                           from: .bodyField("notificationMethod"), "default \"EMAIL\"").defaulting(to: "EMAIL"),
                ],
                routes: [
                    .post("/users/{user}/password/request-reset", "Request a password reset: email link, SMS link or SMS PIN (204)")
                        .guarded(.credentials, .readsBody).resolving("identifier", .kiiIdentifier)
                        .resolving("method", .kiiResetMethod).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "USER_DISABLED", "INVALID_STATUS"), result: .true
            ) { app, a throws(KiiError) in
                let method = a.optionalString("method").flatMap(KiiResetMethod.init(rawValue:)) ?? .email
                try app.requestPasswordReset(identifier: a.string("identifier"), method: method)
                return .done
            }
        case .completePasswordReset:
            return declare(
                version: 2, lua: "users.complete_password_reset",
                [
                    .string("identifier", from: .resolved("the user the path's {user} names")),
                    .string("pin", from: .bodyField("pinCode")),
                    .string("new_password", from: .bodyField("newPassword")),
                ],
                routes: [
                    .post("/users/{user}/password/complete-reset", "Complete a reset with the SMS PIN and a new password (204)")
                        .guarded(.credentials, .readsBody).resolving("identifier", .kiiIdentifier)
                        .resolving("pin", .kiiTextOrEmpty).resolving("new_password", .kiiTextOrEmpty).replying(.status(204))
                ],
                checks: checks(
                    "USER_NOT_FOUND", "USER_DISABLED", "INVALID_INPUT_DATA", "INVALID_INPUT_DATA", "PASSWORD_TOO_SHORT",
                    "INVALID_INPUT_DATA", "INVALID_VERIFICATION_CODE", "PIN_CODE_EXPIRED"
                ),
                result: .true
            ) { app, a throws(KiiError) in
                try app.completePasswordReset(identifier: a.string("identifier"), pin: a.string("pin"), newPassword: a.string("new_password"))
                return .done
            }
        case .openResetLink:
            return declare(
                version: 2, lua: "users.open_reset_link", [.string("link", from: .query("code"), "the reset link (over HTTP its code)")],
                routes: [
                    .get("/password-reset", "The page a reset link opens (?code=…): a new password is set and sent")
                        .resolving("link", .textOrEmpty).replying(.kiiResetLinkPage)
                ],
                checks: checks("USER_NOT_FOUND", "USER_DISABLED"), result: .true
            ) { app, a throws(KiiError) in
                _ = try app.openResetLink(a.string("link"))
                return .done
            }
        case .changePassword:
            return declare(
                version: 2, lua: "users.change_password",
                [userID, .string("old_password", from: .bodyField("oldPassword")), .string("new_password", from: .bodyField("newPassword"))],
                routes: [
                    .put("/users/{user}/password", "Change the password with the old one (204); the user's tokens end")
                        .resolving("userID", .kiiOwner(appAllowed: false)).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND", "WRONG_PASSWORD", "PASSWORD_TOO_SHORT", "INVALID_INPUT_DATA"), result: .true
            ) { app, a throws(KiiError) in
                try app.changePassword(userID: a.string("userID"), oldPassword: a.string("old_password"), newPassword: a.string("new_password"))
                return .done
            }
        case .updateUser:
            return declare(
                version: 2, lua: "users.update", [userID, .properties("fields", from: .body, "the fields to set")],
                routes: [.post("/users/{user}", "Update the user's fields (Kii's merge rule: custom fields not sent are deleted)")],
                checks: checks("USER_NOT_FOUND", "INVALID_INPUT_DATA", "USER_ALREADY_EXISTS"), result: user
            ) { app, a throws(KiiError) in .record(try app.update(userID: a.string("userID"), fields: a.properties("fields"))) }
        case .deleteUser:
            return declare(
                version: 2, lua: "users.delete", [userID],
                routes: [
                    .delete("/users/{user}", "Delete the user (204): tokens end, identifiers free, installations removed")
                        .resolving("userID", .kiiOwner(appAllowed: true)).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND"), result: .true
            ) { app, a throws(KiiError) in
                try app.delete(userID: a.string("userID"))
                return .done
            }
        case .setDisabled:
            return declare(
                version: 2, lua: "users.set_disabled", [userID, .boolean("disabled", from: .bodyField("disabled"))],
                routes: [
                    .put("/users/{user}/status", "Disable or re-enable a user (app credentials; 204)")
                        .guarded(.appCredentials).resolving("userID", .kiiAnyUser).replying(.status(204))
                ],
                checks: checks("USER_NOT_FOUND"), result: user
            ) { app, a throws(KiiError) in .record(try app.setDisabled(userID: a.string("userID"), disabled: a.bool("disabled"))) }
        case .me:
            return declare(
                version: 2, lua: "users.me", [.string("token", from: .resolved("the Authorization: Bearer token"))],
                routes: [.get("/users/me", "The record of the access token's user").resolving("token", .bearerToken)],
                checks: checks("WRONG_TOKEN"), result: user
            ) { app, a throws(KiiError) in .record(try app.me(token: a.string("token"))) }
        case .registerInstallation:
            return declare(
                version: 2, lua: "installations.register",
                [
                    .table(
                        "registration", "InstallationRequest",
                        fields: [
                            .string("user", from: .bodyField("userID"), "the userID (over HTTP, the token's user by default)")
                                .worded(FieldMisuse(required: "the userID", luaTypeNames: true)),
                            // Another type is the domain's 400 INVALID_INPUT_DATA, from Lua as over HTTP.
                            .oneOf("type", ["ANDROID", "IOS", "JPUSH", "MQTT"], from: .bodyField("deviceType"))
                                .worded(FieldMisuse(required: "\"ANDROID\", \"IOS\", \"JPUSH\" or \"MQTT\"", luaTypeNames: true, domainChecksChoices: true)),
                            .string("token", optional: true, from: .bodyField("installationRegistrationID"),
                                    "required for ANDROID, IOS and JPUSH").worded(FieldMisuse(luaTypeNames: true)),
                            .boolean("development", optional: true, from: .bodyField("development")),
                        ],
                        from: .body
                    )
                ],
                routes: [
                    .post("/installations", "Register a device for push (201); the same type and registration id moves to the new owner")
                        .resolving("registration", .kiiInstallationRequest).replying(.kiiInstallationCreated)
                ],
                checks: checks("USER_NOT_FOUND", "INVALID_INPUT_DATA", "INVALID_INPUT_DATA"), result: .record("Installation", "installation"),
                methodChecksFaults: true
            ) { app, a throws(KiiError) in
                let registration = a.fields("registration") ?? [:]
                var development = false
                if case .bool(let flag)? = registration["development"] { development = flag }
                return .record(
                    try app.registerInstallation(
                        userID: registration["user"]?.stringValue ?? "", type: registration["type"]?.stringValue ?? "",
                        token: registration["token"]?.stringValue, development: development
                    )
                )
            }
        case .getInstallation:
            return declare(
                version: 2, lua: "installations.get", [installationID],
                routes: [
                    .get("/installations/{installation}", "An installation by id, or by {deviceType}:{registrationID}")
                        .resolving("installationID", .kiiInstallation)
                        .replying(.mediaType("application/vnd.kii.InstallationRetrievalResponse+json"))
                ],
                result: .optionalRecord("Installation"), answeredByAdapter: true
            ) { app, a throws(KiiError) in .optional(app.installation(id: a.string("installationID"))) }
        case .listInstallations:
            return declare(
                version: 2, lua: "installations.list", [.string("userID", from: .none)],
                result: .value("Installation[]", "installations"), answeredByAdapter: true
            ) { app, a throws(KiiError) in .records(app.installations(userID: a.string("userID")).map { $0 as any Presentable }) }
        case .unregisterInstallation:
            return declare(
                version: 2, lua: "installations.unregister", [installationID],
                routes: [
                    .delete("/installations/{installation}", "Delete an installation by id, or by {deviceType}:{registrationID} (204)")
                        .resolving("installationID", .kiiInstallation).replying(.status(204))
                ],
                checks: checks("INSTALLATION_NOT_FOUND"), result: .true
            ) { app, a throws(KiiError) in
                try app.unregisterInstallation(id: a.string("installationID"))
                return .done
            }
        case .sendToUser:
            return declare(
                version: 2, lua: "push.send_to_user",
                [
                    .table(
                        "push", "{ user: string, message: string }",
                        fields: [.string("user", from: .none, "the userID"), .string("message", from: .none)], from: .none
                    )
                ],
                checks: checks("USER_NOT_FOUND"), result: .value("{ delivered: string[] }", "result")
            ) { app, a throws(KiiError) in
                let push = a.fields("push") ?? [:]
                let delivered = try app.sendToUser(userID: push["user"]?.stringValue ?? "", message: push["message"]?.stringValue ?? "")
                return .value(.object(["delivered": .array(delivered.map(Value.string))]))
            }
        case .userStatus:
            return declare(
                version: 2, lua: nil, [.string("userID", from: .path("user"), "as the path names the user")],
                routes: [.get("/users/{user}/status", "Whether the user is disabled").resolving("userID", .kiiOwner(appAllowed: true))],
                result: .http, answeredByAdapter: true
            ) { app, a throws(KiiError) in
                guard let user = app.user(userID: a.string("userID")) else { throw .userNotFound(a.string("userID")) }
                return .value(.object(["disabled": .bool(user.disabled)]))
            }
        case .registerPseudo:
            // Over HTTP: `POST users` with `RegistrationAndAuthorizationRequest` and no credentials, which the sign-up
            // route hands over (a route has one operation: this one has none of its own).
            return declare(
                version: 3, lua: "users.register_pseudo",
                [.properties("fields", optional: true, from: .body, "displayName, country, locale and custom fields")],
                checks: checks("INVALID_INPUT_DATA", "RESOURCE_TEMPORARILY_UNAVAILABLE"), result: user, methodChecksFaults: true
            ) { app, a throws(KiiError) in .record(try app.registerPseudo(fields: a.properties("fields"))) }
        case .putIdentity:
            // Over HTTP: `POST users/{user}` holding a `password`, which the update route hands over.
            return declare(
                version: 3, lua: "users.put_identity",
                [
                    .string("token", from: .resolved("the Authorization: Bearer token")),
                    .table(
                        "identity", "KiiIdentity",
                        fields: [
                            .string("username", optional: true, from: .bodyField("loginName")),
                            .string("email", optional: true, from: .bodyField("emailAddress")),
                            .string("phone", optional: true, from: .bodyField("phoneNumber")),
                            .string("country", optional: true, from: .bodyField("country")),
                            .string("password", optional: true, from: .bodyField("password"), "required (400 when absent)"),
                            .properties("fields", optional: true, from: .resolved("the body's other members"),
                                        "replaces the custom fields (the update merge rule); absent keeps them"),
                        ],
                        from: .body
                    ),
                ],
                checks: checks("WRONG_TOKEN", "INVALID_STATUS", "INVALID_INPUT_DATA", "PASSWORD_TOO_SHORT", "USER_ALREADY_EXISTS"),
                result: user
            )
        case .createTopic:
            return declare(
                version: 3, lua: "topics.create", [topicID, owner],
                routes: topics(
                    RouteDeclaration.scoped(topicScopes, RouteDeclaration(.put, topicPath, .none, "Create a topic (204): app scope by the administrator, user scope by its owner")),
                    mustOwn: "create the topic"
                ),
                checks: checks("INVALID_INPUT_DATA", "USER_NOT_FOUND", "TOPIC_ALREADY_EXISTS"), result: .record("KiiTopic", "topic")
            ) { app, a throws(KiiError) in .record(try app.createTopic(topicID: a.string("topicID"), owner: a.optionalString("owner"))) }
        case .deleteTopic:
            return declare(
                version: 3, lua: "topics.delete", [topicID, owner],
                routes: topics(RouteDeclaration.scoped(topicScopes, .delete(topicPath, "Delete a topic and its subscriptions (204)")), mustOwn: "delete the topic"),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND"), result: .true
            ) { app, a throws(KiiError) in
                try app.deleteTopic(topicID: a.string("topicID"), owner: a.optionalString("owner"))
                return .done
            }
        case .listTopics:
            return declare(
                version: 3, lua: "topics.list", [owner],
                routes: topics(
                    RouteDeclaration.scoped(topicScopes, .get("/topics", "The topics of the scope, in byte order: {\"topics\":[{\"topicID\"}]}")),
                    reply: .kiiTopicList
                ),
                checks: checks("USER_NOT_FOUND"), result: .value("string[]", "topicIDs")
            ) { app, a throws(KiiError) in .value(.array(try app.listTopics(owner: a.optionalString("owner")).map(Value.string))) }
        case .subscribe:
            return declare(
                version: 3, lua: "topics.subscribe", [topicID, subscriber, owner],
                routes: topics(
                    RouteDeclaration.scoped(topicScopes, RouteDeclaration(.put, subscriptionPath, .none, "Subscribe the user to the topic (204)"))
                    + RouteDeclaration.scoped(
                        topicScopes,
                        .post(topicPath + "/push/subscriptions/users", .none, "Subscribe the token's user to the topic (204)",
                              sources: ["userID": .resolved("the token's user")])
                    ),
                    subscriber: true
                ),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND", "UNAUTHORIZED", "PUSH_SUBSCRIPTION_ALREADY_EXISTS"),
                result: .true
            ) { app, a throws(KiiError) in
                try app.subscribe(topicID: a.string("topicID"), userID: a.string("userID"), owner: a.optionalString("owner"))
                return .done
            }
        case .unsubscribe:
            return declare(
                version: 3, lua: "topics.unsubscribe", [topicID, subscriber, owner],
                routes: topics(RouteDeclaration.scoped(topicScopes, .delete(subscriptionPath, "Unsubscribe the user (204)")), subscriber: true),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND", "PUSH_SUBSCRIPTION_NOT_FOUND"), result: .true
            ) { app, a throws(KiiError) in
                try app.unsubscribe(topicID: a.string("topicID"), userID: a.string("userID"), owner: a.optionalString("owner"))
                return .done
            }
        case .isSubscribed:
            return declare(
                version: 3, lua: "topics.is_subscribed", [topicID, subscriber, owner],
                routes: topics(
                    RouteDeclaration.scoped(topicScopes, .get(subscriptionPath, "204 when the user subscribes, else 404 PUSH_SUBSCRIPTION_NOT_FOUND")),
                    subscriber: true, reply: .kiiSubscribedOrNotFound
                ),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND"), result: .value("boolean", "subscribed")
            ) { app, a throws(KiiError) in
                .value(.bool(try app.isSubscribed(topicID: a.string("topicID"), userID: a.string("userID"), owner: a.optionalString("owner"))))
            }
        case .sendToTopic:
            return declare(
                version: 3, lua: "topics.send",
                [
                    topicID,
                    .table(
                        "message", "KiiTopicMessage",
                        fields: [
                            ArgumentDeclaration("data", .any, from: .bodyField("data"), "flat strings"),
                            .boolean("development", optional: true, from: .bodyField("sendToDevelopment"), "default true"),
                            .boolean("production", optional: true, from: .bodyField("sendToProduction"), "default true"),
                            ArgumentDeclaration(
                                "networks", .strings, optional: true,
                                from: .resolved("the gcm/fcm (ANDROID), apns (IOS), jpush and mqtt blocks with enabled: true"),
                                "default all four"
                            ),
                            .string("sender", optional: true, from: .resolved("the token's user"), "a userID the topic's ACL lets send (v4)"),
                        ],
                        from: .body
                    ),
                    owner,
                ],
                routes: RouteDeclaration.scoped(topicScopes, .post(topicPath + "/push/messages", "Send a push message to the topic's subscribers (201 {\"pushMessageID\"})")),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND", "USER_NOT_FOUND", "UNAUTHORIZED", "INVALID_INPUT_DATA"),
                result: .value("{ pushMessageID: string, delivered: string[] }", "result")
            )
        case .topicExists:
            return declare(
                version: 3, lua: nil, [topicID, owner],
                routes: (
                    RouteDeclaration.scoped(topicScopes, RouteDeclaration(.head, topicPath, .none, "Whether the topic exists (200, or 404 with no body)"))
                        + RouteDeclaration.scoped(topicScopes, .get(topicPath, "Whether the topic exists (200 {} or 404 TOPIC_NOT_FOUND)"))
                ).map { $0.resolving("owner", .kiiTopicOwner(mustOwn: nil)) },
                result: .http, answeredByAdapter: true
            ) { app, a throws(KiiError) in
                // A HEAD reply carries no body (`VendorAdapter`).
                guard app.topicExists(topicID: a.string("topicID"), owner: a.optionalString("owner")) else {
                    throw .topicNotFound(a.string("topicID"))
                }
                return .value(.object([:]))
            }
        case .mqttEndpoint:
            return declare(
                version: 4, lua: "installations.mqtt_endpoint", [installationID],
                routes: [
                    .get("/installations/{installation}/mqtt-endpoint", "The installation's MQTT broker endpoint (200, header X-MQTT-TTL): owner's token or the administrator")
                        .resolving("installationID", .kiiInstallation).replying(.kiiMqttEndpoint)
                ],
                checks: checks("INSTALLATION_NOT_FOUND", "MQTT_ENDPOINT_NOT_FOUND"), result: .record("KiiMqttEndpoint", "endpoint")
            ) { app, a throws(KiiError) in .record(try app.mqttEndpoint(installationID: a.string("installationID"))) }
        case .topicACL:
            return declare(
                version: 4, lua: "topics.acl", [topicID, owner],
                routes: topics(
                    RouteDeclaration.scoped(topicScopes, .get(topicPath + "/acl", "The topic's ACL: {\"SUBSCRIBE_TO_TOPIC\": [{\"userID\"}|{\"groupID\"}|{\"thingID\"}], \"SEND_MESSAGE_TO_TOPIC\": [...]}")),
                    mustOwn: "read the topic's ACL", reply: .kiiTopicACL
                ),
                checks: checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND"), result: .record("KiiTopicACL", "acl")
            ) { app, a throws(KiiError) in .record(try app.topicACL(topicID: a.string("topicID"), owner: a.optionalString("owner"))) }
        case .grantTopic, .revokeTopic:
            let grant = self == .grantTopic
            let path = topicPath + "/acl/{action}/{subject}"
            return declare(
                version: 4, lua: grant ? "topics.grant" : "topics.revoke",
                [
                    topicID,
                    .oneOf("action", KiiTopicAction.allCases.map(\.rawValue), from: .path("action")),
                    .string("subject", from: .path("subject"), "UserID:{id}, GroupID:{id}, ThingID:{id}, UserID:ANY_AUTHENTICATED_USER"),
                    owner,
                ],
                routes: topics(
                    RouteDeclaration.scoped(
                        topicScopes,
                        grant
                            ? RouteDeclaration(.put, path, .none, "Grant the subject the action on the topic (204)")
                            : .delete(path, "Revoke the subject's action on the topic (204)")
                    ),
                    mustOwn: "change the topic's ACL"
                ),
                checks: grant
                    ? checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND", "INVALID_INPUT_DATA", "USER_NOT_FOUND", "GROUP_NOT_FOUND", "ACL_ALREADY_EXISTS")
                    : checks("USER_NOT_FOUND", "TOPIC_NOT_FOUND", "INVALID_INPUT_DATA", "ACL_NOT_FOUND"),
                result: .true
            ) { app, a throws(KiiError) in
                // Lua refuses another action as misuse (`oneOf`); over HTTP the path's is 400 naming `action`.
                let name = a.string("action")
                guard let action = KiiTopicAction(rawValue: name) else {
                    throw .invalidInput(
                        field: "action", value: String(name.prefix(64)),
                        message: "action must be SUBSCRIBE_TO_TOPIC or SEND_MESSAGE_TO_TOPIC, got \(name.prefix(64))"
                    )
                }
                let (topicID, subject, owner) = (a.string("topicID"), a.string("subject"), a.optionalString("owner"))
                if grant {
                    try app.grantTopic(topicID: topicID, action: action, subject: subject, owner: owner)
                } else {
                    try app.revokeTopic(topicID: topicID, action: action, subject: subject, owner: owner)
                }
                return .done
            }
        case .groupsMemberOf:
            return declare(
                version: 4, lua: "groups.member_of",
                [.string("userID", from: .query("is_member"), "the member (GET groups?owner= lists the groups a user owns: groups.owned_by)")],
                routes: [
                    RouteDeclaration.get("/groups", "The groups of ?is_member={userID} (or ?owner={userID}): {\"groups\": [{\"groupID\", \"name\", \"owner\"}]}"),
                    RouteDeclaration.get("/groups/", "The same (the JavaScript SDK's path)"),
                ].map {
                    // A route names one operation: with `?owner=` it answers groups.owned_by, which declares none.
                    $0.resolving("userID", ArgumentResolver.kiiOwnUserID).replying(ReplyPresenter.kiiGroupList)
                        .handingOver(to: KiiOperation.groupsOwnedBy.rawValue, when: .query("owner"), sources: ["userID": .query("owner")])
                },
                checks: checks("USER_NOT_FOUND"), result: .value("KiiGroupSummary[]", "groups")
            ) { app, a throws(KiiError) in .records(try app.groupsMemberOf(userID: a.string("userID")).map { $0 as any Presentable }) }
        case .groupsOwnedBy:
            return declare(
                version: 4, lua: "groups.owned_by", [.string("userID", from: .query("owner"), "the owner")],
                checks: checks("USER_NOT_FOUND"), result: .value("KiiGroupSummary[]", "groups")
            ) { app, a throws(KiiError) in .records(try app.groupsOwnedBy(userID: a.string("userID")).map { $0 as any Presentable }) }
        }
    }
}
