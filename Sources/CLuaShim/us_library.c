/*
 * The sandboxed standard library's guarded functions: print into a buffer, a text-only load, and the library
 * functions whose C loops or Lua 5.4.4 bugs need a guard.
 */
#include "us_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------------ */
/* The sandbox's library functions.                                                                            */

int us_print(lua_State *L) {
    us_info *info = us_info_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        size_t length;
        luaL_tolstring(L, i, &length);
        us_charge_work(L, 1 + (int64_t)(length / 64));
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t length;
    const char *text = lua_tolstring(L, -1, &length);
    if (info->output_length + length > info->output_limit) {
        info->output_truncated = 1;
        return 0;
    }
    if (info->output_length + length > info->output_capacity) {
        size_t capacity = info->output_capacity ? info->output_capacity * 2 : 1024;
        while (capacity < info->output_length + length) capacity *= 2;
        char *data = (char *)realloc(info->output, capacity);
        if (data == NULL) return luaL_error(L, "print: out of memory");
        info->output = data;
        info->output_capacity = capacity;
    }
    memcpy(info->output + info->output_length, text, length);
    info->output_length += length;
    return 0;
}

const char *us_output(lua_State *L, size_t *length) {
    us_info *info = us_info_of(L);
    *length = info->output_length;
    return info->output ? info->output : "";
}

void us_output_clear(lua_State *L) {
    us_info *info = us_info_of(L);
    info->output_length = 0;
    info->output_truncated = 0;
}


/* Every guarded library function ends the same way: it calls the original (upvalue 1) with the arguments it left
   on the stack and returns all of its results. */
int us_call_original(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* load(chunk [, chunkname [, mode [, env]]]) that only takes text and defaults env to the scenario's. A reader
   function is called here, protected without a message handler: lua_load would call the reader under the
   scenario's handler, handing the runner's report table back to the scenario as load's error. */
int us_safe_load(lua_State *L) {
    int nargs = lua_gettop(L);
    lua_settop(L, 4);
    if (nargs >= 3 && !lua_isnil(L, 3)) {
        const char *mode = lua_tostring(L, 3);
        if (mode == NULL || strchr(mode, 't') == NULL) {
            lua_pushnil(L);
            lua_pushliteral(L, "load: binary chunks are not allowed in scenarios (mode must be \"t\")");
            return 2;
        }
    }
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    if (nargs < 4) {
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_env) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
        }
        lua_replace(L, 4);
    }
    if (lua_type(L, 1) == LUA_TFUNCTION) {
        if (lua_isnil(L, 2)) { lua_pushliteral(L, "=(load)"); lua_replace(L, 2); }
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (;;) {
            lua_pushvalue(L, 1);
            int status = lua_pcallk(L, 0, 1, 0, 0, NULL);
            if (status != LUA_OK) {
                if (us_info_of(L)->fatal != US_FATAL_NONE) return lua_error(L);
                lua_pushnil(L);
                lua_insert(L, -2);
                return 2;
            }
            if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TSTRING && lua_rawlen(L, -1) == 0)) {
                lua_pop(L, 1);
                break;
            }
            if (lua_type(L, -1) != LUA_TSTRING) {
                lua_pushnil(L);
                lua_pushliteral(L, "reader function must return a string");
                return 2;
            }
            luaL_addvalue(&b);
        }
        luaL_pushresult(&b);
        lua_replace(L, 1);
    }
    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t length;
        const char *text = lua_tolstring(L, 1, &length);
        if (us_has_const_env(text, length)) {
            lua_pushnil(L);
            lua_pushliteral(L, "load: an attribute on _ENV is not allowed in scenarios (Lua 5.4.4 compiles it wrongly)");
            return 2;
        }
    }
    /* the parser reads the source in C: 4 bytes an instruction, before it starts */
    if (lua_type(L, 1) == LUA_TSTRING) us_charge_steps(L, lua_rawlen(L, 1), 4);
    lua_settop(L, 4);
    return us_call_original(L);
}

/* coroutine.close with a nesting limit: Lua 5.4.4 does not count the C stack a close nested in a __close uses
   ("C-stack overflow with deep nesting of coroutine.close", fixed in 5.4.5), so deep nesting crashed it. */
int us_safe_coroutine_close(lua_State *L) {
    us_info *info = us_info_of(L);
    if (info->close_depth >= US_CLOSE_DEPTH)
        return luaL_error(L, "coroutine.close: nested more than %d deep", US_CLOSE_DEPTH);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    info->close_depth++;
    int status = lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, NULL);
    info->close_depth--;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* string.rep and table.move loop in C once per repetition or element, with no hook in between: ("").rep with
   math.maxinteger copies nothing for ever, table.move({}, 1, 1e15, 2) moves nils for ever. Each repetition or
   element is charged before the loop starts, so the budget (and the deadline, checked when charged) holds. */
static void us_charge_count(lua_State *L, lua_Integer first, lua_Integer last, unsigned per_instruction) {
    if (last < first) return;
    lua_Unsigned count = ((lua_Unsigned)last - (lua_Unsigned)first) / per_instruction + 1u;
    us_charge_checked(L, count > (lua_Unsigned)INT64_MAX ? INT64_MAX : (int64_t)count);
}

int us_safe_rep(lua_State *L) {
    int integer = 0;
    lua_Integer count = lua_tointegerx(L, 2, &integer);
    if (integer && count > 0) {
        /* a repetition is a memcpy of the string and the separator: 64 bytes (or 64 repetitions) an instruction */
        size_t length = lua_type(L, 1) == LUA_TSTRING ? lua_rawlen(L, 1) : 0;
        size_t separator = lua_type(L, 3) == LUA_TSTRING ? lua_rawlen(L, 3) : 0;
        us_charge_count(L, 1, count, 64);
        lua_Unsigned bytes = (lua_Unsigned)count * (lua_Unsigned)(length + separator);
        if (length + separator != 0 && bytes / (length + separator) != (lua_Unsigned)count) bytes = (lua_Unsigned)-1;
        us_charge_steps(L, bytes, 64);
    }
    return us_call_original(L);
}

int us_safe_move(lua_State *L) {
    int first_ok = 0, last_ok = 0;
    lua_Integer first = lua_tointegerx(L, 2, &first_ok), last = lua_tointegerx(L, 3, &last_ok);
    if (first_ok && last_ok) us_charge_count(L, first, last, 1); /* an element is a get and a set */
    return us_call_original(L);
}

/* utf8.codes that refuses continuation bytes without a lead byte: Lua 5.4.4 skips them ("'utf8.codes' does not
   raise an error on spurious continuation bytes", fixed in 5.4.5). utf8.len (upvalue 2) sees them. */
int us_safe_utf8_codes(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING && !lua_toboolean(L, 2)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushvalue(L, 1);
        lua_call(L, 1, 2);
        if (lua_isnil(L, -2)) return luaL_error(L, "invalid UTF-8 code");
        lua_pop(L, 2);
    }
    return us_call_original(L);
}

/* The prelude's way to restore library metatables, past a __metatable lock a scenario may have set. */
int us_raw_getmetatable(lua_State *L) {
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

int us_raw_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    us_setmetatable_unarmed(L, 1);
    return 0;
}

/* Lua marks an object for finalization when the metatable it is given has __gc at that moment (lgc.c,
   luaC_checkfinalizer), and runs the finalizer later with hooks off: in another scenario, in another chunk, or
   when the state closes, where no budget or deadline reaches it. Every metatable Understudy sets goes through
   here, so a __gc a scenario wrote into a metatable it could reach never arms one. */
void us_setmetatable_unarmed(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc"); /* a fixed string of Lua's: no allocation */
        lua_pushnil(L);
        lua_rawset(L, -3); /* a nil value is never inserted: no allocation */
    }
    lua_setmetatable(L, index);
}

/* collectgarbage limited to what cannot defeat the limits. */
int us_safe_collectgarbage(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    if (strcmp(option, "collect") != 0 && strcmp(option, "count") != 0 && strcmp(option, "step") != 0 &&
        strcmp(option, "isrunning") != 0) {
        return luaL_error(L, "collectgarbage: option '%s' is not available in scenarios", option);
    }
    /* a collection walks the whole heap in C: charged by the heap's size, 8 bytes an instruction */
    if (strcmp(option, "collect") == 0 || strcmp(option, "step") == 0)
        us_charge_steps(L, us_info_of(L)->memory_used, 8);
    return us_call_original(L);
}

/* setmetatable without finalizers. Lua runs __gc metamethods with hooks switched off (lgc.c, GCTM), so no
   instruction budget could stop a finalizer that loops, during a scenario or when the state closes. An object
   is marked for finalization only when its metatable has __gc at the moment it is set (Lua 5.4 manual, 2.5.3),
   and a sandboxed script has no other way to make one, so refusing such a metatable here closes that door. */
int us_safe_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int type = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (type != LUA_TNIL)
            return luaL_error(L, "setmetatable: a metatable with __gc is not available in scenarios "
                                 "(finalizers run outside the instruction budget)");
    }
    return us_call_original(L);
}

/* The message handler xpcall is given, guarded. When the budget or the memory cap is gone, the error is raised
   from inside the count hook, and Lua calls the message handler right there, with hooks switched off: a handler
   that loops would never be stopped. So once the scenario is spent no scenario code runs; the error goes on. */
static int us_guarded_handler(lua_State *L) {
    if (us_info_of(L)->fatal != US_FATAL_NONE) {
        lua_settop(L, 1);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* xpcall(f, msgh, ...) with msgh guarded. */
int us_safe_xpcall(lua_State *L) {
    luaL_checkany(L, 2);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, us_guarded_handler, 1);
    lua_replace(L, 2);
    return us_call_original(L);
}

/* scenario(name, fn) / scenario(name, options, fn) */
