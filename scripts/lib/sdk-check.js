// Shared by the real-SDK checks (scripts/backendless-js-sdk/run.js, scripts/kii-js-sdk/run.js): numbered steps that
// print OK or FAIL, the control API of the `understudy serve` under test, and, when a step fails, the requests and
// replies the server journaled while it ran, so a failure shows what the SDK sent and what it got back.
//
// A step is tagged with the contract version it needs (`v: 3` for ../shared/spec/v3.md, `v: 4` for v4.md, version 1
// and 2 otherwise). CONTRACT=N in the environment skips the steps of later versions (for a build without them).
const http = require('http');

class Check {
  constructor(port) {
    this.port = port;
    this.contract = Number(process.env.CONTRACT || 4);
    this.trace = process.env.TRACE === '1';
    this.counts = { 2: { ok: 0, fail: 0 }, 3: { ok: 0, fail: 0 }, 4: { ok: 0, fail: 0 } };
    this.skipped = 0;
  }

  // One request to the control API; resolves to { status, json } (json is null for an empty or non-JSON body).
  control(method, path, body) {
    const text = body == null ? null : (typeof body === 'string' ? body : JSON.stringify(body));
    const headers = {};
    if (text != null) headers['Content-Type'] = typeof body === 'string' ? 'text/plain' : 'application/json';
    return new Promise((resolve, reject) => {
      const req = http.request({ method, host: '127.0.0.1', port: this.port, path: `/_understudy/${path}`, headers }, res => {
        let data = '';
        res.on('data', c => data += c);
        res.on('end', () => {
          let json = null;
          try { json = data ? JSON.parse(data) : null; } catch (_) { json = null; }
          resolve({ status: res.statusCode, json, text: data });
        });
      });
      req.on('error', reject);
      if (text != null) req.write(text);
      req.end();
    });
  }

  // Runs a Lua chunk against the served apps (POST /_understudy/lua); resolves to its results, rejects on LUA_ERROR.
  async lua(chunk) {
    const reply = await this.control('POST', 'lua?name=check', chunk);
    if (reply.status !== 200) throw new Error(`control Lua chunk failed: ${reply.text.slice(0, 300)}`);
    return reply.json.results;
  }

  // The outbox of one kind ('emails', 'sms' or 'pushes') of every app, or of `app` when given.
  async outbox(kind, app) {
    const reply = await this.control('GET', `outbox?kind=${kind}${app ? `&app=${encodeURIComponent(app)}` : ''}`);
    return reply.json[kind];
  }

  async lastJournalSeq() {
    const reply = await this.control('GET', 'summary');
    return reply.json && reply.json.journal ? reply.json.journal.last_seq : 0;
  }

  async journalSince(seq) {
    const reply = await this.control('GET', `journal/tail?after=${seq}&limit=20`);
    return reply.json ? reply.json.entries : [];
  }

  // Runs `fn`; the step passes when it resolves (to anything but a string, which is printed as a note) and fails
  // when it throws. Prints the journal of a failing step.
  async step(label, fn, { v = 2 } = {}) {
    const bucket = Math.min(Math.max(v, 2), 4);
    const tag = bucket > 2 ? `[v${bucket}] ` : '';
    if (bucket > this.contract) { this.skipped++; return undefined; }
    const before = await this.lastJournalSeq();
    try {
      const value = await fn();
      this.counts[bucket].ok++;
      console.log(`OK   ${tag}${label}${typeof value === 'string' ? ` -> ${value}` : ''}`);
      if (this.trace) await this.printJournal(before);
      return value;
    } catch (e) {
      this.counts[bucket].fail++;
      process.exitCode = 1;
      console.log(`FAIL ${tag}${label}: ${describe(e)}`);
      await this.printJournal(before);
      return undefined;
    }
  }

  // A step that expects `fn` to fail with `want`: a Backendless code (a number, compared with the error's `code`)
  // or a text the error's message must contain (a Kii error code such as 'WRONG_TOKEN').
  async fails(label, fn, want, options) {
    return this.step(label, async () => {
      let result;
      try { result = await fn(); } catch (e) {
        const text = describe(e);
        const good = typeof want === 'number' ? e && e.code === want : text.includes(want);
        if (!good) throw new Error(`wanted ${want}, got ${text}`);
        return text.slice(0, 140);
      }
      throw new Error(`wanted ${want}, but it succeeded: ${JSON.stringify(result)}`.slice(0, 300));
    }, options);
  }

  async printJournal(seq) {
    let entries = [];
    try { entries = await this.journalSince(seq); } catch (_) { return; }
    for (const e of entries) {
      const body = e.body ? ` ${e.body.slice(0, 200)}` : '';
      console.log(`       ${e.method} ${e.path}${e.query ? `?${e.query}` : ''}${body}`);
      console.log(`         -> ${e.status} ${String(e.reply || '').slice(0, 300)}`);
    }
  }

  // Prints the counts per contract version and sets the exit code.
  summary() {
    const line = (n, c) => `${c.ok}/${c.ok + c.fail}`;
    const ran = [2, 3, 4].filter(v => v <= this.contract && (v < 4 || this.counts[4].ok + this.counts[4].fail > 0));
    console.log(ran.map(v => `contract ${v === 2 ? 'v1/v2' : `v${v}`} steps: ${line(v, this.counts[v])} passed`).join('; ')
      + (this.skipped ? `; ${this.skipped} later steps skipped (CONTRACT=${this.contract})` : ''));
    if (this.counts[2].fail + this.counts[3].fail + this.counts[4].fail > 0) process.exitCode = 1;
  }
}

function describe(e) {
  if (e == null) return String(e);
  if (typeof e !== 'object') return String(e);
  const code = e.code !== undefined ? `${e.code} ` : '';
  return `${code}${e.message || JSON.stringify(e)}`;
}

// Throws unless `actual` equals `expected` (compared as JSON).
function expectEqual(actual, expected, what) {
  const a = JSON.stringify(actual), b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: expected ${b}, got ${a}`);
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

module.exports = { Check, expect, expectEqual };
