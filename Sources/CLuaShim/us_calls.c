/*
 * Crossing between Swift and Lua: the trampoline (Swift returns, then C raises), protected calls and the
 * message handler that turns an error into a report.
 */
#include "us_internal.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------------------ */
/* The trampoline: Swift returns, then C raises.                                                            */

static int us_trampoline(lua_State *L) {
    us_swift_fn fn = (us_swift_fn)lua_touserdata(L, lua_upvalueindex(1));
    us_info *info = us_info_of(L);
    info->budget -= US_CALL_COST;
    us_check_limits(info);
    if (info->fatal != US_FATAL_NONE) return us_raise_fatal(L, info);
    int previous = info->relaxed;
    info->relaxed = 1;
    int results = fn(L); /* the Swift frame is gone once this returns */
    info->relaxed = previous;
    /* Work the call charged, or memory it held, may have spent the scenario: raise now, not later. */
    if (info->fatal != US_FATAL_NONE) return us_raise_fatal(L, info);
    if (results != US_RAISE) return results;
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

void us_push_swift_function(lua_State *L, us_swift_fn fn, int extra) {
    lua_pushlightuserdata(L, (void *)fn);
    if (extra > 0) lua_insert(L, -(extra + 1));
    lua_pushcclosure(L, us_trampoline, extra + 1);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Protected calls and the message handler.                                                                 */

/* Calls the function below its argument on the stack, protected. Scenario code (a __tostring) runs here, so it
   runs as all scenario code does: under the budget, the deadline and the memory cap. */
static int us_describe_call(lua_State *L) {
    us_info *info = us_info_of(L);
    int previous = info->relaxed;
    info->relaxed = 0;
    int status = lua_pcallk(L, 1, 1, 0, 0, NULL);
    info->relaxed = previous;
    return status;
}

static int us_describe_fallback(lua_State *L) {
    /* Runs protected: luaL_tolstring may call __tostring. */
    luaL_tolstring(L, 1, NULL);
    return 1;
}

/* Builds { message, traceback, where, value, skip } for an error value. The hook is left alone (setting it would
   reset its counter); once the scenario is spent (the error may come from inside the hook, where Lua runs no
   hooks) no scenario code runs here at all: the message is the limit's. */
static int us_message_handler(lua_State *L) {
    us_info *info = us_info_of(L);
    info->relaxed++;

    lua_createtable(L, 0, 5); /* report at index 2 */
    lua_pushvalue(L, 1);
    lua_setfield(L, 2, "value");

    if (lua_type(L, 1) == LUA_TTABLE && info->fatal == US_FATAL_NONE &&
        lua_rawgetp(L, 1, &us_key_skip) != LUA_TNIL) {
        lua_setfield(L, 2, "skip");
    } else {
        if (lua_type(L, 1) == LUA_TTABLE && info->fatal == US_FATAL_NONE) lua_pop(L, 1);
        /* message: strings as they are; anything else through the prelude's describer */
        if (info->fatal != US_FATAL_NONE) {
            lua_rawgetp(L, LUA_REGISTRYINDEX, us_fatal_key(info));
        } else if (lua_type(L, 1) == LUA_TSTRING) {
            lua_pushvalue(L, 1);
        } else {
            int described = 0;
            if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_describe) == LUA_TFUNCTION) {
                lua_pushvalue(L, 1);
                described = us_describe_call(L) == LUA_OK && lua_type(L, -1) == LUA_TSTRING;
                if (!described) lua_pop(L, 1);
            } else {
                lua_pop(L, 1);
            }
            if (!described && info->fatal == US_FATAL_NONE) {
                lua_pushcfunction(L, us_describe_fallback);
                lua_pushvalue(L, 1);
                if (us_describe_call(L) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) described = 1;
                else lua_pop(L, 1);
            }
            if (info->fatal != US_FATAL_NONE) {
                if (described) lua_pop(L, 1);
                lua_rawgetp(L, LUA_REGISTRYINDEX, us_fatal_key(info));
            } else if (!described) {
                lua_pushstring(L, "(an error object that cannot be described)");
            }
        }
        lua_setfield(L, 2, "message");

        /* where: the innermost frame that belongs to the scenario file */
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_scenario_chunk) == LUA_TSTRING) {
            const char *chunk = lua_tostring(L, -1);
            lua_Debug ar;
            for (int level = 0; lua_getstack(L, level, &ar); level++) {
                if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, chunk) == 0) {
                    lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
                    lua_setfield(L, 2, "where");
                    break;
                }
            }
        }
        lua_pop(L, 1);

        luaL_traceback(L, L, NULL, 1);
        lua_setfield(L, 2, "traceback");
    }

    info->relaxed--;
    lua_settop(L, 2);
    return 1;
}

int us_pcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, us_message_handler);
    lua_insert(L, base);
    int status = lua_pcallk(L, nargs, nresults, base, 0, NULL);
    lua_rotate(L, base, -1);
    lua_settop(L, -2);
    return status;
}

int us_pcall_from_swift(lua_State *L, int nargs, int nresults) {
    us_info *info = us_info_of(L);
    int previous = info->relaxed;
    info->relaxed = 0;
    int status = us_pcall(L, nargs, nresults);
    info->relaxed = previous;
    return status;
}
