/*
 * Understudy's Lua shim. Every lua_error / luaL_error / luaL_check* of the embedding is in this file: the
 * functions here run either as Lua C functions (where a longjmp crosses only C and Lua frames) or are `-` API
 * calls that never raise.
 */
#include "CLuaShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How many VM instructions run between two looks at the budget. */
#define US_HOOK_PERIOD 1000
/* What one call of a Swift function costs against the budget (so API calls cannot outrun it). */
#define US_CALL_COST 50
/* Extra memory granted once the cap is hit, so the error can still be reported. */
#define US_MEMORY_GRACE (4u * 1024u * 1024u)
/* Captured print output per scenario. */
#define US_OUTPUT_LIMIT (1u * 1024u * 1024u)

/* Registry keys (addresses are unique). */
static const char us_key_budget_message = 0;
static const char us_key_memory_message = 0;
static const char us_key_scenarios = 0;
static const char us_key_scenario_chunk = 0;
static const char us_key_env = 0;
static const char us_key_describe = 0;
static const char us_key_skip = 0;
static const char us_key_timeout_message = 0;
static const char us_key_chunk_function = 0;
/* How deep coroutine.close may nest (Lua 5.4.4 overflows the C stack past a few thousand). */
#define US_CLOSE_DEPTH 100

static int us_has_const_env(const char *text, size_t length);

us_info *us_info_of(lua_State *L) {
    return *(us_info **)lua_getextraspace(L);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Allocator: refuses growth past the cap (never a shrink), and makes the failure sticky.                  */

static void *us_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    us_info *info = (us_info *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        info->memory_used -= old;
        return NULL;
    }
    if (nsize > old && info->memory_limit != 0 && info->relaxed == 0 &&
        info->memory_used - old + nsize > info->memory_limit) {
        if (info->fatal == US_FATAL_NONE) {
            info->fatal = US_FATAL_MEMORY;
            info->memory_limit += US_MEMORY_GRACE; /* room to build the error report */
        }
        return NULL;
    }
    if (nsize > old && info->memory_limit != 0 && info->relaxed != 0 && info->fatal == US_FATAL_NONE &&
        info->memory_used - old + nsize > info->memory_limit) {
        /* Swift is marshalling (it cannot take a longjmp): the block is granted, the state is spent, and the
           binding stops building (see us_info.fatal) and the trampoline raises once it returns. */
        info->fatal = US_FATAL_MEMORY;
        info->memory_limit += US_MEMORY_GRACE;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) return NULL;
    info->memory_used = info->memory_used - old + nsize;
    if (info->memory_used > info->memory_peak) info->memory_peak = info->memory_used;
    return block;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Instruction budget: a count hook that becomes sticky once the budget is gone.                            */

uint64_t us_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static const void *us_fatal_key(us_info *info) {
    switch (info->fatal) {
    case US_FATAL_MEMORY: return &us_key_memory_message;
    case US_FATAL_TIMEOUT: return &us_key_timeout_message;
    default: return &us_key_budget_message;
    }
}

static int us_raise_fatal(lua_State *L, us_info *info) {
    /* Re-arm at every instruction: a script that catches this with pcall meets it again at once. */
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, us_fatal_key(info)); /* preallocated: raising needs no memory */
    return lua_error(L);
}

/* Looks at the budget and the deadline; sets the sticky failure when one is spent. */
static void us_check_limits(us_info *info) {
    if (info->fatal != US_FATAL_NONE) return;
    if (info->budget <= 0) info->fatal = US_FATAL_BUDGET;
    else if (info->deadline != 0 && us_monotonic_ns() >= info->deadline) info->fatal = US_FATAL_TIMEOUT;
}

/* The budget is kept here, never in Lua's hook counter (which every lua_sethook resets): each call of the hook
   takes its period off, whatever else happened in between. */
static void us_hook(lua_State *L, lua_Debug *ar) {
    us_info *info = us_info_of(L);
    info->budget -= lua_gethookcount(L);
    us_check_limits(info);
    if (info->fatal != US_FATAL_NONE) {
        us_raise_fatal(L, info);
        return;
    }
    /* Remember where the scenario is, for a report written from outside (a watchdog). */
    if (info->scenario_chunk != NULL && lua_getinfo(L, "Sl", ar) && ar->currentline > 0 &&
        strcmp(ar->source, info->scenario_chunk) == 0)
        info->last_line = ar->currentline;
}

int us_charge(lua_State *L, int64_t instructions) {
    us_info *info = us_info_of(L);
    info->budget -= instructions;
    us_check_limits(info);
    return info->fatal == US_FATAL_NONE;
}

int us_charge_memory(lua_State *L, int64_t bytes) {
    us_info *info = us_info_of(L);
    if (bytes < 0 && (size_t)(-bytes) > info->backend_bytes) bytes = -(int64_t)info->backend_bytes;
    info->backend_bytes += (size_t)bytes;
    info->memory_used += (size_t)bytes;
    if (info->memory_used > info->memory_peak) info->memory_peak = info->memory_used;
    if (bytes > 0 && info->memory_limit != 0 && info->memory_used > info->memory_limit &&
        info->fatal == US_FATAL_NONE) {
        info->fatal = US_FATAL_MEMORY;
        info->memory_limit += US_MEMORY_GRACE;
    }
    return info->fatal == US_FATAL_NONE;
}

void us_release_backend_memory(lua_State *L) {
    us_info *info = us_info_of(L);
    info->memory_used -= info->backend_bytes;
    info->backend_bytes = 0;
}

void us_charge_checked(lua_State *L, int64_t instructions) {
    us_info *info = us_info_of(L);
    info->budget -= instructions;
    us_check_limits(info);
    if (info->fatal != US_FATAL_NONE) us_raise_fatal(L, info);
}

void us_set_deadline(lua_State *L, double seconds) {
    us_info *info = us_info_of(L);
    info->deadline = seconds > 0 ? us_monotonic_ns() + (uint64_t)(seconds * 1e9) : 0;
    info->last_line = 0;
    if (seconds > 0 && seconds != info->timeout) {
        info->timeout = seconds;
        char text[160];
        snprintf(text, sizeof text, "timed out after %g s (raise it with --timeout)", seconds);
        info->relaxed++;
        lua_pushstring(L, text);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_timeout_message);
        info->relaxed--;
    }
}

static void us_store_messages(lua_State *L) {
    us_info *info = us_info_of(L);
    char text[256];
    snprintf(text, sizeof text,
             "instruction budget exhausted: the scenario ran more than %lld instructions "
             "(raise it with --max-instructions)",
             (long long)info->budget_limit);
    lua_pushstring(L, text);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_budget_message);
    if (info->memory_limit != 0) {
        snprintf(text, sizeof text,
                 "memory cap exceeded: the scenario used more than %zu MiB (raise it with --max-memory)",
                 info->memory_cap / (1024u * 1024u));
    } else {
        snprintf(text, sizeof text, "out of memory");
    }
    lua_pushstring(L, text);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_memory_message);
}

void us_reset_budget(lua_State *L, int64_t instruction_budget) {
    us_info *info = us_info_of(L);
    int changed = info->budget_limit != instruction_budget;
    info->budget_limit = instruction_budget;
    info->budget = instruction_budget;
    info->deadline = info->timeout > 0 ? us_monotonic_ns() + (uint64_t)(info->timeout * 1e9) : 0;
    lua_sethook(L, us_hook, LUA_MASKCOUNT, US_HOOK_PERIOD);
    if (changed) {
        info->relaxed++;
        us_store_messages(L);
        info->relaxed--;
    }
}

/* ------------------------------------------------------------------------------------------------------ */
/* State life cycle.                                                                                        */

static int us_panic(lua_State *L) {
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    fprintf(stderr, "understudy: unprotected Lua error (a bug in Understudy): %s\n", message);
    fflush(stderr);
    abort();
}

lua_State *us_newstate(size_t memory_limit, int64_t instruction_budget, void *host) {
    us_info *info = (us_info *)calloc(1, sizeof(us_info));
    if (info == NULL) return NULL;
    info->memory_limit = memory_limit;
    info->memory_cap = memory_limit;
    info->host = host;
    info->output_limit = US_OUTPUT_LIMIT;
    lua_State *L = lua_newstate(us_alloc, info);
    if (L == NULL) {
        free(info);
        return NULL;
    }
    *(us_info **)lua_getextraspace(L) = info;
    lua_atpanic(L, us_panic);
    lua_setwarnf(L, NULL, NULL);
    info->budget_limit = -1; /* forces the messages to be stored */
    us_reset_budget(L, instruction_budget);
    info->relaxed++;
    lua_pushliteral(L, "timed out (raise it with --timeout)");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_timeout_message);
    info->relaxed--;
    return L;
}

void us_close(lua_State *L) {
    if (L == NULL) return;
    us_info *info = us_info_of(L);
    info->relaxed++; /* finalisers may run */
    lua_close(L);
    free(info->output);
    free(info);
}

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

/* ------------------------------------------------------------------------------------------------------ */
/* Loading chunks.                                                                                          */

int us_load_text(lua_State *L, const char *buffer, size_t length, const char *chunkname) {
    if (us_has_const_env(buffer, length)) {
        lua_pushfstring(L, "%s: an attribute on _ENV is not allowed in scenarios (Lua 5.4.4 compiles it wrongly)",
                        chunkname[0] == '@' || chunkname[0] == '=' ? chunkname + 1 : chunkname);
        return LUA_ERRSYNTAX;
    }
    return luaL_loadbufferx(L, buffer, length, chunkname, "t");
}

int us_load_trusted(lua_State *L, const char *buffer, size_t length, const char *chunkname) {
    return luaL_loadbufferx(L, buffer, length, chunkname, "bt");
}

typedef struct { char *data; size_t length, capacity; int failed; } us_dump_buffer;

static int us_dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    us_dump_buffer *buffer = (us_dump_buffer *)ud;
    if (buffer->length + size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 4096;
        while (capacity < buffer->length + size) capacity *= 2;
        char *data = (char *)realloc(buffer->data, capacity);
        if (data == NULL) { buffer->failed = 1; return 1; }
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, p, size);
    buffer->length += size;
    return 0;
}

char *us_dump(lua_State *L, size_t *length) {
    us_dump_buffer buffer = { NULL, 0, 0, 0 };
    if (lua_dump(L, us_dump_writer, &buffer, 0) != 0 || buffer.failed) {
        free(buffer.data);
        return NULL;
    }
    *length = buffer.length;
    return buffer.data;
}

/* ------------------------------------------------------------------------------------------------------ */
/* The sandbox.                                                                                             */

static int us_print(lua_State *L) {
    us_info *info = us_info_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
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

/* Lua 5.4.4 compiles wrong code for a `<const>` _ENV (fixed in 5.4.5): such a chunk is refused. */
static int us_has_const_env(const char *text, size_t length) {
    for (const char *p = text; (p = memchr(p, '_', (size_t)(text + length - p))) != NULL; p++) {
        if ((size_t)(text + length - p) < 4 || memcmp(p, "_ENV", 4) != 0) continue;
        const char *q = p + 4;
        while (q < text + length && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) q++;
        if (q < text + length && *q == '<') return 1;
    }
    return 0;
}

/* load(chunk [, chunkname [, mode [, env]]]) that only takes text and defaults env to the scenario's. A reader
   function is called here, protected without a message handler: lua_load would call the reader under the
   scenario's handler, handing the runner's report table back to the scenario as load's error. */
static int us_safe_load(lua_State *L) {
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
    lua_settop(L, 4);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 4, LUA_MULTRET);
    return lua_gettop(L);
}

/* coroutine.close with a nesting limit: Lua 5.4.4 does not count the C stack a close nested in a __close uses
   ("C-stack overflow with deep nesting of coroutine.close", fixed in 5.4.5), so deep nesting crashed it. */
static int us_safe_coroutine_close(lua_State *L) {
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

static int us_call_original(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int us_safe_rep(lua_State *L) {
    int integer = 0;
    lua_Integer count = lua_tointegerx(L, 2, &integer);
    if (integer) us_charge_count(L, 1, count, 64); /* a repetition is a memcpy: 64 of them per instruction */
    return us_call_original(L);
}

static int us_safe_move(lua_State *L) {
    int first_ok = 0, last_ok = 0;
    lua_Integer first = lua_tointegerx(L, 2, &first_ok), last = lua_tointegerx(L, 3, &last_ok);
    if (first_ok && last_ok) us_charge_count(L, first, last, 1); /* an element is a get and a set */
    return us_call_original(L);
}

/* utf8.codes that refuses continuation bytes without a lead byte: Lua 5.4.4 skips them ("'utf8.codes' does not
   raise an error on spurious continuation bytes", fixed in 5.4.5). utf8.len (upvalue 2) sees them. */
static int us_safe_utf8_codes(lua_State *L) {
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
static int us_raw_getmetatable(lua_State *L) {
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

static int us_raw_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 0;
}

/* collectgarbage limited to what cannot defeat the limits. */
static int us_safe_collectgarbage(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    if (strcmp(option, "collect") != 0 && strcmp(option, "count") != 0 && strcmp(option, "step") != 0 &&
        strcmp(option, "isrunning") != 0) {
        return luaL_error(L, "collectgarbage: option '%s' is not available in scenarios", option);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* setmetatable without finalizers. Lua runs __gc metamethods with hooks switched off (lgc.c, GCTM), so no
   instruction budget could stop a finalizer that loops, during a scenario or when the state closes. An object
   is marked for finalization only when its metatable has __gc at the moment it is set (Lua 5.4 manual, 2.5.3),
   and a sandboxed script has no other way to make one, so refusing such a metatable here closes that door. */
static int us_safe_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int type = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (type != LUA_TNIL)
            return luaL_error(L, "setmetatable: a metatable with __gc is not available in scenarios "
                                 "(finalizers run outside the instruction budget)");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
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
static int us_safe_xpcall(lua_State *L) {
    luaL_checkany(L, 2);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, us_guarded_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* scenario(name, fn) / scenario(name, options, fn) */
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
        /* tags: a list of strings */
        if (lua_getfield(L, 2, "tags") != LUA_TNIL) {
            if (lua_type(L, -1) != LUA_TTABLE)
                return luaL_error(L, "scenario '%s': options.tags must be a list of strings", lua_tostring(L, 1));
            lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
            for (lua_Integer i = 1; i <= count; i++) {
                if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
                    return luaL_error(L, "scenario '%s': options.tags[%d] must be a string", lua_tostring(L, 1),
                                      (int)i);
                lua_pop(L, 1);
            }
        }
        lua_rawseti(L, entry, 3);
        lua_pushvalue(L, 2);
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

static const char us_key_runner = 0;

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
    if (info->memory_cap != 0) info->memory_limit = info->memory_cap;
    info->relaxed++;
    lua_gc(L, LUA_GCCOLLECT);
    info->relaxed--;
    info->budget = info->budget_limit;
    lua_sethook(L, us_hook, LUA_MASKCOUNT, US_HOOK_PERIOD);
}

void us_restore_file_globals(lua_State *L) {
    us_info *info = us_info_of(L);
    info->relaxed++;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &us_key_runner);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushinteger(L, 0);
    if (us_pcall(L, 3, 0) != LUA_OK) lua_pop(L, 1);
    info->relaxed--;
}
