/*
 * Opening the sandbox: which libraries a scenario gets, with the guarded functions in place, and the
 * scenario() and skip() globals.
 */
#include "us_internal.h"


/* ------------------------------------------------------------------------------------------------------ */
/* The sandbox.                                                                                             */

static int us_scenario(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "scenario: the name (argument 1) must be a string, got %s", luaL_typename(L, 1));
    int fn_index = 2;
    if (lua_type(L, 2) == LUA_TTABLE) {
        fn_index = 3;
    } else if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TFUNCTION) {
        return luaL_error(L, "scenario: argument 2 must be an options table or the scenario function, got %s",
                          luaL_typename(L, 2));
    }
    if (lua_type(L, fn_index) != LUA_TFUNCTION)
        return luaL_error(L, "scenario '%s': the scenario function (argument %d) is missing",
                          lua_tostring(L, 1), fn_index);
    if (!us_info_of(L)->declaring || lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_scenarios) != LUA_TTABLE)
        return luaL_error(L, "scenario: scenarios can only be declared while a file loads, not inside a scenario");
    int list = lua_gettop(L);

    lua_createtable(L, 5, 0);
    int entry = lua_gettop(L);
    lua_pushvalue(L, 1);
    lua_rawseti(L, entry, 1);
    lua_pushvalue(L, fn_index);
    lua_rawseti(L, entry, 2);
    if (fn_index == 3) {
        /* The options are read once, here: the entry keeps copies (a list of tags, { skip = ... }), never the
           table itself, so a metamethod or a later change of a shared options table does nothing. */
        if (lua_getfield(L, 2, "tags") != LUA_TNIL) {
            if (lua_type(L, -1) != LUA_TTABLE)
                return luaL_error(L, "scenario '%s': options.tags must be a list of strings", lua_tostring(L, 1));
            lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
            us_charge_steps(L, (lua_Unsigned)count, 1);
            lua_createtable(L, count > 0 && count < 1024 ? (int)count : 0, 0);
            for (lua_Integer i = 1; i <= count; i++) {
                if (lua_rawgeti(L, -2, i) != LUA_TSTRING)
                    return luaL_error(L, "scenario '%s': options.tags[%d] must be a string", lua_tostring(L, 1),
                                      (int)i);
                lua_rawseti(L, -2, i);
            }
            lua_remove(L, -2);
        }
        lua_rawseti(L, entry, 3);
        lua_createtable(L, 0, 1);
        lua_getfield(L, 2, "skip");
        lua_setfield(L, -2, "skip");
        lua_rawseti(L, entry, 5);
    }
    lua_Debug ar;
    int line = 0;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar)) line = ar.currentline;
    lua_pushinteger(L, line);
    lua_rawseti(L, entry, 4);

    lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
    return 0;
}

/* skip(reason): ends the scenario as skipped. */
static int us_skip(lua_State *L) {
    const char *reason = luaL_optstring(L, 1, "skipped");
    lua_createtable(L, 0, 1);
    lua_pushstring(L, reason);
    lua_rawsetp(L, -2, &us_key_skip);
    return lua_error(L);
}

static int us_open_sandbox_protected(lua_State *L) {
    int unsafe = lua_toboolean(L, 1);
    lua_Integer seed = lua_tointeger(L, 2);
    if (unsafe) {
        luaL_openlibs(L);
    } else {
        luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
        luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
        luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
        luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
        luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
        luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
        lua_settop(L, 2);
        /* os: only time, clock and date */
        luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
        lua_createtable(L, 0, 3);
        static const char *const kept[] = { "time", "clock", "date" };
        for (int i = 0; i < 3; i++) {
            lua_getfield(L, -2, kept[i]);
            lua_setfield(L, -2, kept[i]);
        }
        lua_setglobal(L, LUA_OSLIBNAME);
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* no package.loaded to reach libraries through */
        static const char *const removed[] = { "dofile", "loadfile", "require" };
        for (int i = 0; i < 3; i++) {
            lua_pushnil(L);
            lua_setglobal(L, removed[i]);
        }
        lua_getglobal(L, "load");
        lua_pushcclosure(L, us_safe_load, 1);
        lua_setglobal(L, "load");
        lua_getglobal(L, "collectgarbage");
        lua_pushcclosure(L, us_safe_collectgarbage, 1);
        lua_setglobal(L, "collectgarbage");
        lua_getglobal(L, "setmetatable");
        lua_pushcclosure(L, us_safe_setmetatable, 1);
        lua_setglobal(L, "setmetatable");
    }
    /* In both modes: the budget holds whatever library is open. */
    lua_getglobal(L, LUA_STRLIBNAME);
    us_open_patterns(L);
    lua_pop(L, 1);
    us_open_charges(L);
    lua_getglobal(L, LUA_COLIBNAME);
    lua_getfield(L, -1, "close");
    lua_pushcclosure(L, us_safe_coroutine_close, 1);
    lua_setfield(L, -2, "close");
    lua_pop(L, 1);
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_getfield(L, -1, "rep");
    lua_pushcclosure(L, us_safe_rep, 1);
    lua_setfield(L, -2, "rep");
    lua_pop(L, 1);
    lua_getglobal(L, LUA_TABLIBNAME);
    lua_getfield(L, -1, "move");
    lua_pushcclosure(L, us_safe_move, 1);
    lua_setfield(L, -2, "move");
    lua_pop(L, 1);
    lua_getglobal(L, LUA_UTF8LIBNAME);
    lua_getfield(L, -1, "codes");
    lua_getfield(L, -2, "len");
    lua_pushcclosure(L, us_safe_utf8_codes, 2);
    lua_setfield(L, -2, "codes");
    lua_pop(L, 1);
    lua_getglobal(L, "xpcall");
    lua_pushcclosure(L, us_safe_xpcall, 1);
    lua_setglobal(L, "xpcall");
    lua_pushcfunction(L, us_print);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, us_scenario);
    lua_setglobal(L, "scenario");
    lua_pushcfunction(L, us_skip);
    lua_setglobal(L, "skip");
    /* deterministic math.random */
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 0;
}

int us_open_sandbox(lua_State *L, int unsafe, lua_Integer random_seed) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    lua_pushcfunction(L, us_open_sandbox_protected);
    lua_pushboolean(L, unsafe);
    lua_pushinteger(L, random_seed);
    int status = lua_pcallk(L, 2, 0, 0, 0, NULL);
    info->relaxed--;
    return status;
}
