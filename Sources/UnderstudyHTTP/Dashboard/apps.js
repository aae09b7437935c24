// apps.js
