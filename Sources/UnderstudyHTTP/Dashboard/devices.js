// devices.js
