// faults.js
