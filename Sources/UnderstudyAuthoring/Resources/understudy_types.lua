---@meta understudy
-- Editor types for Understudy scenarios (Lua 5.4), written by `understudy types`. Not a scenario file.
-- Calls of the contract's version 2 (lifecycle.md) are marked "(contract v2)".
error("types/understudy.lua holds editor types for the Lua language server; it is not a scenario file")

---------------------------------------------------------------------------------------------------------------
-- Scenarios

---@class ScenarioOptions
---@field tags? string[] tags selected with `understudy run --tag`
---@field skip? boolean|string `true` or a reason: reported as skipped, not run

---Declares a scenario; `fn` runs with fresh backends and fresh globals. It passes when `fn` returns and fails
---when it raises (`error`, a failed `assert` or `expect.*`, `fail`).
---@param name string
---@param fn fun()
---@overload fun(name: string, options: ScenarioOptions, fn: fun())
function scenario(name, fn) end

---Ends the running scenario as skipped, with a reason.
---@param reason? string
function skip(reason) end

---Fails the running scenario with a message.
---@param message? string
function fail(message) end

---------------------------------------------------------------------------------------------------------------
-- expect: assertions whose failures read well

---@class Expect
expect = {}

---Passes the results of a call through when it succeeded; fails with the error otherwise.
---@generic T
---@param result T|nil
---@param err? BackendlessError|KiiError
---@return T result
function expect.ok(result, err, ...) end

---Expects a failed call (`nil, err`) whose code is `expected` (or whose fields match the table); returns err.
---@param expected integer|string|table
---@param result any
---@param err? BackendlessError|KiiError
---@return BackendlessError|KiiError err
function expect.error(expected, result, err) end

---Deep equality; a table difference names the first differing path.
---@generic T
---@param actual T
---@param expected any
---@param label? string
---@return T
function expect.equal(actual, expected, label) end

---@generic T
---@param actual T
---@param other any
---@param label? string
---@return T
function expect.not_equal(actual, other, label) end

---@generic T
---@param value T
---@param label? string
---@return T
function expect.truthy(value, label) end

---@generic T
---@param value T
---@param label? string
---@return T
function expect.falsy(value, label) end

---@param value any
---@param label? string
---@return nil
function expect.is_nil(value, label) end

---@generic T
---@param value T|nil
---@param label? string
---@return T
function expect.not_nil(value, label) end

---@param text string
---@param pattern string a Lua pattern
---@param label? string
---@return string
function expect.match(text, pattern, label) end

---A list holding `item` (deep equality) or a string holding `item` (plain text).
---@generic T
---@param haystack T
---@param item any
---@param label? string
---@return T
function expect.contains(haystack, item, label) end

---@generic T
---@param list T
---@param n integer
---@param label? string
---@return T
function expect.length(list, n, label) end

---Expects `fn` to raise (API misuse, say); returns the message.
---@param fn fun()
---@param pattern? string
---@param label? string
---@return string message
function expect.fails(fn, pattern, label) end

---------------------------------------------------------------------------------------------------------------
-- understudy

---@class Understudy
---@field version string the Understudy version, "0.1.0"
---@field journal Journal under `understudy serve` only: the requests the server answered
understudy = {}

---A fresh Backendless app: no users, no devices, clock at 2030-01-01T00:00:00Z.
---@param settings? BackendlessSettings
---@return BackendlessApp
function understudy.backendless(settings) end

---A fresh Kii app.
---@param settings? KiiSettings
---@return KiiApp
function understudy.kii(settings) end

---Discards on purpose the error a call returned (an `err` nothing looks at fails the scenario when it ends).
---Give it the error, or the whole call: `understudy.ignore(app.users.login(...))`. Returns what it was given.
---@generic T
---@param ... T
---@return T ...
function understudy.ignore(...) end

---The backend whose app_id is `name`, or the first of a flavour ("backendless", "kii").
---@param name string
---@return BackendlessApp|KiiApp|nil
function understudy.app(name) end

---Every backend, in the order they were created.
---@return (BackendlessApp|KiiApp)[]
function understudy.apps() end

---The apps of an exported world (GET /_understudy/export), created and filled, in order; under `understudy serve`
---they join the served apps. A damaged world raises naming the field at fault and creates no app.
---@param world table `{ format = 1, apps = { ... } }`, as the export wrote it
---@return (BackendlessApp|KiiApp)[]
function understudy.import(world) end

---Keeps the scenario's backends as they are now under `name` (replacing a snapshot of that name): users,
---sessions, settings, clocks, outboxes, faults and generators. Not under `understudy serve` (its control API has
---POST /_understudy/snapshots).
---@param name string
---@return true
function understudy.snapshot(name) end

---Brings the backends kept under `name` back as they were, in place (the app tables keep working; backends made
---since are gone). Raises for a name never kept.
---@param name string
---@return true
function understudy.restore(name) end

---@class JournalFilter
---@field method? string
---@field path? string
---@field op? string
---@field app? string
---@field status? integer
---@field code? integer|string
---@field test? string the X-Understudy-Test header the request carried

---Under `understudy serve` only: the HTTP requests the server answered.
---@class Journal
understudy.journal = {}

---@param filter? JournalFilter
---@return table[]
function understudy.journal.entries(filter) end

---@param filter? JournalFilter
---@return table|nil
function understudy.journal.last(filter) end

---@param filter? JournalFilter
---@return integer
function understudy.journal.count(filter) end

---@return true
function understudy.journal.clear() end

---------------------------------------------------------------------------------------------------------------
-- Errors and records

---@class BackendlessError
---@field code integer e.g. 3033
---@field message string
---@field retry_after? integer 999 (rate_limit): seconds until the window ends

---@class KiiError
---@field status integer the HTTP status, e.g. 409
---@field code string e.g. "USER_ALREADY_EXISTS"
---@field message string
---@field field? string the field at fault
---@field value? string the offending value
---@field retry_after? integer TOO_MANY_REQUESTS (rate_limit): seconds until the window ends

---@class Email
---@field to string
---@field subject string
---@field kind "confirmation"|"verification"|"password_recovery"|"password_reset"|"password_reset_done"|"custom"
---@field code? string
---@field link? string
---@field password? string

---@class SMS
---@field to string
---@field body string
---@field code? string
---@field link? string

---@class Push
---@field device_id? string Backendless
---@field channel? string Backendless
---@field installation_id? string Kii (contract v2)
---@field user? string Kii (contract v2)
---@field message? string absent on a Kii topic push
---@field headers? table<string, string> Backendless (contract v3): always, {} when none
---@field messageId? string Backendless (contract v3)
---@field template? string Backendless (contract v3): a template's push
---@field title? string Backendless (contract v3): a template's filled title
---@field subtitle? string Backendless (contract v3): a template's filled subtitle
---@field topic? string Kii topic push (contract v3)
---@field data? table<string, string> Kii topic push (contract v3)
---@field pushMessageID? string Kii topic push (contract v3)

---@class FaultSpec
---@field op string the operation, e.g. "users.register"; "users.*" for every users. operation, "*" for all
---@field code? integer|string a Backendless number or a Kii errorCode
---@field message? string
---@field status? integer an HTTP status (Kii errors; Backendless over HTTP)
---@field times? integer how many calls fail (default: unlimited)
---@field probability? number from 0 to 1, drawn from the seeded generator (default 1)
---@field when? fun(args: table): boolean decides from the call's arguments
---@field delay_ms? integer|integer[] over HTTP: delay the reply; { min, max } draws each delay from the seed
---@field drop? boolean over HTTP: close the connection
---@field reset? boolean over HTTP: reset the connection (RST) instead of closing it
---@field reply? "empty"|"truncated"|"malformed" over HTTP: a 200 with a broken body, the change made
---@field after_commit? boolean make the call's change, then answer the error (or drop the reply)
---@field from? number the virtual time the fault starts applying
---@field until? number the virtual time it stops applying (write ["until"] = ...)
---@field for_seconds? number until = now (or from) + this

---------------------------------------------------------------------------------------------------------------
-- Shared by both flavours

---@class Clock
local Clock = {}

---Seconds since the epoch on the virtual clock.
---@return number
function Clock.now() end

---@param seconds number
---@return number now
function Clock.advance(seconds) end

---@param seconds number
---@return number now
function Clock.set(seconds) end

---@class Outbox
local Outbox = {}

---@param to? string only the emails to this address
---@return Email[]
function Outbox.emails(to) end

---@param to? string
---@return Email|nil
function Outbox.last_email(to) end

---@param to? string
---@return SMS[]
function Outbox.sms(to) end

---@param to? string
---@return SMS|nil
function Outbox.last_sms(to) end

---@param recipient? string only the pushes delivered to it: a Backendless device_id, a Kii installation_id or user
---@return Push[]
function Outbox.pushes(recipient) end

---@return true
function Outbox.clear() end

---@class Fault
---@field op string
---@field id integer
---@field hits integer calls it failed so far
---@field active boolean
---@field remaining? integer calls left to fail
local Fault = {}

---@return boolean removed
function Fault:remove() end

---@class Faults
local Faults = {}

---Makes the next matching calls of `fault.op` fail with that error, exactly as a real one would (`nil, err`).
---@param fault FaultSpec
---@return Fault
function Faults.inject(fault) end

---@return true
function Faults.clear() end

---@return Fault[]
function Faults.list() end

---------------------------------------------------------------------------------------------------------------
-- Backendless

---@class BackendlessSettings
---@field identity? string the identity property (default "email")
---@field registration? boolean false: register answers 3009
---@field email_confirmation? boolean true: email required, new users EMAIL_CONFIRMATION_PENDING
---@field dynamic_properties? boolean false: a property outside the schema answers 3010
---@field properties? table<string, { required?: boolean, max_length?: integer }> extra schema
---@field logins? boolean false: login answers 3034
---@field lockout_after? integer failed logins in a row that lock the account (0: off)
---@field lockout_minutes? number how long a lock lasts (default 30)
---@field multiple_logins? "allow"|"deny"|integer
---@field app_id? string
---@field api_key? string
---@field password_recovery? "link"|"temporary"|false (contract v2)
---@field cloudcode_key? string the CloudCode API key over HTTP (contract v4, default "UNDERSTUDY-CLOUDCODE-KEY")
---@field rate_limit? integer calls per rate_limit_seconds; past it 999 with retry_after (0: off)
---@field rate_limit_seconds? number the rate limit's window (default 60)

---@class BackendlessApp
---@field flavour "backendless"
---@field users BackendlessUsers
---@field devices BackendlessDevices
---@field channels BackendlessChannels
---@field push BackendlessPush
---@field oauth BackendlessOauth (contract v3; the browser sign-in contract v4)
---@field roles BackendlessRoles (contract v4)
---@field data BackendlessData (contract v4)
---@field email BackendlessEmail (contract v4)
---@field settings BackendlessSettings
---@field clock Clock
---@field outbox Outbox
---@field faults Faults

---@class BackendlessUser
---@field objectId string
---@field userStatus "ENABLED"|"DISABLED"|"EMAIL_CONFIRMATION_PENDING"|"GUEST"
---@field created integer ms since the epoch on the virtual clock
---@field socialAccount string "BACKENDLESS", or the provider code of a user registered through OAuth (contract v3)
---@field ___class "Users"
---@field email? string
---@field [string] string|number|boolean

---@class BackendlessSession
---@field user BackendlessUser
---@field token string

---@class BackendlessSeed
---@field count integer
---@field start? integer
---@field status? "ENABLED"|"DISABLED"|"EMAIL_CONFIRMATION_PENDING"
---@field [string] string|number|boolean template properties, `%d` becomes each user's number

---@class BackendlessUsers
local BackendlessUsers = {}

---@param identity_value string
---@return BackendlessUser|nil
function BackendlessUsers.find(identity_value) end

---@return integer
function BackendlessUsers.count() end

---@return BackendlessUser[]
function BackendlessUsers.all() end

---@param template BackendlessSeed
---@return integer added
---@overload fun(template: BackendlessSeed): nil, BackendlessError
function BackendlessUsers.seed(template) end

---@class OAuthLoginOptions
---@field fields_mapping? table<string, string> provider profile field → user property (first login only)
---@field guest? string objectId of a guest to convert on the first login
---@field secret? string the OAuth1 token secret

---@class OAuthAccount
---@field provider string the provider code the app's SDK sends (compared without case)
---@field token string an access token the provider accepts
---@field secret? string the OAuth1 token secret the login must present
---@field profile table<string, string> what the provider returns: `id` (required) and any fields

---@class AuthorizationURLOptions
---@field fields_mapping? table<string, string> provider profile field → user property (first login only)
---@field permissions? string[] the scopes asked of the provider (kept, not checked)
---@field redirect_after_login_url? string where the browser goes after the sign-in, with userId and userToken
---@field popup? boolean the sign-in ends in a popup posting the session to its opener (wins over redirect_after_login_url)

---@class OAuthAuthorizeOptions
---@field secret? string the OAuth1 token secret

---@class OAuthSignIn
---@field user BackendlessUser
---@field token string the new session's user-token
---@field redirect? string redirect_after_login_url with userId and userToken appended (not for a popup)

---@class BackendlessOauth
local BackendlessOauth = {}

---(contract v3) The console: defines (or replaces) what the provider answers for a token.
---@param account OAuthAccount
---@return true
function BackendlessOauth.account(account) end

---@class UsersColumn
---@field name string
---@field required boolean
---@field type "STRING_ID"|"STRING"|"DATETIME"|"INT"|"DOUBLE"|"BOOLEAN"
---@field identity boolean
---@field autoLoad false
---@field isPrimaryKey boolean
---@field defaultValue nil
---@field relatedTable nil
---@field customRegex nil

---@class DataQuery
---@field where? string a where clause (contract v4's subset of SQL-92)
---@field page_size? integer 1-100, default 10
---@field offset? integer ≥ 0, default 0
---@field sort_by? string|string[] "column", "column asc", "column desc"
---@field properties? string[] the columns each record keeps (plus ___class); "*" means all
---@field exclude_properties? string[] columns left out of each record
---@field distinct? boolean equal records once

---@class DataRecord
---@field ___class "Users"
---@field objectId? string
---@field roles? string[] the user's custom roles (roles.users with load_roles)
---@field [string] string|number|boolean

---@class DataDeletion
---@field deletionTime integer ms on the virtual clock

---@class RoleUsersOptions
---@field load_roles? boolean each record also gets roles: its custom roles
---@field query? DataQuery as data.users.find's

---@class BackendlessData
---@field users BackendlessDataUsers the Users table (contract v4)

---@class BackendlessDataUsers
local BackendlessDataUsers = {}

---@class EmailTemplateDefinition
---@field name string "Confirmation" builds every confirmation email
---@field subject string may hold {var} and {Users.column}
---@field body? string default ""
---@field html? string

---@class EmailTemplate
---@field name string
---@field subject string
---@field body string
---@field html? string

---@class EmailEnvelope
---@field to? string[] the recipients
---@field cc? string[] copied onto each email
---@field bcc? string[] copied onto each email
---@field query? string a where clause: the matching users' emails (to is then ignored)
---@field unique_emails? boolean one email per address (compared without case)

---@class TemplateSending
---@field messageId string
---@field status "published"
---@field delivered string[] the addresses emailed, in byte order

---@class BackendlessEmail
---@field templates BackendlessEmailTemplates
local BackendlessEmail = {}

---@class BackendlessEmailTemplates
local BackendlessEmailTemplates = {}

---(contract v4) The console: defines or replaces an email template.
---@param template EmailTemplateDefinition
---@return true
function BackendlessEmailTemplates.define(template) end

---(contract v4) The console: every email template, by name.
---@return table<string, EmailTemplate>
function BackendlessEmailTemplates.list() end

---@class BackendlessRoles
local BackendlessRoles = {}

---(contract v4) The console: a custom role. A system role's name, an empty name or one defined already raises.
---@param name string
---@return true
function BackendlessRoles.define(name) end

---(contract v4) The console: every role, system and custom, in byte order.
---@return string[]
function BackendlessRoles.list() end

---@class DeviceRegistrationRequest
---@field token string
---@field device_id string
---@field os "IOS"|"ANDROID"
---@field os_version? string
---@field channels? string[]
---@field expiration? number seconds on the virtual clock

---@class DeviceRegistration
---@field registrationId string
---@field channels table<string, string> channel name → registration id
---@field device_id string
---@field token string
---@field os "IOS"|"ANDROID"
---@field os_version? string
---@field expiration? number seconds on the virtual clock

---@class BackendlessDevices
local BackendlessDevices = {}

---@class BackendlessChannels
local BackendlessChannels = {}

---@return string[]
function BackendlessChannels.list() end

---@param name string
---@return string[] device_ids
function BackendlessChannels.devices(name) end

---@class Publication
---@field message string
---@field channel? string default "default"
---@field headers? table<string, string> kept on each outbox push
---@field broadcast? "ALL"|("IOS"|"ANDROID"|"WP"|"OSX")[] only the channel's devices of these operating systems
---@field singlecast? string[] only these of the channel's devices
---@field policy? "PUSH"|"PUBSUB"|"BOTH" default "BOTH"; PUBSUB reaches no device
---@field publish_at? number deliver when the clock reaches it (later than now, else 5030)
---@field repeat_every? integer seconds between firings (needs repeat_expires_at)
---@field repeat_expires_at? number the last firing time (later than the first, else 5003)
---@field device_ids? string[] these devices, on any channel (the pushes carry no channel)

---@class PublishResult
---@field messageId string
---@field status "published"|"scheduled"
---@field delivered string[] the devices a firing reached during the call, sorted

---@class MessageStatus
---@field messageId string
---@field status "scheduled"|"published"|"cancelled"|"failed"|"unknown" (errorMessage is always nil)

---@class PushTemplateDefinition
---@field name string
---@field message string
---@field title? string
---@field subtitle? string
---@field headers? table<string, string>
---@field os? "ALL"|"IOS"|"ANDROID" default "ALL"
---@field channel? string default "default"

---@class PushTemplate
---@field name string
---@field message string
---@field title? string
---@field subtitle? string
---@field headers? table<string, string>
---@field os "ALL"|"IOS"|"ANDROID"
---@field channel string

---@class BackendlessPushTemplates
local BackendlessPushTemplates = {}

---Defines or replaces a template (the console's Push Composer).
---@param template PushTemplateDefinition
---@return true
function BackendlessPushTemplates.define(template) end

---@param os? string "ALL" (or nil) for every template, "IOS"/"ANDROID" for that os's and the ALL ones
---@return table<string, PushTemplate>
---@overload fun(os?: string): nil, BackendlessError
function BackendlessPushTemplates.list(os) end

---@class BackendlessPush
---@field templates BackendlessPushTemplates
local BackendlessPush = {}

---------------------------------------------------------------------------------------------------------------
-- Kii

-- BEGIN GENERATED backendless-operations (understudy docs --write makes these from the operations' declarations)
---@param props? table<string, string|number|boolean> the new user's properties
---@return BackendlessUser user
---@overload fun(props?: table<string, string|number|boolean>): nil, BackendlessError
function BackendlessUsers.register(props) end

---@param identity_value? string the value of the identity property
---@param password? string
---@return BackendlessSession session
---@overload fun(identity_value?: string, password?: string): nil, BackendlessError
function BackendlessUsers.login(identity_value, password) end

---@param token string a live session's user-token
---@return true
---@overload fun(token: string): nil, BackendlessError
function BackendlessUsers.logout(token) end

---@return BackendlessSession session
---@overload fun(): nil, BackendlessError
function BackendlessUsers.guest_login() end

---@param objectId string
---@return BackendlessUser user
---@overload fun(objectId: string): nil, BackendlessError
function BackendlessUsers.confirm_email(objectId) end

---@param objectId string
---@param status "ENABLED"|"DISABLED" what the console sets
---@return BackendlessUser user
---@overload fun(objectId: string, status: "ENABLED"|"DISABLED"): nil, BackendlessError
function BackendlessUsers.set_status(objectId, status) end

---(contract v2)
---@param identity string the identity value
---@return true
---@overload fun(identity: string): nil, BackendlessError
function BackendlessUsers.restore_password(identity) end

---(contract v2)
---@param link_or_token string the recovery link or its token
---@param new_password string
---@return true
---@overload fun(link_or_token: string, new_password: string): nil, BackendlessError
function BackendlessUsers.reset_password(link_or_token, new_password) end

---(contract v2)
---@param identity string
---@return true
---@overload fun(identity: string): nil, BackendlessError
function BackendlessUsers.resend_confirmation(identity) end

---(contract v2)
---@param identity string
---@return string link
---@overload fun(identity: string): nil, BackendlessError
function BackendlessUsers.confirmation_url(identity) end

---(contract v2)
---@param objectId string
---@return BackendlessUser|nil
---@overload fun(objectId: string): nil, BackendlessError
function BackendlessUsers.get(objectId) end

---(contract v2)
---@param objectId string
---@param props table<string, string|number|boolean> the properties to change
---@param token string a live session's user-token
---@return BackendlessUser user
---@overload fun(objectId: string, props: table<string, string|number|boolean>, token: string): nil, BackendlessError
function BackendlessUsers.update(objectId, props, token) end

---(contract v2)
---@param objectId string
---@return true
---@overload fun(objectId: string): nil, BackendlessError
function BackendlessUsers.delete(objectId) end

---(contract v3)
---@param provider string the provider code the app's SDK sends (compared without case)
---@param token string the access token the provider accepts
---@param options? OAuthLoginOptions
---@return BackendlessSession session
---@overload fun(provider: string, token: string, options?: OAuthLoginOptions): nil, BackendlessError
function BackendlessUsers.login_oauth(provider, token, options) end

---@param registration DeviceRegistrationRequest
---@return DeviceRegistration reg
---@overload fun(registration: DeviceRegistrationRequest): nil, BackendlessError
function BackendlessDevices.register(registration) end

---@param device_id string
---@return DeviceRegistration|nil
---@overload fun(device_id: string): nil, BackendlessError
function BackendlessDevices.get(device_id) end

---@param device_id string
---@return true
---@overload fun(device_id: string): nil, BackendlessError
function BackendlessDevices.unregister(device_id) end

---@param publication Publication
---@return PublishResult result
---@overload fun(publication: Publication): nil, BackendlessError
function BackendlessPush.publish(publication) end

---(contract v3)
---@param messageId string
---@return true
---@overload fun(messageId: string): nil, BackendlessError
function BackendlessPush.cancel(messageId) end

---(contract v3)
---@param os? string "ALL" (or nil) for every template, "IOS"/"ANDROID" for that os's and the ALL ones
---@return table<string, PushTemplate> templates
---@overload fun(os?: string): nil, BackendlessError
function BackendlessPushTemplates.list(os) end

---(contract v3)
---@param name string
---@param values? table<string, string|number|boolean> fill each {var}
---@return PublishResult result
---@overload fun(name: string, values?: table<string, string|number|boolean>): nil, BackendlessError
function BackendlessPush.with_template(name, values) end

---(contract v4)
---@return UsersColumn[] columns
---@overload fun(): nil, BackendlessError
function BackendlessUsers.describe() end

---(contract v2)
---@param messageId string
---@return MessageStatus status
---@overload fun(messageId: string): nil, BackendlessError
function BackendlessPush.status(messageId) end

---(contract v4)
---@param objectId string
---@param key? "rest"|"cloudcode" the API key the call is made with: "rest" (the default, any client key) or "cloudcode"
---@return BackendlessSession session
---@overload fun(objectId: string, key?: "rest"|"cloudcode"): nil, BackendlessError
function BackendlessUsers.login_by_id(objectId, key) end

---(contract v4)
---@param objectId string
---@param status "ENABLED"|"DISABLED"
---@param key? "rest"|"cloudcode" the API key the call is made with: "rest" (the default, any client key) or "cloudcode"
---@return BackendlessUser user
---@overload fun(objectId: string, status: "ENABLED"|"DISABLED", key?: "rest"|"cloudcode"): nil, BackendlessError
function BackendlessUsers.update_status(objectId, status, key) end

---(contract v4)
---@param identity string the identity value or the objectId
---@param role string
---@param key? "rest"|"cloudcode" the API key the call is made with: "rest" (the default, any client key) or "cloudcode"
---@return true
---@overload fun(identity: string, role: string, key?: "rest"|"cloudcode"): nil, BackendlessError
function BackendlessRoles.assign(identity, role, key) end

---(contract v4)
---@param identity string the identity value or the objectId
---@param role string
---@param key? "rest"|"cloudcode" the API key the call is made with: "rest" (the default, any client key) or "cloudcode"
---@return true
---@overload fun(identity: string, role: string, key?: "rest"|"cloudcode"): nil, BackendlessError
function BackendlessRoles.unassign(identity, role, key) end

---(contract v4)
---@param objectId string
---@param key? "rest"|"cloudcode" the API key the call is made with: "rest" (the default, any client key) or "cloudcode"
---@return string[] roles
---@overload fun(objectId: string, key?: "rest"|"cloudcode"): nil, BackendlessError
function BackendlessRoles.of(objectId, key) end

---(contract v4)
---@param role string a custom role
---@param options? RoleUsersOptions
---@return DataRecord[] records
---@overload fun(role: string, options?: RoleUsersOptions): nil, BackendlessError
function BackendlessRoles.users(role, options) end

---(contract v4)
---@param record table<string, string|number|boolean> without objectId: a new user (as users.register); with one: the changes
---@param token? string a live session's user-token: then only its user may be changed
---@return DataRecord record
---@overload fun(record: table<string, string|number|boolean>, token?: string): nil, BackendlessError
function BackendlessDataUsers.save(record, token) end

---(contract v4)
---@param query? DataQuery the query
---@return DataRecord[] records
---@overload fun(query?: DataQuery): nil, BackendlessError
function BackendlessDataUsers.find(query) end

---(contract v4)
---@param query? DataQuery the query
---@return DataRecord|nil
---@overload fun(query?: DataQuery): nil, BackendlessError
function BackendlessDataUsers.find_first(query) end

---(contract v4)
---@param query? DataQuery the query
---@return DataRecord|nil
---@overload fun(query?: DataQuery): nil, BackendlessError
function BackendlessDataUsers.find_last(query) end

---(contract v4)
---@param objectId string
---@param query? DataQuery the query
---@return DataRecord record
---@overload fun(objectId: string, query?: DataQuery): nil, BackendlessError
function BackendlessDataUsers.find_by_id(objectId, query) end

---(contract v4)
---@param where? string a where clause; all rows when absent
---@return integer count
---@overload fun(where?: string): nil, BackendlessError
function BackendlessDataUsers.count(where) end

---(contract v4)
---@param objectId string
---@return DataDeletion deletion
---@overload fun(objectId: string): nil, BackendlessError
function BackendlessDataUsers.remove(objectId) end

---(contract v4)
---@param name string the template's name
---@param envelope EmailEnvelope
---@param values? table<string, string|number|boolean> fill each {var}
---@return TemplateSending result
---@overload fun(name: string, envelope: EmailEnvelope, values?: table<string, string|number|boolean>): nil, BackendlessError
function BackendlessEmail.send_template(name, envelope, values) end

---(contract v4)
---@param provider string any provider code (lower-cased in the URL)
---@param options? AuthorizationURLOptions
---@return string url
---@overload fun(provider: string, options?: AuthorizationURLOptions): nil, BackendlessError
function BackendlessOauth.authorization_url(provider, options) end

---(contract v4)
---@param url string the sign-in page URL authorization_url made
---@param token string the access token of a provider account (app.oauth.account)
---@param options? OAuthAuthorizeOptions
---@return OAuthSignIn signin
---@overload fun(url: string, token: string, options?: OAuthAuthorizeOptions): nil, BackendlessError
function BackendlessOauth.authorize(url, token, options) end

-- END GENERATED backendless-operations

---@class KiiSettings
---@field email_verification? boolean
---@field phone_verification? boolean
---@field sms_code_ttl? number seconds an SMS code lives (default 86400)
---@field app_id? string
---@field app_key? string
---@field sms_reset_pin_ttl? number seconds a reset PIN lives (default 3600) (contract v2)
---@field expose_full_user_data? boolean another user's token reads the full record (default false) (contract v4)
---@field rate_limit? integer calls per rate_limit_seconds; past it 429 TOO_MANY_REQUESTS with retry_after (0: off)
---@field rate_limit_seconds? number the rate limit's window (default 60)
---@field test_phone_numbers? table<string, string> E.164 number -> fixed SMS code and reset PIN

---@class KiiApp
---@field flavour "kii"
---@field users KiiUsers
---@field installations KiiInstallations (contract v2)
---@field push KiiPush (contract v2)
---@field topics KiiTopics (contract v3)
---@field groups KiiGroups (contract v4)
---@field social KiiSocial (contract v4)
---@field admin KiiAdmin (contract v4)
---@field settings KiiSettings
---@field clock Clock
---@field outbox Outbox
---@field faults Faults

---@class KiiUser
---@field userID string
---@field loginName? string
---@field emailAddress? string
---@field phoneNumber? string
---@field country? string
---@field emailAddressVerified boolean
---@field phoneNumberVerified boolean
---@field pendingEmailAddress? string
---@field pendingPhoneNumber? string
---@field token? string
---@field displayName? string (contract v2)
---@field locale? string (contract v2)
---@field disabled boolean (contract v2) set by users.set_disabled
---@field hasPassword boolean (contract v3) false for a pseudo user until users.put_identity
---@field thirdPartyAccounts table<string, KiiThirdPartyAccount> (contract v4) linked provider accounts by provider
---@field [string] string|number|boolean custom fields set by users.update (contract v2)

---@class KiiSession
---@field user KiiUser
---@field token string

---@class KiiRegistration
---@field username? string
---@field email? string
---@field phone? string
---@field country? string
---@field password string
---@field displayName? string 1-50 characters (contract v4)
---@field locale? string (contract v4)
---@field fields? table<string, string|number|boolean> custom fields (contract v4)

---(contract v4)
---@class KiiThirdPartyAccount
---@field id string the provider profile's id
---@field type string the provider
---@field createdAt number seconds on the virtual clock

---(contract v4) What users.login_social answers.
---@class KiiSocialLogin
---@field user KiiUser
---@field token string
---@field new_user_created boolean

---(contract v4)
---@class KiiSocialOptions
---@field secret? string twitter only
---@field open_id? string qq only

---(contract v4) users.login_mfa's argument: exactly one of the two.
---@class KiiMFAGrant
---@field totp_code? string
---@field recovery_code? string

---@class KiiSeed
---@field count integer
---@field start? integer
---@field username? string
---@field email? string
---@field phone? string
---@field country? string
---@field password? string

---@class KiiUsers
local KiiUsers = {}

---@param identifier string
---@return KiiUser|nil
function KiiUsers.find(identifier) end

---@return KiiUser[]
function KiiUsers.all() end

---@return integer
function KiiUsers.count() end

---@param template KiiSeed
---@return integer added
---@overload fun(template: KiiSeed): nil, KiiError
function KiiUsers.seed(template) end

---@class InstallationRequest
---@field user string userID
---@field type "ANDROID"|"IOS"|"JPUSH"|"MQTT"
---@field token? string required for ANDROID, IOS and JPUSH
---@field development? boolean

---@class Installation
---@field installationID string
---@field installationRegistrationID string generated for MQTT
---@field deviceType "ANDROID"|"IOS"|"JPUSH"|"MQTT"
---@field userID string
---@field development boolean

---(contract v2) Kii's push installations.
---@class KiiInstallations
local KiiInstallations = {}

---(contract v2)
---@class KiiPush
local KiiPush = {}

---(contract v3) The identity `users.put_identity` gives a pseudo user.
---@class KiiIdentity
---@field username? string
---@field email? string
---@field phone? string
---@field country? string
---@field password string
---@field fields? table<string, string|number|boolean> replaces the custom fields (update's merge rule)

---(contract v3)
---@class KiiTopic
---@field topicID string
---@field scope "APP"|"APP_AND_USER"
---@field owner? string the userID of a user-scope topic

---(contract v3)
---@class KiiTopicMessage
---@field data table<string, string> flat strings; at most 4096 bytes as JSON (2048 with IOS among the networks)
---@field development? boolean reach development installations (default true)
---@field production? boolean reach production installations (default true)
---@field networks? ("ANDROID"|"IOS"|"JPUSH"|"MQTT")[] default all four
---@field sender? string (contract v4) the sending userID, whom the topic's ACL must let send

---(contract v3) Kii's push topics in the app's scope (no owner) or a user's (owner = userID).
---@class KiiTopics
local KiiTopics = {}

---(contract v4) An MQTT installation's broker endpoint.
---@class KiiMqttEndpoint
---@field installationID string
---@field username string {appID}/{installationID}
---@field password string
---@field mqttTopic string the client identifier and the topic to subscribe to
---@field host string
---@field portTCP integer
---@field portSSL integer 0: no TLS
---@field portWS integer the HTTP port (WebSocket at /mqtt)
---@field portWSS integer 0: no TLS
---@field ["X-MQTT-TTL"] integer 2147483647: never expires

---(contract v4) A topic's ACL: subjects by action, in byte order.
---@class KiiTopicACL
---@field SUBSCRIBE_TO_TOPIC string[]
---@field SEND_MESSAGE_TO_TOPIC string[]

---(contract v4)
---@class KiiGroupSummary
---@field groupID string
---@field name string
---@field owner string

---(contract v4)
---@class KiiGroup
---@field groupID string
---@field name string
---@field owner string
---@field members string[] the owner first

---(contract v4)
---@class KiiGroupRequest
---@field name string
---@field owner string userID
---@field members? string[] userIDs

---(contract v4) The minimum groups: for memberOfGroups, ownerOfGroups and GroupID: ACL subjects.
---@class KiiGroups
local KiiGroups = {}

---(contract v4, console) Creates a group; misuse (an unknown owner or member) raises.
---@param group KiiGroupRequest
---@return KiiGroup
function KiiGroups.create(group) end

---(contract v4)
---@class KiiSocialAccountRequest
---@field provider "facebook"|"twitter"|"google"|"qq"|"renren"
---@field token string the provider's access token
---@field secret? string twitter only
---@field open_id? string qq only
---@field profile table<string, string> the provider's profile; id required

---(contract v4) Scripted social providers (KiiSocialConnect).
---@class KiiSocial
local KiiSocial = {}

---(contract v4, console) Defines (or replaces) a provider account.
---@param account KiiSocialAccountRequest
---@return true
function KiiSocial.account(account) end

---(contract v4) The application administrator.
---@class KiiAdmin
local KiiAdmin = {}

---(contract v4, console) A new application-administrator access token.
---@return string
function KiiAdmin.token() end

-- BEGIN GENERATED kii-operations (understudy docs --write makes these from the operations' declarations)
---@param registration KiiRegistration
---@return KiiUser user
---@overload fun(registration: KiiRegistration): nil, KiiError
function KiiUsers.register(registration) end

---@param identifier string username, email, +international or CC-local phone
---@param password string
---@return KiiSession session
---@overload fun(identifier: string, password: string): nil, KiiError
function KiiUsers.login(identifier, password) end

---@param userID string
---@param code string
---@return KiiUser user
---@overload fun(userID: string, code: string): nil, KiiError
function KiiUsers.verify_email(userID, code) end

---@param userID string
---@param code string
---@return KiiUser user
---@overload fun(userID: string, code: string): nil, KiiError
function KiiUsers.verify_phone(userID, code) end

---@param userID string
---@param email string
---@return KiiUser user
---@overload fun(userID: string, email: string): nil, KiiError
function KiiUsers.change_email(userID, email) end

---@param userID string
---@param phone string
---@param country? string to read a local number
---@return KiiUser user
---@overload fun(userID: string, phone: string, country?: string): nil, KiiError
function KiiUsers.change_phone(userID, phone, country) end

---@param userID string
---@return KiiUser|nil
---@overload fun(userID: string): nil, KiiError
function KiiUsers.get(userID) end

---@param userID string
---@return true
---@overload fun(userID: string): nil, KiiError
function KiiUsers.resend_email_verification(userID) end

---@param userID string
---@return true
---@overload fun(userID: string): nil, KiiError
function KiiUsers.resend_phone_verification(userID) end

---(contract v2)
---@param identifier string
---@param method? "EMAIL"|"SMS"|"SMS_PIN" default "EMAIL"
---@return true
---@overload fun(identifier: string, method?: "EMAIL"|"SMS"|"SMS_PIN"): nil, KiiError
function KiiUsers.request_password_reset(identifier, method) end

---(contract v2)
---@param identifier string
---@param pin string
---@param new_password string
---@return true
---@overload fun(identifier: string, pin: string, new_password: string): nil, KiiError
function KiiUsers.complete_password_reset(identifier, pin, new_password) end

---(contract v2)
---@param link string the reset link (over HTTP its code)
---@return true
---@overload fun(link: string): nil, KiiError
function KiiUsers.open_reset_link(link) end

---(contract v2)
---@param userID string
---@param old_password string
---@param new_password string
---@return true
---@overload fun(userID: string, old_password: string, new_password: string): nil, KiiError
function KiiUsers.change_password(userID, old_password, new_password) end

---(contract v2)
---@param userID string
---@param fields table<string, string|number|boolean> the fields to set
---@return KiiUser user
---@overload fun(userID: string, fields: table<string, string|number|boolean>): nil, KiiError
function KiiUsers.update(userID, fields) end

---(contract v2)
---@param userID string
---@return true
---@overload fun(userID: string): nil, KiiError
function KiiUsers.delete(userID) end

---(contract v2)
---@param userID string
---@param disabled boolean
---@return KiiUser user
---@overload fun(userID: string, disabled: boolean): nil, KiiError
function KiiUsers.set_disabled(userID, disabled) end

---(contract v2)
---@param token string
---@return KiiUser user
---@overload fun(token: string): nil, KiiError
function KiiUsers.me(token) end

---(contract v2)
---@param registration InstallationRequest
---@return Installation installation
---@overload fun(registration: InstallationRequest): nil, KiiError
function KiiInstallations.register(registration) end

---(contract v2)
---@param installationID string
---@return Installation|nil
---@overload fun(installationID: string): nil, KiiError
function KiiInstallations.get(installationID) end

---(contract v2)
---@param userID string
---@return Installation[] installations
---@overload fun(userID: string): nil, KiiError
function KiiInstallations.list(userID) end

---(contract v2)
---@param installationID string
---@return true
---@overload fun(installationID: string): nil, KiiError
function KiiInstallations.unregister(installationID) end

---(contract v2)
---@param push { user: string, message: string }
---@return { delivered: string[] } result
---@overload fun(push: { user: string, message: string }): nil, KiiError
function KiiPush.send_to_user(push) end

---(contract v4)
---@param installationID string
---@return KiiMqttEndpoint endpoint
---@overload fun(installationID: string): nil, KiiError
function KiiInstallations.mqtt_endpoint(installationID) end

---(contract v3)
---@param fields? table<string, string|number|boolean> displayName, country, locale and custom fields
---@return KiiUser user
---@overload fun(fields?: table<string, string|number|boolean>): nil, KiiError
function KiiUsers.register_pseudo(fields) end

---(contract v3)
---@param token string
---@param identity KiiIdentity
---@return KiiUser user
---@overload fun(token: string, identity: KiiIdentity): nil, KiiError
function KiiUsers.put_identity(token, identity) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param owner? string the userID of a user-scope topic
---@return KiiTopic topic
---@overload fun(topicID: string, owner?: string): nil, KiiError
function KiiTopics.create(topicID, owner) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param owner? string the userID of a user-scope topic
---@return true
---@overload fun(topicID: string, owner?: string): nil, KiiError
function KiiTopics.delete(topicID, owner) end

---(contract v3)
---@param owner? string the userID of a user-scope topic
---@return string[] topicIDs
---@overload fun(owner?: string): nil, KiiError
function KiiTopics.list(owner) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param userID string the subscribing user
---@param owner? string the userID of a user-scope topic
---@return true
---@overload fun(topicID: string, userID: string, owner?: string): nil, KiiError
function KiiTopics.subscribe(topicID, userID, owner) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param userID string the subscribing user
---@param owner? string the userID of a user-scope topic
---@return true
---@overload fun(topicID: string, userID: string, owner?: string): nil, KiiError
function KiiTopics.unsubscribe(topicID, userID, owner) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param userID string the subscribing user
---@param owner? string the userID of a user-scope topic
---@return boolean subscribed
---@overload fun(topicID: string, userID: string, owner?: string): nil, KiiError
function KiiTopics.is_subscribed(topicID, userID, owner) end

---(contract v3)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param message KiiTopicMessage
---@param owner? string the userID of a user-scope topic
---@return { pushMessageID: string, delivered: string[] } result
---@overload fun(topicID: string, message: KiiTopicMessage, owner?: string): nil, KiiError
function KiiTopics.send(topicID, message, owner) end

---(contract v4)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param owner? string the userID of a user-scope topic
---@return KiiTopicACL acl
---@overload fun(topicID: string, owner?: string): nil, KiiError
function KiiTopics.acl(topicID, owner) end

---(contract v4)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param action "SUBSCRIBE_TO_TOPIC"|"SEND_MESSAGE_TO_TOPIC"
---@param subject string UserID:{id}, GroupID:{id}, ThingID:{id}, UserID:ANY_AUTHENTICATED_USER
---@param owner? string the userID of a user-scope topic
---@return true
---@overload fun(topicID: string, action: "SUBSCRIBE_TO_TOPIC"|"SEND_MESSAGE_TO_TOPIC", subject: string, owner?: string): nil, KiiError
function KiiTopics.grant(topicID, action, subject, owner) end

---(contract v4)
---@param topicID string 1-64 of A-Z a-z 0-9 _ -
---@param action "SUBSCRIBE_TO_TOPIC"|"SEND_MESSAGE_TO_TOPIC"
---@param subject string UserID:{id}, GroupID:{id}, ThingID:{id}, UserID:ANY_AUTHENTICATED_USER
---@param owner? string the userID of a user-scope topic
---@return true
---@overload fun(topicID: string, action: "SUBSCRIBE_TO_TOPIC"|"SEND_MESSAGE_TO_TOPIC", subject: string, owner?: string): nil, KiiError
function KiiTopics.revoke(topicID, action, subject, owner) end

---(contract v4)
---@param userID string the member (GET groups?owner= lists the groups a user owns: groups.owned_by)
---@return KiiGroupSummary[] groups
---@overload fun(userID: string): nil, KiiError
function KiiGroups.member_of(userID) end

---(contract v4)
---@param userID string the owner
---@return KiiGroupSummary[] groups
---@overload fun(userID: string): nil, KiiError
function KiiGroups.owned_by(userID) end

---(contract v4)
---@param identifier string a userID, LOGIN_NAME:/EMAIL:/PHONE: forms, a username, email or +phone
---@param token string an access token: the user's, another user's or an administrator's
---@return KiiUser user
---@overload fun(identifier: string, token: string): nil, KiiError
function KiiUsers.lookup(identifier, token) end

---(contract v4)
---@param grant KiiMFAGrant
---@return KiiSession session
---@overload fun(grant: KiiMFAGrant): nil, KiiError
function KiiUsers.login_mfa(grant) end

---(contract v4)
---@param provider string facebook, twitter, google, qq or renren (without case)
---@param token string the provider's access token
---@param options? KiiSocialOptions
---@return KiiSocialLogin login
---@overload fun(provider: string, token: string, options?: KiiSocialOptions): nil, KiiError
function KiiUsers.login_social(provider, token, options) end

---(contract v4)
---@param token string the user's access token
---@param provider string facebook, twitter, google, qq or renren (without case)
---@param provider_token string the provider's access token
---@param options? KiiSocialOptions
---@return KiiUser user
---@overload fun(token: string, provider: string, provider_token: string, options?: KiiSocialOptions): nil, KiiError
function KiiUsers.link_social(token, provider, provider_token, options) end

---(contract v4)
---@param token string the user's access token
---@param provider string facebook, twitter, google, qq or renren (without case)
---@return KiiUser user
---@overload fun(token: string, provider: string): nil, KiiError
function KiiUsers.unlink_social(token, provider) end

-- END GENERATED kii-operations
