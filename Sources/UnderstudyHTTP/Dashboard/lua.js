// lua.js
