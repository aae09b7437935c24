// users.js
