-- wrk script: POST users/register with a new identity on every request (run by bench/http.py).
-- Each wrk thread numbers its own requests; the thread id keeps identities apart across threads.
local threads = 0

function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end

function init(args)
  counter = 0
  prefix = args[1] or "w"
  path = args[2] or "/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/register"
end

function request()
  counter = counter + 1
  local body = string.format('{"email":"%s%d-%d@example.com","password":"secret","name":"Load %d"}', prefix, thread_id, counter, counter)
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
  io.write(string.format("RESULT requests=%d seconds=%.3f non2xx=%d socket_errors=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
