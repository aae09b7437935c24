/*
 * Declared scenarios, the prelude's hand-over, scenario runs and live sessions, and raw table helpers.
 */
#include "us_internal.h"


/* ------------------------------------------------------------------------------------------------------ */
/* Declared scenarios.                                                                                      */

void us_set_scenario_chunk(lua_State *L, const char *chunkname) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    info->scenario_chunk = lua_pushstring(L, chunkname); /* kept alive by the registry */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_scenario_chunk);
    info->relaxed--;
}

void us_clear_scenarios(lua_State *L) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    lua_createtable(L, 0, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_scenarios);
    info->relaxed--;
}

static int us_push_entry(lua_State *L, int index) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_scenarios) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    if (lua_rawgeti(L, -1, index) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_remove(L, -2);
    return 1;
}

int us_scenario_count(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_scenarios) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    int count = (int)lua_rawlen(L, -1);
    lua_pop(L, 1);
    return count;
}

const char *us_scenario_name(lua_State *L, int index, size_t *length) {
    *length = 0;
    if (!us_push_entry(L, index)) return "";
    lua_rawgeti(L, -1, 1);
    const char *name = lua_tolstring(L, -1, length); /* a string: no conversion, no allocation */
    lua_pop(L, 2);                                   /* still referenced by the declaration list */
    return name;
}

int us_scenario_line(lua_State *L, int index) {
    if (!us_push_entry(L, index)) return 0;
    lua_rawgeti(L, -1, 4);
    int line = (int)lua_tointegerx(L, -1, NULL);
    lua_pop(L, 2);
    return line;
}

int us_scenario_tag_count(lua_State *L, int index) {
    if (!us_push_entry(L, index)) return 0;
    int count = 0;
    if (lua_rawgeti(L, -1, 3) == LUA_TTABLE) count = (int)lua_rawlen(L, -1);
    lua_pop(L, 2);
    return count;
}

const char *us_scenario_tag(lua_State *L, int index, int tag, size_t *length) {
    *length = 0;
    if (!us_push_entry(L, index)) return "";
    int top = lua_gettop(L);
    const char *text = "";
    if (lua_rawgeti(L, top, 3) == LUA_TTABLE && lua_rawgeti(L, top + 1, tag) == LUA_TSTRING) {
        text = lua_tolstring(L, -1, length); /* still referenced by the declaration list after the pop */
    }
    lua_settop(L, top - 1);
    return text;
}

void us_push_scenario_function(lua_State *L, int index) {
    if (!us_push_entry(L, index)) {
        lua_pushnil(L);
        lua_pushnil(L);
        return;
    }
    lua_rawgeti(L, -1, 2);
    lua_rawgeti(L, -2, 5);
    lua_remove(L, -3); /* function, options */
}

/* ------------------------------------------------------------------------------------------------------ */
/* Raw table helpers.                                                                                       */

void us_rawsetfield(lua_State *L, int table, const char *key, size_t keylen) {
    table = lua_absindex(L, table);
    lua_pushlstring(L, key, keylen);
    lua_insert(L, -2);
    lua_rawset(L, table);
}

int us_rawgetfield(lua_State *L, int table, const char *key, size_t keylen) {
    table = lua_absindex(L, table);
    lua_pushlstring(L, key, keylen);
    return lua_rawget(L, table);
}

int us_rawlen(lua_State *L, int i) {
    return (int)lua_rawlen(L, i);
}

/* ------------------------------------------------------------------------------------------------------ */
/* The prelude's hand-over and scenario runs.                                                              */


/* bind(env, describe, run): called once by the prelude chunk. */
static int us_prelude_bind(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_runner);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_describe);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_env);
    return 0;
}

int us_run_prelude(lua_State *L) {
    /* the loaded prelude chunk is on top */
    us_info *info = us_info_of(L);
    info->relaxed++;
    lua_pushcfunction(L, us_prelude_bind);
    lua_pushcfunction(L, us_raw_getmetatable);
    lua_pushcfunction(L, us_raw_setmetatable);
    int status = us_pcall(L, 3, 0);
    info->relaxed--;
    return status;
}

void us_set_chunk_environment(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_env) == LUA_TTABLE) {
        if (lua_setupvalue(L, index, 1) == NULL) lua_pop(L, 1);
    } else {
        lua_pop(L, 1);
    }
}

int us_run_scenario(lua_State *L, int index, lua_Integer seed) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    /* A scenario may have assigned _ENV, the upvalue every function of its file shares: back to the scenario
       environment. */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_chunk_function) == LUA_TFUNCTION) us_set_chunk_environment(L, -1);
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_runner);
    us_push_scenario_function(L, index);
    lua_pushinteger(L, seed);
    info->relaxed--;
    info->declaring = 0;
    return us_pcall(L, 3, 0);
}

int us_run_chunk(lua_State *L) {
    /* the loaded scenario file is on top */
    us_info *info = us_info_of(L);
    us_set_chunk_environment(L, -1);
    info->relaxed++;
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_chunk_function); /* its _ENV is reset before every scenario */
    info->relaxed--;
    info->declaring = 1;
    int status = us_pcall(L, 0, 0);
    info->declaring = 0;
    return status;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Live sessions (`understudy serve`): one long-lived state that runs chunks against the served apps.      */

int us_run_live_chunk(lua_State *L) {
    /* the loaded chunk is on top; on success its results replace it */
    us_info *info = us_info_of(L);
    us_set_chunk_environment(L, -1);
    info->declaring = 1;
    int status = us_pcall(L, 0, LUA_MULTRET);
    info->declaring = 0;
    return status;
}

void us_recover(lua_State *L) {
    us_info *info = us_info_of(L);
    info->fatal = US_FATAL_NONE;
    info->memory_line = 0;
    if (info->memory_cap != 0) info->memory_limit = info->memory_cap;
    info->relaxed++;
    lua_gc(L, LUA_GCCOLLECT);
    info->relaxed--;
    info->budget = info->budget_limit;
    lua_sethook(L, us_hook, LUA_MASKCOUNT, US_HOOK_PERIOD);
}

void us_restore_file_globals(lua_State *L) {
    us_reset_live_globals(L, 0);
}

void us_reset_live_globals(lua_State *L, int keep_session_globals) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_runner);
    lua_pushnil(L);
    if (keep_session_globals) lua_pushboolean(L, 1); else lua_pushnil(L);
    lua_pushinteger(L, 0);
    if (us_pcall(L, 3, 0) != LUA_OK) lua_pop(L, 1);
    info->relaxed--;
}
