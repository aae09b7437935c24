// Minimal asynchronous XMLHttpRequest for the Kii JS SDK under Node (no registry access): http only.
const http = require('http');
class XMLHttpRequest {
  constructor() { this.withCredentials = false; this.readyState = 0; this.headers = {}; this.status = 0; this.responseText = ''; this._responseHeaders = {}; }
  open(method, url) { this.method = method; this.url = new URL(url); this.readyState = 1; }
  setRequestHeader(name, value) { this.headers[name] = value; }
  getResponseHeader(name) { return this._responseHeaders[name.toLowerCase()] || null; }
  getAllResponseHeaders() { return Object.entries(this._responseHeaders).map(([k, v]) => `${k}: ${v}`).join('\r\n'); }
  send(data) {
    const body = data == null ? null : (typeof data === 'string' ? data : JSON.stringify(data));
    const req = http.request({ method: this.method, hostname: this.url.hostname, port: this.url.port, path: this.url.pathname + this.url.search, headers: this.headers }, res => {
      let chunks = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => {
        this.status = res.statusCode; this._responseHeaders = res.headers;
        this.responseText = Buffer.concat(chunks).toString('utf8'); this.readyState = 4;
        if (global.TRACE) console.log('   ', this.method, this.url.pathname, '->', this.status, this.responseText.slice(0, 160));
        if (this.onreadystatechange) this.onreadystatechange();
      });
    });
    req.on('error', e => { this.status = 0; this.readyState = 4; if (this.onreadystatechange) this.onreadystatechange(); });
    if (body != null) req.write(body);
    req.end();
  }
}
module.exports = { XMLHttpRequest };
