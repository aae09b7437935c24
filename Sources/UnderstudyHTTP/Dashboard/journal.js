// journal.js
