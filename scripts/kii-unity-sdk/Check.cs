// Drives the real Kii Unity SDK (KiiPlatform/KiiCloudUnitySDK: its .NET core, KiiCloudStorageSDK, and its Unity
// transport, KiiCloudUnitySDK/unity) against `understudy serve` on mono. `dotnet` initialises Kii with the core's
// own HttpWebRequest client; `unity` initialises it as a game does, through KiiInitializeBehaviour, so every call
// goes through the Unity transport against the UnityEngine stand-in beside this file: each a POST (or a GET) naming
// its method in X-HTTP-Method-Override, and each status read from X-HTTP-Status-Code. The steps are
// scripts/kii-js-sdk/run.js's wherever this SDK has the call. Run by ./check.
//
//   mono check.exe PORT dotnet|unity
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Text;
using KiiCorp.Cloud.Storage;
using KiiCorp.Cloud.Unity;
using JsonOrg;

public static class Check
{
    const string APP = "understudy-kii-app";
    const string KEY = "understudy-kii-key";
    static string baseUrl;
    static bool unity;
    static readonly bool v3 = Environment.GetEnvironmentVariable("CONTRACT") != "2";
    static readonly int[] passed = new int[5];
    static readonly int[] total = new int[5];

    static void Step(string name, Action action) { Step(name, 1, action); }

    static void Step(string name, int version, Action action)
    {
        if (version >= 3 && !v3) return;
        total[version]++;
        string tag = (unity ? "[unity] " : "[dotnet] ") + (version >= 3 ? "[v3] " : "");
        try
        {
            action();
            passed[version]++;
            Console.WriteLine("OK   " + tag + name);
        }
        catch (Exception e)
        {
            Console.WriteLine("FAIL " + tag + name + ": " + Describe(e));
        }
    }

    /// A step that must fail: with `errorCode` in the reply's body through the .NET client; through the Unity
    /// transport, which never sees an error's body (Unity's WWW drops it), with `status`, the typed exception a
    /// game catches.
    static void Fails(string name, int version, int status, string errorCode, Action action)
    {
        Step(name + " -> " + status + " " + errorCode, version, () => {
            try
            {
                action();
            }
            catch (CloudException e)
            {
                if (e.Status != status) throw new Exception("wanted " + status + " " + errorCode + ", got " + Describe(e));
                if (!unity && (e.Body ?? "").IndexOf("\"" + errorCode + "\"", StringComparison.Ordinal) < 0)
                    throw new Exception("wanted " + errorCode + ", got " + Describe(e));
                return;
            }
            throw new Exception("wanted " + status + " " + errorCode + ", but it succeeded");
        });
    }

    static string Describe(Exception e)
    {
        var cloud = e as CloudException;
        if (cloud != null) return e.GetType().Name + " " + cloud.Status + " " + cloud.Body;
        return e.GetType().Name == "Exception" ? e.Message : e.ToString();
    }

    static void Expect(bool condition, string what)
    {
        if (!condition) throw new Exception(what);
    }

    static void ExpectEqual(object actual, object expected, string what)
    {
        if (!Equals(actual, expected)) throw new Exception(what + ": expected " + expected + ", got " + actual);
    }

    static string Show(IEnumerable<object> items) { return "[" + string.Join(", ", items.Select(i => i == null ? "null" : i.ToString()).ToArray()) + "]"; }

    static void ExpectSame(IEnumerable<object> actual, IEnumerable<object> expected, string what) { ExpectEqual(Show(actual), Show(expected), what); }

    /// Starts an async call and waits (20 s at most) for its callback; the callback's error, if any.
    static Exception Await<T>(Action<Action<Exception>> start)
    {
        var finished = new System.Threading.ManualResetEvent(false);
        Exception failure = null;
        start(e => { failure = e; finished.Set(); });
        if (!finished.WaitOne(20000)) return new Exception("no callback within 20 s");
        return failure;
    }

    /// A plain HTTP request (the control API, a back office's REST call): status and body.
    static KeyValuePair<int, string> Http(string method, string path, string json, params string[] headers)
    {
        var request = (HttpWebRequest)WebRequest.Create(baseUrl + path);
        request.Method = method;
        for (int i = 0; i + 1 < headers.Length; i += 2) request.Headers[headers[i]] = headers[i + 1];
        if (json != null)
        {
            byte[] bytes = Encoding.UTF8.GetBytes(json);
            request.ContentType = "application/json";
            request.ContentLength = bytes.Length;
            using (var body = request.GetRequestStream()) body.Write(bytes, 0, bytes.Length);
        }
        HttpWebResponse response;
        try { response = (HttpWebResponse)request.GetResponse(); }
        catch (WebException e) { response = (HttpWebResponse)e.Response; }
        using (response)
        using (var reader = new StreamReader(response.GetResponseStream()))
            return new KeyValuePair<int, string>((int)response.StatusCode, reader.ReadToEnd());
    }

    static JsonArray Outbox(string kind)
    {
        var reply = Http("GET", "/_understudy/outbox?kind=" + kind + "&app=" + APP, null);
        Expect(reply.Key == 200, "GET outbox: " + reply.Value);
        string text = reply.Value.Trim();
        return text.StartsWith("[") ? new JsonArray(text) : new JsonObject(text).GetJsonArray(kind);
    }

    static List<object> InstallationsPushedSince(int before)
    {
        var pushes = Outbox("pushes");
        var ids = new List<string>();
        for (int i = before; i < pushes.Length(); i++) ids.Add(pushes.GetJsonObject(i).OptString("installation_id"));
        ids.Sort(StringComparer.Ordinal);
        return ids.Cast<object>().ToList();
    }

    static KiiPushMessage Message(string key, string value)
    {
        var data = new KiiPushMessageData();
        data.Put(key, value);
        return KiiPushMessage.BuildWith(data).Build();
    }

    public static int Main(string[] args)
    {
        baseUrl = "http://127.0.0.1:" + args[0];
        unity = args.Length > 1 && args[1] == "unity";
        // The users differ per transport, so both runs share one server.
        string suffix = unity ? "u" : "n";
        if (unity)
        {
            var behaviour = new KiiInitializeBehaviour();
            behaviour.AppID = APP;
            behaviour.AppKey = KEY;
            behaviour.ServerUrl = baseUrl + "/api";
            behaviour.Awake();
        }
        else
        {
            Kii.Initialize(APP, KEY, baseUrl + "/api");
        }
        Versions1And2(suffix);
        if (v3)
        {
            PseudoUsers(suffix);
            Topics(suffix);
        }
        if (unity)
        {
            Step("every request went as Unity's WWW sends it: POST (or GET) with the method override", () => {
                List<string> sent;
                lock (UnityEngine.WWW.Sent) sent = new List<string>(UnityEngine.WWW.Sent);
                Expect(sent.Count > 0, "no request went through the Unity transport");
                var wrong = sent.Where(s => !(s.StartsWith("POST ") || s.StartsWith("GET "))).ToList();
                Expect(wrong.Count == 0, "requests with another method: " + string.Join("; ", wrong.ToArray()));
                foreach (string method in new[] { "GET", "PUT", "DELETE" })
                    Expect(sent.Any(s => s.Contains("X-HTTP-Method-Override: " + method)), "no request overrode " + method);
            });
        }
        Console.WriteLine((unity ? "[unity] " : "[dotnet] ") + "contract v1/v2 steps: " + passed[1] + "/" + total[1] + " passed"
            + (v3 ? "; contract v3 steps: " + passed[3] + "/" + total[3] + " passed" : ""));
        return passed.Sum() == total.Sum() ? 0 : 1;
    }

    static KiiUser user;

    static void Versions1And2(string suffix)
    {
        string email = "unity-" + suffix + "@mi6.co.uk", name = "unity" + suffix, phone = "+81901234568" + (suffix == "u" ? "1" : "2");
        Step("register", () => {
            var created = KiiUser.BuilderWithEmail(email).WithPhone(phone).WithName(name).Build();
            created.Register("secret1");
            Expect(created.ID != null && KiiUser.AccessToken != null, "a userID and a token");
            user = created;
        });
        if (user == null) return;
        Step("Update(UserFields): displayName, custom fields", () => {
            var fields = new UserFields();
            fields.Displayname = "Unity";
            fields["score"] = 7;
            fields["motto"] = "100% unity";
            user.Update(null, fields);
        });
        Step("Refresh (custom fields read back, a % kept)", () => {
            user.Refresh();
            ExpectSame(new object[] { user.GetInt("score"), user.GetString("motto"), user.Displayname, user.EmailVerified },
                new object[] { 7, "100% unity", "Unity", true }, "score, motto, displayName, emailVerified");
        });
        Step("Update(UserFields) with RemoveFromServer: the merge rule", () => {
            var fields = new UserFields();
            fields["rank"] = "captain";
            fields.RemoveFromServer("score");
            user.Update(null, fields);
            user.Refresh();
            ExpectSame(new object[] { user.Has("score"), user.GetString("rank"), user.Displayname },
                new object[] { false, "captain", "Unity" }, "score removed, rank set, displayName kept");
        });
        Step("Update(): the whole record sent back (emailAddressVerified, userID, internalUserID, ...) with a change", () => {
            user["level"] = 2;
            user.Update();
            user.Refresh();
            ExpectSame(new object[] { user.GetInt("level"), user.GetString("rank") }, new object[] { 2, "captain" }, "level, rank");
        });
        Step("ChangePassword", () => KiiUser.ChangePassword("secret2", "secret1"));
        Step("LogIn with the new password", () => user = KiiUser.LogIn(name, "secret2"));
        Step("PushInstallation().Install (ANDROID, production)", () => KiiUser.PushInstallation().Install("reg-" + suffix, KiiPushInstallation.DeviceType.ANDROID));
        Step("Install again: the same registration is accepted", () => KiiUser.PushInstallation().Install("reg-" + suffix, KiiPushInstallation.DeviceType.ANDROID));
        Step("Uninstall", () => KiiUser.PushInstallation().Uninstall("reg-" + suffix, KiiPushInstallation.DeviceType.ANDROID));
        Fails("Uninstall again", 1, 404, "INSTALLATION_NOT_FOUND", () => KiiUser.PushInstallation().Uninstall("reg-" + suffix, KiiPushInstallation.DeviceType.ANDROID));
        Step("ResetPassword (legacy, email)", () => {
            int before = Outbox("emails").Length();
            KiiUser.ResetPassword(email);
            var emails = Outbox("emails");
            Expect(emails.Length() == before + 1 && emails.GetJsonObject(before).OptString("to") == email, "one email to " + email + ", got " + emails);
        });
        Step("ResetPassword(EMAIL)", () => KiiUser.ResetPassword(email, KiiUser.NotificationMethod.EMAIL));
        Step("ResetPassword(SMS_PIN)", () => KiiUser.ResetPassword(phone, KiiUser.NotificationMethod.SMS_PIN));
        Fails("CompleteResetPassword with a wrong PIN", 1, 403, "INVALID_VERIFICATION_CODE", () => KiiUser.CompleteResetPassword(phone, "000000", "secret3"));
        Step("CompleteResetPassword with the texted PIN", () => {
            var sms = Outbox("sms");
            KiiUser.CompleteResetPassword(phone, sms.GetJsonObject(sms.Length() - 1).GetString("code"), "secret3");
        });
        Step("LogIn after the reset", () => user = KiiUser.LogIn(email, "secret3"));
        Fails("ResetPassword of an unknown email", 1, 404, "USER_NOT_FOUND", () => KiiUser.ResetPassword("nobody@mi6.co.uk"));
        Step("Delete", () => user.Delete());
        Fails("LogIn after Delete", 1, 400, "invalid_grant", () => KiiUser.LogIn(email, "secret3"));
    }

    static void PseudoUsers(string suffix)
    {
        KiiUser anon = null;
        Step("RegisterAsPseudoUser: a token, IsPseudoUser", 3, () => {
            var fields = new UserFields();
            fields.Displayname = "Anon";
            fields["level"] = 3;
            anon = KiiUser.RegisterAsPseudoUser(fields);
            Expect(KiiUser.AccessToken != null, "an access token");
            ExpectSame(new object[] { anon.IsPseudoUser, anon.Username, anon.Email }, new object[] { true, null, null }, "IsPseudoUser, Username, Email");
            ExpectEqual(KiiUser.CurrentUser.ID, anon.ID, "current user");
        });
        if (anon == null) return;
        Step("Refresh a pseudo user: still pseudo", 3, () => {
            anon.Refresh();
            ExpectSame(new object[] { anon.IsPseudoUser, anon.Displayname, anon.GetInt("level") }, new object[] { true, "Anon", 3 }, "IsPseudoUser, Displayname, level");
        });
        string token = KiiUser.AccessToken;
        Step("PutIdentity (username, password, a custom field)", 3, () => {
            var fields = new UserFields();
            fields["level"] = 4;
            anon.PutIdentity(IdentityData.Builder.CreateWithName("anon" + suffix).Build(), fields, "secret1");
            ExpectSame(new object[] { anon.IsPseudoUser, anon.Username }, new object[] { false, "anon" + suffix }, "IsPseudoUser, Username");
        });
        Step("the same token keeps working after PutIdentity", 3, () => {
            ExpectEqual(KiiUser.AccessToken, token, "token");
            anon.Refresh();
            ExpectSame(new object[] { anon.IsPseudoUser, anon.Username, anon.GetInt("level") }, new object[] { false, "anon" + suffix, 4 }, "after Refresh");
        });
        Step("LogIn with the identity put", 3, () => ExpectEqual(KiiUser.LogIn("anon" + suffix, "secret1").ID, anon.ID, "userID"));
        Fails("PutIdentity with a username another user holds", 3, 409, "USER_ALREADY_EXISTS", () =>
            KiiUser.RegisterAsPseudoUser(null).PutIdentity(IdentityData.Builder.CreateWithName("anon" + suffix).Build(), null, "secret2"));
        Step("Delete a pseudo user: its token ends", 3, () => {
            var pseudo = KiiUser.RegisterAsPseudoUser(null);
            string pseudoToken = KiiUser.AccessToken;
            pseudo.Delete();
            try
            {
                KiiUser.LoginWithToken(pseudoToken);
                throw new Exception("a login with the deleted user's token succeeded");
            }
            catch (CloudException e)
            {
                Expect(e.Status == 403 && (unity || (e.Body ?? "").Contains("WRONG_TOKEN")), "wanted 403 WRONG_TOKEN, got " + Describe(e));
            }
        });
    }

    static void Topics(string suffix)
    {
        KiiUser member = null;
        var installations = new string[2];
        string memberName = "member" + suffix, news = "news" + suffix;
        Step("a second user with a production and a development installation", () => {
            KiiUser.BuilderWithName(memberName).Build().Register("secret1");
            member = KiiUser.LogIn(memberName, "secret1");
            var registrations = new[] { "fcm-" + suffix, "fcm-dev-" + suffix };
            KiiUser.PushInstallation(false).Install(registrations[0], KiiPushInstallation.DeviceType.ANDROID);
            KiiUser.PushInstallation(true).Install(registrations[1], KiiPushInstallation.DeviceType.ANDROID);
            for (int i = 0; i < 2; i++)
            {
                var found = Http("GET", "/api/apps/" + APP + "/installations/ANDROID:" + registrations[i], null, "Authorization", "Bearer " + KiiUser.AccessToken);
                installations[i] = new JsonObject(found.Value).GetString("installationID");
            }
        });
        if (member == null) return;
        // App-scope topics are the app administrator's: this SDK has no admin login, so the back office creates
        // the app topic over REST with the client-credentials token.
        Step("the back office creates an app topic (client-credentials token, REST)", 3, () => {
            var token = Http("POST", "/api/oauth2/token", "{\"client_id\":\"" + APP + "\",\"client_secret\":\"" + KEY + "\"}",
                "X-Kii-AppID", APP, "X-Kii-AppKey", KEY);
            string admin = new JsonObject(token.Value).GetString("access_token");
            var created = Http("PUT", "/api/apps/" + APP + "/topics/" + news, null, "Authorization", "Bearer " + admin);
            ExpectEqual(created.Key, 204, "PUT topics/" + news + ": " + created.Value);
        });
        Step("Kii.Topic(app topic).Exists(): true, and false for an unknown topic (a 404 read as false)", 3, () =>
            ExpectSame(new object[] { Kii.Topic(news).Exists(), Kii.Topic("nothing").Exists() }, new object[] { true, false }, "Exists"));
        Step("Kii.ListTopics() with a user's token", 3, () =>
            Expect(Kii.ListTopics().Result.Any(t => t.Name == news), "the app topic listed"));
        Fails("an app-scope topic cannot be created with a user's token", 3, 401, "UNAUTHORIZED", () => Kii.Topic("mine" + suffix).Save());
        Step("PushSubscription.Subscribe(app topic)", 3, () => member.PushSubscription.Subscribe(Kii.Topic(news)));
        Step("PushSubscription.IsSubscribed: true", 3, () => ExpectEqual(member.PushSubscription.IsSubscribed(Kii.Topic(news)), true, "IsSubscribed"));
        Fails("Subscribe again (a 409 the game sees as one)", 3, 409, "PUSH_SUBSCRIPTION_ALREADY_EXISTS", () => member.PushSubscription.Subscribe(Kii.Topic(news)));
        Fails("a user cannot send to an app-scope topic", 3, 401, "UNAUTHORIZED", () => Kii.Topic(news).SendMessage(Message("msg", "hi")));

        Func<KiiTopic> diary = () => member.Topic("diary");
        Step("user.Topic(\"diary\").Save()", 3, () => diary().Save());
        Fails("Save it again", 3, 409, "TOPIC_ALREADY_EXISTS", () => diary().Save());
        Fails("Save a topic whose id has a \".\"", 3, 400, "INVALID_INPUT_DATA", () => member.Topic("bad.id").Save());
        Step("user.ListTopics()", 3, () => ExpectSame(member.ListTopics().Result.Select(t => (object)t.Name), new object[] { "diary" }, "topics"));
        Step("SendMessage on the user's own topic: every installation of the subscriber", 3, () => {
            member.PushSubscription.Subscribe(diary());
            int before = Outbox("pushes").Length();
            diary().SendMessage(Message("msg", "dear diary"));
            var expected = installations.OrderBy(i => i, StringComparer.Ordinal).Cast<object>().ToList();
            ExpectSame(InstallationsPushedSince(before), expected, "installations pushed");
            var push = Outbox("pushes").GetJsonObject(before);
            Expect(push.OptString("topic") == "diary" && push.GetJsonObject("data").OptString("msg") == "dear diary", "the push carries topic and data: " + push);
        });
        Step("SendMessage to development only: the development installation", 3, () => {
            int before = Outbox("pushes").Length();
            var data = new KiiPushMessageData();
            data.Put("msg", "dev");
            diary().SendMessage(KiiPushMessage.BuildWith(data).SendToProduction(false).SendToDevelopment(true).Build());
            ExpectSame(InstallationsPushedSince(before), new object[] { installations[1] }, "installations pushed");
        });
        Fails("SendMessage with data over 2048 bytes while APNs is enabled", 3, 400, "INVALID_INPUT_DATA", () => {
            var data = new KiiPushMessageData();
            data.Put("big", new string('x', 2100));
            diary().SendMessage(KiiPushMessage.BuildWith(data).EnableAPNS(true).Build());
        });
        Step("another user cannot subscribe to a user-scope topic, and is not subscribed (a 404 read as false)", 3, () => {
            KiiUser.BuilderWithName("stranger" + suffix).Build().Register("secret1");
            var stranger = KiiUser.LogIn("stranger" + suffix, "secret1");
            var others = KiiUser.UserWithID(member.ID).Topic("diary");
            try
            {
                stranger.PushSubscription.Subscribe(others);
                throw new Exception("the subscription succeeded");
            }
            catch (CloudException e)
            {
                Expect(e.Status == 401, "wanted 401 UNAUTHORIZED, got " + Describe(e));
            }
            ExpectEqual(stranger.PushSubscription.IsSubscribed(others), false, "IsSubscribed");
        });
        Step("LogIn the member again", () => member = KiiUser.LogIn(memberName, "secret1"));
        // What a game calls: the async forms, whose callbacks the Unity transport's looper (a coroutine) runs.
        Step("async LogIn and Refresh (the callbacks a game uses)", () => {
            KiiUser loggedIn = null;
            Exception failure = Await<KiiUser>(done => KiiUser.LogIn(memberName, "secret1", (u, e) => { loggedIn = u; done(e); }));
            if (failure != null) throw failure;
            failure = Await<KiiUser>(done => loggedIn.Refresh((u, e) => done(e)));
            if (failure != null) throw failure;
            ExpectEqual(loggedIn.Username, memberName, "Username");
            member = loggedIn;
        });
        Step("async Exists of an unknown topic: false, through the callback", 3, () => {
            bool? exists = null;
            Exception failure = Await<bool?>(done => Kii.Topic("nothing").Exists((found, e) => { exists = found; done(e); }));
            if (failure != null) throw failure;
            ExpectEqual(exists, (bool?)false, "Exists");
        });
        Step("Unsubscribe, then IsSubscribed: false", 3, () => {
            member.PushSubscription.Unsubscribe(Kii.Topic(news));
            ExpectEqual(member.PushSubscription.IsSubscribed(Kii.Topic(news)), false, "IsSubscribed");
        });
        Fails("Unsubscribe again", 3, 404, "PUSH_SUBSCRIPTION_NOT_FOUND", () => member.PushSubscription.Unsubscribe(Kii.Topic(news)));
        Step("Delete the user's topic, then Exists() is false", 3, () => {
            diary().Delete();
            ExpectEqual(diary().Exists(), false, "Exists");
        });
        Fails("Delete it again", 3, 404, "TOPIC_NOT_FOUND", () => diary().Delete());
    }
}
