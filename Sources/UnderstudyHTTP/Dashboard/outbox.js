// outbox.js
