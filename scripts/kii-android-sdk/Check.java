// Drives the real Kii Android SDK (KiiCloudStorageSDK 2.1.29, the jar vendored in KiiPlatform/KiiChat) against
// `understudy serve`, on a plain JVM: Debian's org.json, Apache HttpClient 4 and the android.* stand-ins beside this
// file. The steps follow scripts/kii-js-sdk/run.js wherever this SDK has the call (it has no admin login, no
// topic.exists or listTopics, no SMS reset); what a back office does goes through REST. Run by ./check.

import com.kii.cloud.storage.IdentityData;
import com.kii.cloud.storage.Kii;
import com.kii.cloud.storage.KiiPushInstallation;
import com.kii.cloud.storage.KiiPushMessage;
import com.kii.cloud.storage.KiiTopic;
import com.kii.cloud.storage.KiiUser;
import com.kii.cloud.storage.UserFields;
import com.kii.cloud.storage.exception.CloudExecutionException;

import org.json.JSONArray;
import org.json.JSONObject;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

public class Check {
    static final String APP = "understudy-kii-app";
    static final String KEY = "understudy-kii-key";
    static String base;
    static int[] passed = new int[5];
    static int[] total = new int[5];
    static int failed = 0;
    static final boolean v3 = !"2".equals(System.getenv("CONTRACT"));

    interface Step {
        void run() throws Exception;
    }

    static void step(String name, Step step) { step(name, 1, step); }

    /** Runs a step of contract version `version` (skipped when CONTRACT=2 and it is 3). */
    static void step(String name, int version, Step step) {
        if (version >= 3 && !v3) return;
        total[version]++;
        String tag = version >= 3 ? "[v3] " : "";
        try {
            step.run();
            passed[version]++;
            System.out.println("OK   " + tag + name);
        } catch (Throwable e) {
            failed++;
            System.out.println("FAIL " + tag + name + ": " + describe(e));
        }
    }

    static void fails(String name, String errorCode, Step step) { fails(name, 1, errorCode, step); }

    /** A step that must fail with `errorCode` (the reply's errorCode, or the OAuth error). */
    static void fails(String name, int version, String errorCode, Step step) {
        step(name + " -> " + errorCode, version, () -> {
            try {
                step.run();
            } catch (CloudExecutionException e) {
                String body = e.getBody() == null ? "" : e.getBody();
                if (body.contains("\"" + errorCode + "\"") || Objects.equals(e.getError(), errorCode)) return;
                throw new AssertionError("wanted " + errorCode + ", got " + describe(e));
            }
            throw new AssertionError("wanted " + errorCode + ", but it succeeded");
        });
    }

    static String describe(Throwable e) {
        if (e instanceof CloudExecutionException) {
            CloudExecutionException c = (CloudExecutionException) e;
            return e.getClass().getSimpleName() + " " + c.getStatus() + " " + c.getBody();
        }
        return e instanceof AssertionError ? e.getMessage() : e.toString();
    }

    static void expect(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    static void expectEqual(Object actual, Object expected, String what) {
        if (!Objects.equals(actual, expected)) throw new AssertionError(what + ": expected " + expected + ", got " + actual);
    }

    /** A plain HTTP request (the control API, a back office's REST call): {status, body}. */
    static String[] http(String method, String path, String json, String... headers) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) new URL(base + path).openConnection();
        connection.setRequestMethod(method.equals("PATCH") ? "POST" : method);
        if (method.equals("PATCH")) connection.setRequestProperty("X-HTTP-Method-Override", "PATCH");
        for (int i = 0; i + 1 < headers.length; i += 2) connection.setRequestProperty(headers[i], headers[i + 1]);
        if (json != null) {
            connection.setDoOutput(true);
            if (connection.getRequestProperty("Content-Type") == null) connection.setRequestProperty("Content-Type", "application/json");
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

    /** The outbox of one kind (emails, sms, pushes) of the Kii app. */
    static JSONArray outbox(String kind) throws Exception {
        String[] reply = http("GET", "/_understudy/outbox?kind=" + kind + "&app=" + APP, null);
        expect(reply[0].equals("200"), "GET outbox: " + reply[1]);
        String text = reply[1].trim();
        return text.startsWith("[") ? new JSONArray(text) : new JSONObject(text).getJSONArray(kind);
    }

    static List<String> installationsPushedSince(int before) throws Exception {
        JSONArray pushes = outbox("pushes");
        List<String> ids = new ArrayList<>();
        for (int i = before; i < pushes.length(); i++) ids.add(pushes.getJSONObject(i).optString("installation_id"));
        Collections.sort(ids);
        return ids;
    }

    static KiiPushMessage message(String key, String value) {
        KiiPushMessage.Data data = new KiiPushMessage.Data();
        data.put(key, value);
        return KiiPushMessage.buildWith(data).build();
    }

    public static void main(String[] args) throws Exception {
        base = "http://127.0.0.1:" + args[0];
        Kii.initialize(APP, KEY, base + "/api");
        versions1and2();
        if (v3) {
            pseudoUsers();
            topics();
        }
        int all = 0, good = 0;
        for (int i = 0; i < 5; i++) { all += total[i]; good += passed[i]; }
        System.out.println("contract v1/v2 steps: " + passed[1] + "/" + total[1] + " passed"
            + (v3 ? "; contract v3 steps: " + passed[3] + "/" + total[3] + " passed" : ""));
        System.exit(failed == 0 && good == all ? 0 : 1);
    }

    static KiiUser user;

    static void versions1and2() {
        step("register", () -> {
            KiiUser created = KiiUser.builderWithEmail("android@mi6.co.uk").withPhone("+819012345671").withName("android").build();
            created.register("secret1");
            expect(created.getID() != null && created.getAccessToken() != null, "a userID and a token");
            user = created;
        });
        if (user == null) return;
        step("update(UserFields): displayName, custom fields", () -> {
            UserFields fields = new UserFields();
            fields.putDisplayName("Droid");
            fields.set("score", 7);
            fields.set("motto", "100% android");
            user.update(null, fields);
        });
        step("refresh (custom fields read back, a % kept)", () -> {
            user.refresh();
            expectEqual(Arrays.asList(user.getInt("score"), user.getString("motto"), user.getDisplayname()),
                Arrays.asList(7, "100% android", "Droid"), "score, motto, displayName");
            expectEqual(user.getBoolean("emailAddressVerified"), true, "emailAddressVerified (verification off)");
        });
        step("update(UserFields) with removeFromServer: the merge rule", () -> {
            UserFields fields = new UserFields();
            fields.set("rank", "captain");
            fields.removeFromServer("score");
            user.update(null, fields);
            user.refresh();
            expectEqual(Arrays.asList(user.has("score"), user.getString("rank"), user.getDisplayname()),
                Arrays.asList(false, "captain", "Droid"), "score removed, rank set, displayName kept");
        });
        step("update(): the whole record sent back (emailAddressVerified, userID, internalUserID, ...) with a change", () -> {
            user.set("level", 2);
            user.update();
            user.refresh();
            expectEqual(Arrays.asList(user.getInt("level"), user.getString("rank")), Arrays.asList(2, "captain"), "level, rank");
        });
        step("changePassword", () -> user.changePassword("secret2", "secret1"));
        fails("refresh with the old token", "WRONG_TOKEN", () -> user.refresh());
        step("logIn with the new password", () -> user = KiiUser.logIn("android", "secret2"));
        step("pushInstallation().install (GCM, production)", () -> KiiUser.pushInstallation().install("reg-1"));
        step("install again: the same registration is accepted", () -> KiiUser.pushInstallation().install("reg-1"));
        step("uninstall reg-1", () -> KiiUser.pushInstallation().uninstall("reg-1"));
        fails("uninstall again", "INSTALLATION_NOT_FOUND", () -> KiiUser.pushInstallation().uninstall("reg-1"));
        step("resetPassword (email)", () -> {
            int before = outbox("emails").length();
            KiiUser.resetPassword("android@mi6.co.uk");
            JSONArray emails = outbox("emails");
            expect(emails.length() == before + 1 && emails.getJSONObject(before).optString("to").equals("android@mi6.co.uk"),
                "one email to android@mi6.co.uk, got " + emails);
        });
        fails("resetPassword of an unknown email", "USER_NOT_FOUND", () -> KiiUser.resetPassword("nobody@mi6.co.uk"));
        step("delete", () -> user.delete());
        fails("logIn after delete", "invalid_grant", () -> KiiUser.logIn("android", "secret2"));
    }

    static void pseudoUsers() {
        final KiiUser[] anon = new KiiUser[1];
        step("registerAsPseudoUser: a token, isPseudoUser()", 3, () -> {
            UserFields fields = new UserFields();
            fields.putDisplayName("Anon");
            fields.set("level", 3);
            anon[0] = KiiUser.registerAsPseudoUser(fields);
            expect(anon[0].getAccessToken() != null, "an access token");
            expectEqual(Arrays.asList(anon[0].isPseudoUser(), anon[0].getUsername(), anon[0].getEmail()),
                Arrays.asList(true, null, null), "isPseudoUser, username, email");
            expectEqual(KiiUser.getCurrentUser().getID(), anon[0].getID(), "current user");
        });
        if (anon[0] == null) return;
        step("refresh a pseudo user: still pseudo", 3, () -> {
            anon[0].refresh();
            expectEqual(Arrays.asList(anon[0].isPseudoUser(), anon[0].getDisplayname(), anon[0].getInt("level")),
                Arrays.asList(true, "Anon", 3), "isPseudoUser, displayName, level");
        });
        final String token = anon[0].getAccessToken();
        step("putIdentity (username, password, a custom field)", 3, () -> {
            UserFields fields = new UserFields();
            fields.set("level", 4);
            anon[0].putIdentity(IdentityData.Builder.newWithName("anon1").build(), fields, "secret1");
            expectEqual(Arrays.asList(anon[0].isPseudoUser(), anon[0].getUsername()), Arrays.asList(false, "anon1"), "isPseudoUser, username");
        });
        step("the same token keeps working after putIdentity", 3, () -> {
            expectEqual(anon[0].getAccessToken(), token, "token");
            anon[0].refresh();
            expectEqual(Arrays.asList(anon[0].isPseudoUser(), anon[0].getUsername(), anon[0].getInt("level")),
                Arrays.asList(false, "anon1", 4), "after refresh");
        });
        step("logIn with the identity put", 3, () -> expectEqual(KiiUser.logIn("anon1", "secret1").getID(), anon[0].getID(), "userID"));
        fails("putIdentity with a username another user holds", 3, "USER_ALREADY_EXISTS", () ->
            KiiUser.registerAsPseudoUser(null).putIdentity(IdentityData.Builder.newWithName("anon1").build(), null, "secret2"));
        step("delete a pseudo user: its token ends (WRONG_TOKEN)", 3, () -> {
            KiiUser pseudo = KiiUser.registerAsPseudoUser(null);
            String pseudoToken = pseudo.getAccessToken();
            pseudo.delete();
            try {
                KiiUser.loginWithToken(pseudoToken);
                throw new AssertionError("a login with the deleted user's token succeeded");
            } catch (CloudExecutionException e) {
                expect(String.valueOf(e.getBody()).contains("WRONG_TOKEN"), "wanted WRONG_TOKEN, got " + describe(e));
            }
        });
    }

    static void topics() {
        // The subscriber: a user with a production and a development Android installation.
        final KiiUser[] member = new KiiUser[1];
        final String[] installations = new String[2];
        step("a second user with a production and a development installation", () -> {
            KiiUser.builderWithName("member").build().register("secret1");
            member[0] = KiiUser.logIn("member", "secret1");
            KiiUser.pushInstallation(false).install("fcm-member");
            KiiUser.pushInstallation(true).install("fcm-member-dev");
            String[] registrations = {"fcm-member", "fcm-member-dev"};
            for (int i = 0; i < 2; i++) {
                String[] found = http("GET", "/api/apps/" + APP + "/installations/ANDROID:" + registrations[i], null,
                    "Authorization", "Bearer " + member[0].getAccessToken());
                JSONObject installation = new JSONObject(found[1]);
                expectEqual(installation.optBoolean("development"), i == 1, "development of " + found[1]);
                installations[i] = installation.getString("installationID");
            }
        });
        if (member[0] == null) return;

        // App-scope topics are the app administrator's. This SDK refuses to create one itself ("use REST api with
        // App Admin token"), so the back office creates "news" over REST with the client-credentials token.
        final String[] admin = new String[1];
        step("the back office creates the app topic \"news\" (client-credentials token, REST)", 3, () -> {
            String[] token = http("POST", "/api/oauth2/token", "{\"client_id\":\"" + APP + "\",\"client_secret\":\"" + KEY + "\"}",
                "X-Kii-AppID", APP, "X-Kii-AppKey", KEY);
            admin[0] = new JSONObject(token[1]).getString("access_token");
            String[] created = http("PUT", "/api/apps/" + APP + "/topics/news", null, "Authorization", "Bearer " + admin[0]);
            expectEqual(created[0], "204", "PUT topics/news: " + created[1]);
        });
        step("logIn the member again", () -> member[0] = KiiUser.logIn("member", "secret1"));
        step("pushSubscription().subscribe(app topic)", 3, () -> member[0].pushSubscription().subscribe(Kii.topic("news")));
        step("pushSubscription().isSubscribed: true", 3, () ->
            expectEqual(member[0].pushSubscription().isSubscribed(Kii.topic("news")), true, "isSubscribed"));
        fails("subscribe again", 3, "PUSH_SUBSCRIPTION_ALREADY_EXISTS", () -> member[0].pushSubscription().subscribe(Kii.topic("news")));
        fails("a user cannot send to an app-scope topic", 3, "UNAUTHORIZED", () -> Kii.topic("news").sendMessage(message("msg", "hi")));

        final KiiTopic diary = member[0].topicOfThisUser("diary");
        step("user.topicOfThisUser(\"diary\").save()", 3, () -> diary.save());
        fails("save it again", 3, "TOPIC_ALREADY_EXISTS", () -> member[0].topicOfThisUser("diary").save());
        fails("save a topic whose id has a \".\"", 3, "INVALID_INPUT_DATA", () -> member[0].topicOfThisUser("bad.id").save());
        step("topic.sendMessage on the user's own topic: every installation of the subscriber", 3, () -> {
            member[0].pushSubscription().subscribe(diary);
            int before = outbox("pushes").length();
            diary.sendMessage(message("msg", "dear diary"));
            List<String> expected = new ArrayList<>(Arrays.asList(installations));
            Collections.sort(expected);
            expectEqual(installationsPushedSince(before), expected, "installations pushed");
            JSONObject push = outbox("pushes").getJSONObject(before);
            expect("diary".equals(push.optString("topic")) && "dear diary".equals(push.optJSONObject("data").optString("msg")),
                "the push carries topic and data: " + push);
        });
        step("sendMessage to development only: the development installation", 3, () -> {
            int before = outbox("pushes").length();
            KiiPushMessage.Data data = new KiiPushMessage.Data();
            data.put("msg", "dev");
            diary.sendMessage(KiiPushMessage.buildWith(data).sendToProduction(false).sendToDevelopment(true).build());
            expectEqual(installationsPushedSince(before), Collections.singletonList(installations[1]), "installations pushed");
        });
        fails("sendMessage with data over 2048 bytes while APNs is enabled", 3, "INVALID_INPUT_DATA", () -> {
            KiiPushMessage.Data data = new KiiPushMessage.Data();
            data.put("big", "x".repeat(2100));
            diary.sendMessage(KiiPushMessage.buildWith(data).enableAPNS(true).build());
        });
        step("another user cannot subscribe to a user-scope topic, and is not subscribed (404 read as false)", 3, () -> {
            KiiUser.builderWithName("stranger").build().register("secret1");
            KiiUser stranger = KiiUser.logIn("stranger", "secret1");
            KiiTopic others = KiiUser.userWithID(member[0].getID()).topicOfThisUser("diary");
            try {
                stranger.pushSubscription().subscribe(others);
                throw new AssertionError("the subscription succeeded");
            } catch (CloudExecutionException e) {
                expect(String.valueOf(e.getBody()).contains("UNAUTHORIZED"), "wanted UNAUTHORIZED, got " + describe(e));
            }
            expectEqual(stranger.pushSubscription().isSubscribed(others), false, "isSubscribed");
        });
        step("logIn the member again", () -> member[0] = KiiUser.logIn("member", "secret1"));
        // What an app calls on Android's main thread: the async forms, answered through the SDK's executor and
        // the Handler / Looper / Message stand-ins.
        step("async logIn and refresh (KiiUserCallBack)", () -> {
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(2);
            final KiiUser[] loggedIn = new KiiUser[1];
            final Exception[] failure = new Exception[1];
            KiiUser.logIn(new com.kii.cloud.storage.callback.KiiUserCallBack() {
                @Override public void onLoginCompleted(int token, KiiUser user, Exception e) {
                    loggedIn[0] = user;
                    failure[0] = e;
                    done.countDown();
                    if (user == null) { done.countDown(); return; }
                    user.refresh(new com.kii.cloud.storage.callback.KiiUserCallBack() {
                        @Override public void onRefreshCompleted(int token, Exception e) {
                            if (e != null) failure[0] = e;
                            done.countDown();
                        }
                    });
                }
            }, "member", "secret1");
            expect(done.await(20, java.util.concurrent.TimeUnit.SECONDS), "no callback within 20 s");
            if (failure[0] != null) throw failure[0];
            expectEqual(loggedIn[0].getUsername(), "member", "username");
            member[0] = loggedIn[0];
        });
        step("pushSubscription().unsubscribe, then isSubscribed: false", 3, () -> {
            member[0].pushSubscription().unsubscribe(Kii.topic("news"));
            expectEqual(member[0].pushSubscription().isSubscribed(Kii.topic("news")), false, "isSubscribed");
        });
        fails("unsubscribe again", 3, "PUSH_SUBSCRIPTION_NOT_FOUND", () -> member[0].pushSubscription().unsubscribe(Kii.topic("news")));
        step("topic.delete (user scope)", 3, () -> member[0].topicOfThisUser("diary").delete());
        fails("delete again", 3, "TOPIC_NOT_FOUND", () -> member[0].topicOfThisUser("diary").delete());
    }
}
