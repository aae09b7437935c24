internal import Understudy

/// What the dashboard's forms offer per flavour: the operations a fault can name, the error codes with their
/// meaning and default status, and the per-user actions `POST /_understudy/users/{app}/{id}/{action}` carries out.
enum DashboardCatalogue {
    /// Backendless error codes a fault can answer with: the catalogue's codes (BackendlessError).
    static let backendlessCodes = [
        1000, 2002, 3002, 3003, 3006, 3009, 3010, 3011, 3014, 3021, 3033, 3034, 3036, 3038, 3039, 3040, 3043, 3044,
        3064, 3078, 3087, 3090, 5000, 5001, 5004, 5011, 5044, 8000,
    ]

    /// Kii errorCodes with their status and meaning (docs/http.md, "Kii routes", Errors).
    static let kiiCodes: [(code: String, status: Int, meaning: String)] = [
        ("INVALID_INPUT_DATA", 400, "A field breaks its rule"),
        ("PASSWORD_TOO_SHORT", 400, "Password shorter than 4 characters"),
        ("invalid_grant", 400, "Login: unknown identifier, wrong password or unverified address"),
        ("unsupported_grant_type", 400, "Login with a grant_type other than password"),
        ("INVALID_ACCOUNT_STATUS", 400, "Nothing waits for verification"),
        ("ACCOUNT_TYPE_NOT_SUPPORTED", 400, "A user prefix other than EMAIL:, PHONE:, LOGIN_NAME:"),
        ("INVALID_JSON", 400, "A body that is not JSON"),
        ("UNAUTHORIZED", 401, "Missing or wrong credentials or token"),
        ("USER_DISABLED", 401, "The user is disabled"),
        ("INVALID_VERIFICATION_CODE", 403, "A wrong verification code"),
        ("APP_NOT_FOUND", 404, "No such app"),
        ("USER_NOT_FOUND", 404, "No such user"),
        ("USER_ALREADY_EXISTS", 409, "Username, email or phone taken"),
        ("PHONE_NUMBER_VERIFICATION_CODE_EXPIRED", 410, "The SMS code expired"),
        ("UNDEFINED_ERROR", 500, "An unexpected server error"),
        ("RESOURCE_TEMPORARILY_UNAVAILABLE", 503, "The service is busy"),
    ]

    /// `{"flavour","app_id","operations":[…],"codes":[{code,status,meaning}],"user_actions":[…]}`.
    static func json(for app: any EmulatedApp) -> JSON {
        let codes: [JSON]
        switch app {
        case is KiiApp:
            codes = kiiCodes.map { ["code": .string($0.code), "status": .integer(Int64($0.status)), "meaning": .string($0.meaning)] }
        default:
            codes = backendlessCodes.map { code in
                [
                    "code": .integer(Int64(code)), "status": .integer(Int64(BackendlessError.defaultStatus(for: code))),
                    "meaning": .string(BackendlessError.catalogueMessage(for: code)),
                ]
            }
        }
        return .object(
            ControlPresentation.identity(app) + [
                .init("operations", .array(type(of: app).operations.map(JSON.string))), .init("codes", .array(codes)),
                .init("user_actions", .array(DashboardUserActions.names(for: app).map(JSON.string))),
            ]
        )
    }
}
