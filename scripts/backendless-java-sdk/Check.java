// Drives the real Backendless Java SDK (out/backendless.jar, 6.3.1) against `understudy serve` over its AMF gateway,
// and compares each error it meets with what the REST route answers for the same request. Run by ./check.

import com.backendless.Backendless;
import com.backendless.BackendlessUser;
import com.backendless.Invoker;
import com.backendless.async.callback.AsyncCallback;
import com.backendless.exceptions.BackendlessException;
import com.backendless.exceptions.BackendlessFault;
import com.backendless.messaging.MessageStatus;
import com.backendless.persistence.DataQueryBuilder;
import com.backendless.property.UserProperty;
import com.backendless.push.DeviceRegistrationUtil;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Check {
    static String base;
    static final String APP = "UNDERSTUDY-APP";
    static final String KEY = "UNDERSTUDY-REST-KEY";
    static int passed = 0;
    static int failed = 0;

    interface Step {
        String run() throws Exception;
    }

    /** Runs a step: it returns null when it passed, or what went wrong. */
    static void step(String name, Step step) {
        String problem;
        try {
            problem = step.run();
        } catch (Throwable e) {
            problem = "threw " + e;
        }
        if (problem == null) {
            passed++;
            System.out.println("OK   " + name);
        } else {
            failed++;
            System.out.println("FAIL " + name + ": " + problem);
        }
    }

    /** The BackendlessException a call throws, as "code message"; null when it does not throw. */
    static BackendlessException fault(Runnable call) {
        try {
            call.run();
            return null;
        } catch (BackendlessException e) {
            return e;
        }
    }

    /** Null when `e` has `code` and the REST route's message for the same request; else what differs. */
    static String sameAsREST(BackendlessException e, String code, String[] rest) {
        if (e == null) return "no fault, wanted " + code;
        if (!code.equals(e.getCode())) return "fault " + e.getCode() + " " + e.getMessage() + ", wanted " + code;
        String restCode = match(rest[1], "\"code\":(\\d+)");
        String restMessage = unescape(match(rest[1], "\"message\":\"((?:[^\"\\\\]|\\\\.)*)\""));
        if (!code.equals(restCode)) return "REST answered " + rest[1] + ", not " + code;
        if (!e.getMessage().equals(restMessage)) return "message '" + e.getMessage() + "', REST says '" + restMessage + "'";
        return null;
    }

    /** A JSON string's text without its escapes (enough for the messages here: quotes, backslashes, slashes). */
    static String unescape(String text) {
        return text == null ? null : text.replace("\\\"", "\"").replace("\\/", "/").replace("\\\\", "\\");
    }

    static String match(String text, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /** A plain HTTP request: {status, body}. */
    static String[] http(String method, String path, String json) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) new URL(base + path).openConnection();
        connection.setRequestMethod(method);
        if (json != null) {
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            try (OutputStream out = connection.getOutputStream()) {
                out.write(json.getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (in != null) in.transferTo(bytes);
        return new String[] {String.valueOf(status), bytes.toString(StandardCharsets.UTF_8)};
    }

    static String[] rest(String method, String path, String json) throws Exception {
        return http(method, "/" + APP + "/" + KEY + path, json);
    }

    static BackendlessUser user(String email, String password) {
        BackendlessUser user = new BackendlessUser();
        user.setEmail(email);
        user.setPassword(password);
        return user;
    }

    public static void main(String[] args) throws Exception {
        base = "http://127.0.0.1:" + args[0];
        Backendless.setUrl(base);
        Backendless.initApp(APP, KEY);
        final String email = "java1@example.com";
        final AtomicReference<BackendlessUser> registered = new AtomicReference<>();
        final AtomicReference<BackendlessUser> loggedIn = new AtomicReference<>();

        step("register", () -> {
            BackendlessUser user = Backendless.UserService.register(user(email, "secret-1"));
            registered.set(user);
            return user.getObjectId() != null && email.equals(user.getEmail()) ? null : "got " + user.getProperties();
        });
        step("register again: 3033, as over REST", () -> sameAsREST(
            fault(() -> Backendless.UserService.register(user(email, "secret-1"))), "3033",
            rest("POST", "/users/register", "{\"email\":\"" + email + "\",\"password\":\"secret-1\"}")));
        step("register without a password (the SDK refuses it itself, so through its Invoker): 3011, as over REST", () -> {
            Map<String, Object> properties = new HashMap<>();
            properties.put("email", "java-nopw@example.com");
            return sameAsREST(
                fault(() -> Invoker.invokeSync("com.backendless.services.users.UserService", "register", new Object[] {properties})),
                "3011", rest("POST", "/users/register", "{\"email\":\"java-nopw@example.com\"}"));
        });
        step("login with a wrong password: 3003, as over REST", () -> sameAsREST(
            fault(() -> Backendless.UserService.login(email, "wrong")), "3003",
            rest("POST", "/users/login", "{\"login\":\"" + email + "\",\"password\":\"wrong\"}")));
        step("login (stay logged in)", () -> {
            BackendlessUser user = Backendless.UserService.login(email, "secret-1", true);
            loggedIn.set(user);
            if (Backendless.UserService.CurrentUser() == null) return "no current user";
            return user.getObjectId().equals(registered.get().getObjectId()) ? null : "another user: " + user.getProperties();
        });
        step("isValidLogin", () -> Backendless.UserService.isValidLogin() ? null : "false");
        step("update a property", () -> {
            BackendlessUser user = loggedIn.get();
            user.setProperty("nick", "javaNick");
            BackendlessUser updated = Backendless.UserService.update(user);
            return "javaNick".equals(updated.getProperty("nick")) ? null : "got " + updated.getProperties();
        });
        step("describeUserClass", () -> {
            List<UserProperty> properties = Backendless.UserService.describeUserClass();
            for (UserProperty property : properties) if ("email".equals(property.getName())) return null;
            return "no email column in " + properties;
        });
        step("getUserRoles", () -> {
            List<String> roles = Backendless.UserService.getUserRoles();
            return roles.isEmpty() ? "no roles" : null;
        });
        step("restorePassword: the email lands in the outbox", () -> {
            Backendless.UserService.restorePassword(email);
            String outbox = http("GET", "/_understudy/outbox", null)[1];
            return outbox.contains(email) ? null : "the outbox: " + outbox;
        });
        step("restorePassword of nobody: 3020, as over REST", () -> sameAsREST(
            fault(() -> Backendless.UserService.restorePassword("nobody@example.com")), "3020",
            rest("GET", "/users/restorepassword/nobody@example.com", null)));
        step("resendEmailConfirmation: as over REST", () -> {
            String[] restReply = rest("POST", "/users/resendconfirmation/" + email, null);
            BackendlessException e = fault(() -> Backendless.UserService.resendEmailConfirmation(email));
            if (restReply[0].equals("200")) return e == null ? null : "fault " + e.getCode() + " where REST answered 200";
            return sameAsREST(e, match(restReply[1], "\"code\":(\\d+)"), restReply);
        });
        step("Data.of(BackendlessUser.class).findById", () -> {
            BackendlessUser found = Backendless.Data.of(BackendlessUser.class).findById(registered.get().getObjectId());
            return email.equals(found.getEmail()) ? null : "got " + found.getProperties();
        });
        step("Data.of(\"Users\").findById of nobody: as over REST", () -> {
            String[] restReply = rest("GET", "/data/Users/nobody", null);
            return sameAsREST(fault(() -> Backendless.Data.of("Users").findById("nobody")), match(restReply[1], "\"code\":(\\d+)"), restReply);
        });
        step("publish", () -> {
            MessageStatus status = Backendless.Messaging.publish("default", "hello from Java");
            return status != null && status.getMessageId() != null ? null : "got " + status;
        });
        step("Data.of(BackendlessUser.class).find with a where clause and sortBy, getObjectCount, findFirst, findLast", () -> {
            Backendless.UserService.register(user("java2@example.com", "secret-2"));
            DataQueryBuilder query = DataQueryBuilder.create().setWhereClause("email LIKE 'java%'").setSortBy("email DESC").setPageSize(10);
            List<BackendlessUser> found = Backendless.Data.of(BackendlessUser.class).find(query);
            StringBuilder emails = new StringBuilder();
            for (BackendlessUser each : found) emails.append(each.getEmail()).append(' ');
            if (!emails.toString().equals("java2@example.com java1@example.com ")) return "find: " + emails;
            int count = Backendless.Data.of(BackendlessUser.class).getObjectCount(query);
            if (count != 2) return "getObjectCount: " + count;
            BackendlessUser first = Backendless.Data.of(BackendlessUser.class).findFirst();
            BackendlessUser last = Backendless.Data.of(BackendlessUser.class).findLast();
            return email.equals(first.getEmail()) && "java2@example.com".equals(last.getEmail()) ? null : "first " + first.getEmail() + ", last " + last.getEmail();
        });
        step("Data.of(BackendlessUser.class).find with a where clause REST refuses: as over REST", () -> {
            String[] restReply = rest("POST", "/data/Users/find", "{\"where\":\"email ===\"}");
            return sameAsREST(fault(() -> Backendless.Data.of(BackendlessUser.class).find(DataQueryBuilder.create().setWhereClause("email ==="))),
                match(restReply[1], "\"code\":(\\d+)"), restReply);
        });
        step("Data.of(BackendlessUser.class).save: a property changed through the Data service", () -> {
            BackendlessUser user = Backendless.Data.of(BackendlessUser.class).findById(registered.get().getObjectId());
            user.setProperty("nick", "dataNick");
            BackendlessUser saved = Backendless.Data.of(BackendlessUser.class).save(user);
            BackendlessUser read = Backendless.Data.of(BackendlessUser.class).findById(registered.get().getObjectId());
            return "dataNick".equals(saved.getProperty("nick")) && "dataNick".equals(read.getProperty("nick")) ? null : "saved " + saved.getProperties();
        });
        step("login by objectId under the client key: 2014, as over REST", () -> sameAsREST(
            fault(() -> Backendless.UserService.login(registered.get().getObjectId())), "2014",
            rest("POST", "/users/login", "{\"objectId\":\"" + registered.get().getObjectId() + "\"}")));
        step("login by objectId under the CloudCode key", () -> {
            Backendless.initApp(APP, "UNDERSTUDY-CLOUDCODE-KEY");
            try {
                BackendlessUser user = Backendless.UserService.login(registered.get().getObjectId());
                BackendlessUser current = Backendless.UserService.CurrentUser();
                return user.getObjectId().equals(registered.get().getObjectId()) && current != null && email.equals(current.getEmail())
                    ? null : "got " + user.getProperties();
            } finally {
                Backendless.initApp(APP, KEY);
                Backendless.UserService.login(email, "secret-1", true);
            }
        });
        step("registerDevice (as Android registers), then unregisterDeviceOnServer(channels): an int; unregisterDeviceOnServer(): 5001, as over REST", () -> {
            // DeviceRegistrationUtil.registerDeviceOnServer sends os = Messaging.getOS(), "ANDROID" on Android and
            // the JVM's os.name elsewhere (5005 here): the registration goes as Android sends it, through the Invoker.
            com.backendless.DeviceRegistration registration = new com.backendless.DeviceRegistration();
            registration.setDeviceId(com.backendless.Messaging.getDeviceId());
            registration.setOs("ANDROID");
            registration.setOsVersion("33");
            registration.setDeviceToken("token-java");
            registration.setChannels(Arrays.asList("default", "news"));
            Object id = Invoker.invokeSync("com.backendless.services.messaging.DeviceRegistrationService", "registerDevice", new Object[] {registration});
            if (!(id instanceof String) || ((String) id).isEmpty()) return "registration id: " + id;
            DeviceRegistrationUtil devices = DeviceRegistrationUtil.getInstance();
            int left = devices.unregisterDeviceOnServer(Arrays.asList("news"));
            if (left != 0) return "channels left: " + left;
            String[] restReply = rest("DELETE", "/messaging/registrations/" + com.backendless.Messaging.getDeviceId(), null);
            return sameAsREST(fault(() -> devices.unregisterDeviceOnServer()), "5001", restReply);
        });
        step("logout", () -> {
            Backendless.UserService.logout();
            return Backendless.UserService.CurrentUser() == null ? null : "still logged in";
        });
        step("loginAsGuest", () -> {
            BackendlessUser guest = Backendless.UserService.loginAsGuest();
            return "GUEST".equals(String.valueOf(guest.getProperty("userStatus"))) ? null : "got " + guest.getProperties();
        });
        step("a fault injected on users.login reaches the app as its BackendlessFault", () -> {
            String[] injected = http("POST", "/_understudy/faults", "{\"op\":\"users.login\",\"code\":3036,\"times\":1}");
            if (!injected[0].equals("201")) return "the control API answered " + injected[1];
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<BackendlessFault> seen = new AtomicReference<>();
            Backendless.UserService.login(email, "secret-1", new AsyncCallback<BackendlessUser>() {
                public void handleResponse(BackendlessUser user) { done.countDown(); }
                public void handleFault(BackendlessFault fault) { seen.set(fault); done.countDown(); }
            });
            if (!done.await(20, TimeUnit.SECONDS)) return "no answer";
            BackendlessFault fault = seen.get();
            if (fault == null) return "the login succeeded";
            return "3036".equals(fault.getCode()) && !fault.getMessage().isEmpty() ? null : "fault " + fault.getCode() + " " + fault.getMessage();
        });
        step("Java's default HttpClient (h2c upgrade offered): two requests on one connection, both answered at once", () -> {
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            for (int round = 0; round < 2; round++) {
                long started = System.nanoTime();
                java.net.http.HttpResponse<String> response = client.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/" + APP + "/" + KEY + "/users/userroles")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
                long milliseconds = (System.nanoTime() - started) / 1_000_000;
                if (response.statusCode() != 200) return "request " + (round + 1) + " answered " + response.statusCode();
                if (milliseconds > 3000) return "request " + (round + 1) + " took " + milliseconds + " ms";
            }
            return null;
        });
        System.out.println(passed + "/" + (passed + failed) + " steps passed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
