extension KiiError {
    /// A catalogue entry made from the error the domain answers with: its status, code and message are the
    /// error's own (a `%s` argument stands for the field or value it names), so the catalogue cannot drift.
    private static func entry(
        _ error: KiiError, when: String, _ operations: [KiiOperation] = [], settings: [String] = [],
        reach: ErrorCatalogue.Reach = .lua, version: Int = 1
    ) -> ErrorCatalogue.Entry {
        ErrorCatalogue.Entry(
            .kii, error.code, status: error.status, message: error.message, when: when,
            operations: operations.map(\.rawValue), settings: settings, reach: reach, version: version
        )
    }

    /// An error only the HTTP routes build; its message here is checked by running its curl example.
    private static func httpOnly(_ status: Int, _ code: String, _ message: String, when: String, version: Int = 1) -> ErrorCatalogue.Entry {
        entry(KiiError(status: status, code: code, message: message), when: when, reach: .httpOnly, version: version)
    }

    /// Every `errorCode` the Kii flavour answers: what `understudy explain` shows and what `understudy run --codes`
    /// counts. Messages are the errors' own; a code with several messages shows one (`INVALID_INPUT_DATA` names
    /// the field and its rule in each, see docs/errors.md).
    package static let catalogueEntries: [ErrorCatalogue.Entry] = [
        entry(noIdentifier,
              when: "a field breaks its rule (the message and field name it: loginName, emailAddress, country, phoneNumber, password), no identifier, a verification combination the settings forbid, a landline phone number; an empty reset PIN or a new password equal to the old; a refused update field; an unknown installation deviceType or a bad token",
              [.register, .changeEmail, .changePhone, .completePasswordReset, .changePassword, .updateUser, .registerInstallation,
               .registerPseudo, .putIdentity, .createTopic, .sendToTopic, .grantTopic, .revokeTopic, .linkSocial],
              settings: ["email_verification", "phone_verification"]),
        entry(passwordTooShort, when: "a password shorter than 4 characters", [.register, .completePasswordReset, .changePassword, .putIdentity]),
        entry(userAlreadyExists(field: "%s", value: "%s"),
              when: "username, email or phone already taken, including another user's pending address (field = loginName, emailAddress or phoneNumber)",
              [.register, .changeEmail, .changePhone, .updateUser, .putIdentity]),
        entry(invalidGrant, when: "login with an unknown identifier, a wrong password, or an address not yet verified",
              [.login, .loginSocial, .loginMFA], settings: ["email_verification", "phone_verification"]),
        entry(userNotFound("%s"),
              when: "verify, change, resend and the version 2 user calls on an unknown user (a reset names the identifier's field); open_reset_link with an unknown, used or replaced link",
              [.verifyEmail, .verifyPhone, .changeEmail, .changePhone, .resendEmailVerification, .resendPhoneVerification,
               .requestPasswordReset, .completePasswordReset, .openResetLink, .changePassword, .updateUser, .deleteUser,
               .setDisabled, .registerInstallation, .sendToUser, .createTopic, .deleteTopic, .listTopics, .subscribe,
               .unsubscribe, .isSubscribed, .sendToTopic, .topicACL, .grantTopic, .revokeTopic, .groupsMemberOf,
               .groupsOwnedBy, .lookup]),
        entry(invalidVerificationCode("%s", accountType: "%s"),
              when: "a wrong verification code (the right one keeps working); a wrong or unrequested reset PIN (`The PIN code %s is not valid ...`)",
              [.verifyEmail, .verifyPhone, .completePasswordReset], settings: ["email_verification", "phone_verification"]),
        entry(invalidAccountStatus(accountType: "%s"), when: "verifying or resending when nothing waits for verification",
              [.verifyEmail, .verifyPhone, .resendEmailVerification, .resendPhoneVerification]),
        entry(phoneCodeExpired(ttl: 86_400), when: "the right SMS code, more than sms_code_ttl seconds after it was sent",
              [.verifyPhone], settings: ["phone_verification", "sms_code_ttl"]),
        entry(capacityReached(5_000_000), when: "by app.faults.inject; also when a backend already holds 5 000 000 users",
              KiiOperation.allCases, reach: .injectionOnly),
        entry(notTopicOwner(topicID: "%s", userID: "%s"),
              when: "topics.subscribe of a user to another user's user-scope topic; over HTTP also a token this app never issued, missing or wrong credentials, a token acting for another user, a non-admin creating an app-scope topic or a non-owner sending (the message says which)",
              [.subscribe, .sendToTopic, .lookup, .linkSocial, .unlinkSocial]),
        httpOnly(404, "APP_NOT_FOUND", "The application %s was not found", when: "over HTTP only: no Kii app is served under the path's app id"),
        httpOnly(400, "ACCOUNT_TYPE_NOT_SUPPORTED", "The account type %s is not supported; use EMAIL, PHONE or LOGIN_NAME",
                 when: "over HTTP only: a {user} with a prefix other than EMAIL:, PHONE:, LOGIN_NAME:"),
        httpOnly(400, "unsupported_grant_type", "The grant_type %s is not supported by the emulator; use password",
                 when: "over HTTP only: a login with a grant_type other than password"),
        httpOnly(400, "INVALID_JSON", "Could not parse request with message: %s", when: "over HTTP only: a body that is not JSON"),
        httpOnly(415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type %s is not accepted here; send %s",
                 when: "over HTTP only: a Content-Type that is not JSON"),
        httpOnly(413, "REQUEST_ENTITY_TOO_LARGE", "the request body is larger than %s bytes", when: "over HTTP only: a body over 1 MiB"),
        // Version 2 of the contract (lifecycle.md)
        entry(userDisabled("%s"),
              when: "a disabled user requests or completes a password reset, opens a reset link, or verifies an address",
              [.requestPasswordReset, .completePasswordReset, .openResetLink, .verifyEmail, .verifyPhone], version: 2),
        entry(invalidStatus("%s", method: "%s"),
              when: "request_password_reset when the address the method needs (email for EMAIL, phone for SMS and SMS_PIN) is missing or not verified",
              [.requestPasswordReset, .putIdentity], settings: ["email_verification", "phone_verification"], version: 2),
        entry(pinCodeExpired(ttl: 3600),
              when: "complete_password_reset with the right PIN more than sms_reset_pin_ttl seconds (default 3600) after it was texted",
              [.completePasswordReset], settings: ["sms_reset_pin_ttl"], version: 2),
        entry(wrongPassword, when: "change_password with a wrong old password", [.changePassword], version: 2),
        entry(installationNotFound("%s"),
              when: "installations.unregister of an unknown installation (over HTTP also GET and DELETE installations/{id})",
              [.unregisterInstallation, .mqttEndpoint], version: 2),
        entry(wrongToken("%s"),
              when: "me with a token that is not live; over HTTP any route given a token that stopped working (password change, reset, deletion, disabling)",
              [.me, .putIdentity, .lookup, .linkSocial, .unlinkSocial], version: 2),
        entry(mqttEndpointNotFound("%s"), when: "installations.mqtt_endpoint of an installation that is not MQTT",
              [.mqttEndpoint], version: 2),
        entry(KiiError(status: 503, code: "MQTT_ENDPOINT_NOT_READY", message: "The MQTT endpoint of installation %s is not ready"),
              when: "by app.faults.inject only: what Kii answers while an endpoint is being made (the emulator's broker is always ready; the JavaScript SDK retries 3 times)",
              [.mqttEndpoint], reach: .injectionOnly, version: 2),
        // Version 3 of the contract (v3.md): topics.
        entry(topicAlreadyExists("%s"), when: "topics.create of an id the scope already holds (an app-scope and a user-scope topic may share an id)",
              [.createTopic], version: 3),
        entry(topicNotFound("%s"),
              when: "a topic call naming an id the scope does not hold (a user-scope topic named without its owner, too)",
              [.deleteTopic, .subscribe, .unsubscribe, .isSubscribed, .sendToTopic, .topicACL, .grantTopic, .revokeTopic], version: 3),
        entry(subscriptionAlreadyExists(topicID: "%s", userID: "%s"), when: "topics.subscribe of a user who already subscribes",
              [.subscribe], version: 3),
        entry(subscriptionNotFound(topicID: "%s", userID: "%s"),
              when: "topics.unsubscribe of a user who does not subscribe (over HTTP also GET of a subscription: not subscribed)",
              [.unsubscribe], version: 3),
        // Version 4 of the contract (v4.md): ACLs, groups, social login.
        entry(groupNotFound("%s"), when: "topics.grant of a GroupID: subject naming no group", [.grantTopic], version: 4),
        entry(aclAlreadyExists(action: "%s", subject: "%s"), when: "topics.grant of an entry the topic's ACL already holds",
              [.grantTopic], version: 4),
        entry(aclNotFound(action: "%s", subject: "%s"), when: "topics.revoke of an entry the topic's ACL does not hold",
              [.revokeTopic], version: 4),
        entry(KiiError(status: 409, code: "FACEBOOK_USER_ALREADY_LINKED", message: "The user was already linked with a facebook account"),
              when: "users.link_social to facebook of a user who already has a facebook account", [.linkSocial], version: 4),
        entry(KiiError(status: 409, code: "GOOGLE_USER_ALREADY_LINKED", message: "The user was already linked with a google account"),
              when: "users.link_social to google of a user who already has a google account", [.linkSocial], version: 4),
        entry(KiiError(status: 409, code: "QQ_USER_ALREADY_LINKED", message: "The user was already linked with a qq account"),
              when: "users.link_social to qq of a user who already has a qq account", [.linkSocial], version: 4),
        entry(KiiError(status: 409, code: "USER_ALREADY_LINKED", message: "The user to link is already linked"),
              when: "users.link_social to twitter or renren of a user who already has such an account, or of a provider account another user holds",
              [.linkSocial], version: 4),
        entry(KiiError(status: 409, code: "USER_NOT_LINKED", message: "The user to unlink is not linked"),
              when: "users.unlink_social of a provider the user has no account of", [.unlinkSocial], version: 4),
        // Beyond the contract: the app's request quota (docs/decisions.md).
        entry(tooManyRequests(retryAfter: 1),
              when: "any call past the app's rate_limit calls in a window of rate_limit_seconds of virtual time (off by default); over HTTP with Retry-After",
              KiiOperation.allCases, settings: ["rate_limit", "rate_limit_seconds"]),
    ]

}
