// A small UnityEngine stand-in for the Kii Unity SDK's transport (KiiCloudUnitySDK/unity): the WWW class as a
// game's runtime has it, and the few other members the transport and KiiInitializeBehaviour touch. Like Unity's
// WWW, a request with post data is a POST and one without is a GET (the transport names the real method in
// X-HTTP-Method-Override and a {"_method": ...} body); a body without Content-Type goes as
// application/x-www-form-urlencoded; an error status sets `error` ("404 Not Found") and leaves no body, so the SDK
// reads every status from the X-HTTP-Status-Code reply header. The request runs when the WWW is made (Unity runs
// it in the background; the SDK polls isDone).
using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Threading;

namespace UnityEngine
{
    public class WWW : IDisposable
    {
        /// Every request a WWW sent: method, URL and headers (the check asserts the method override a game sends).
        public static readonly List<string> Sent = new List<string>();

        public bool isDone { get; private set; }
        public string error { get; private set; }
        public byte[] bytes { get; private set; }
        public Dictionary<string, string> responseHeaders { get; private set; }
        public float progress { get { return 1f; } }
        public float uploadProgress { get { return 1f; } }
        public int bytesDownloaded { get { return bytes == null ? 0 : bytes.Length; } }
        public int size { get { return bytesDownloaded; } }

        public WWW(string url) : this(url, null, new Dictionary<string, string>()) {}

        public WWW(string url, byte[] postData, Dictionary<string, string> headers)
        {
            responseHeaders = new Dictionary<string, string>();
            HttpWebRequest request = (HttpWebRequest)WebRequest.Create(url);
            request.Method = postData == null ? "GET" : "POST";
            // One connection per request: mono's HttpWebRequest now and then aborts the body write on a reused
            // connection (the server keeps connections serving; NativeClientTests and curl show it).
            request.KeepAlive = false;
            string contentType = null;
            var sent = new List<string>();
            foreach (KeyValuePair<string, string> header in headers)
            {
                switch (header.Key.ToLowerInvariant())
                {
                case "content-type": contentType = header.Value; break;
                case "accept": request.Accept = header.Value; break;
                default: request.Headers[header.Key] = header.Value; break;
                }
                sent.Add(header.Key + ": " + header.Value);
            }
            if (postData != null)
            {
                request.ContentType = contentType ?? "application/x-www-form-urlencoded";
                request.ContentLength = postData.Length;
                using (Stream body = request.GetRequestStream()) body.Write(postData, 0, postData.Length);
            }
            lock (Sent) Sent.Add(request.Method + " " + url + " | " + string.Join(" | ", sent.ToArray()));
            HttpWebResponse response;
            try
            {
                response = (HttpWebResponse)request.GetResponse();
            }
            catch (WebException e)
            {
                response = e.Response as HttpWebResponse;
                if (response == null)
                {
                    error = e.Message;
                    isDone = true;
                    return;
                }
            }
            using (response)
            {
                foreach (string name in response.Headers.AllKeys) responseHeaders[name] = response.Headers[name];
                var buffer = new MemoryStream();
                using (Stream stream = response.GetResponseStream()) stream.CopyTo(buffer);
                int status = (int)response.StatusCode;
                if (status >= 400)
                {
                    // Unity's WWW reads the error's body but does not give it to the game.
                    error = status + " " + response.StatusDescription;
                    bytes = new byte[0];
                }
                else
                {
                    bytes = buffer.ToArray();
                }
            }
            isDone = true;
        }

        public void Dispose() {}
    }

    public static class Time
    {
        static readonly System.Diagnostics.Stopwatch clock = System.Diagnostics.Stopwatch.StartNew();
        public static float realtimeSinceStartup { get { return (float)clock.Elapsed.TotalSeconds; } }
    }

    public static class Debug
    {
        public static void Log(object message) { Console.Error.WriteLine(message); }
    }

    public static class PlayerPrefs
    {
        static readonly Dictionary<string, string> values = new Dictionary<string, string>();
        public static string GetString(string key, string fallback) { string v; return values.TryGetValue(key, out v) ? v : fallback; }
        public static void SetString(string key, string value) { values[key] = value; }
        public static void Save() {}
    }

    public class Object
    {
        public static void DontDestroyOnLoad(Object target) {}
    }

    public class Coroutine {}

    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property)]
    public class SerializeField : Attribute {}

    /// A behaviour's coroutines run on a background thread, one step every 10 ms (a game's frames).
    public class MonoBehaviour : Object
    {
        public Coroutine StartCoroutine(IEnumerator routine)
        {
            var thread = new Thread(() => { while (routine.MoveNext()) Thread.Sleep(10); });
            thread.IsBackground = true;
            thread.Start();
            return new Coroutine();
        }
    }
}
