/*
 * A state's life cycle and limits: the capped allocator, the instruction budget and deadline (a count hook
 * that becomes sticky), creating and closing states.
 */
#include "us_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Registry keys (addresses are unique). */
const char us_key_budget_message = 0;
const char us_key_memory_message = 0;
const char us_key_timeout_message = 0;
const char us_key_scenarios = 0;
const char us_key_scenario_chunk = 0;
const char us_key_env = 0;
const char us_key_describe = 0;
const char us_key_skip = 0;
const char us_key_chunk_function = 0;
const char us_key_runner = 0;

us_info *us_info_of(lua_State *L) {
    return *(us_info **)lua_getextraspace(L);
}


/* ------------------------------------------------------------------------------------------------------ */
/* Allocator: refuses growth past the cap (never a shrink), and makes the failure sticky.                  */

/* Remembers the line of the scenario file that asked for the allocation passing the cap (the innermost frame of
   the scenario's chunk on the main thread; a coroutine shows where it was resumed): a memory error runs no message
   handler, so the report would otherwise only know the scenario's declaration. Reading the stack allocates
   nothing, and with the count hook set Lua keeps each frame's saved instruction current. */
static void us_note_memory_line(us_info *info) {
    lua_State *L = info->main_thread;
    if (L == NULL || info->scenario_chunk == NULL) return;
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, info->scenario_chunk) == 0) {
            info->memory_line = ar.currentline;
            return;
        }
    }
}

static void *us_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    us_info *info = (us_info *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        info->memory_used -= old;
        return NULL;
    }
    if (nsize > old && info->relaxed == 0) {
        /* Growth while scenario code runs. Lua 5.4.4's bug: when an allocation fails, Lua runs an emergency
           collection and then retries the same allocation; inside a table update through a weak metatable's
           __newindex table, that collection can free the very table being grown, and a retry that succeeds goes
           on writing into freed memory. So once the cap is passed, every growth scenario code asks for is
           refused, the retry included: the allocation that failed is reported as the memory error, and nothing
           the collection freed is touched again. The report itself is built relaxed, inside the grace. */
        if (info->memory_limit != 0 &&
            (info->fatal == US_FATAL_MEMORY || info->memory_used - old + nsize > info->memory_limit)) {
            if (info->fatal == US_FATAL_NONE) {
                info->fatal = US_FATAL_MEMORY;
                info->memory_limit += US_MEMORY_GRACE; /* room to build the error report */
                us_note_memory_line(info);
            }
            return NULL;
        }
        /* Allocation is work no count hook sees (a concatenation copies its result in one instruction): 64
           bytes an instruction, 8 for a block of 64 KiB or more (fresh pages, each faulted in), and a large
           block looks at the clock. Raised by the hook or the next charge. */
        info->budget -= (int64_t)((nsize - old) >> (nsize >= 65536 ? 3 : 6));
        if (nsize - old >= US_CLOCK_BYTES || info->budget <= 0) us_check_limits(info);
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

const void *us_fatal_key(us_info *info) {
    switch (info->fatal) {
    case US_FATAL_MEMORY: return &us_key_memory_message;
    case US_FATAL_TIMEOUT: return &us_key_timeout_message;
    default: return &us_key_budget_message;
    }
}

int us_raise_fatal(lua_State *L, us_info *info) {
    /* Re-arm at every instruction: a script that catches this with pcall meets it again at once. */
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, us_fatal_key(info)); /* preallocated: raising needs no memory */
    return lua_error(L);
}

/* Looks at the budget and the deadline; sets the sticky failure when one is spent. */
void us_check_limits(us_info *info) {
    if (info->fatal != US_FATAL_NONE) return;
    if (info->budget <= 0) info->fatal = US_FATAL_BUDGET;
    else if (info->deadline != 0 && us_monotonic_ns() >= info->deadline) info->fatal = US_FATAL_TIMEOUT;
}

/* The budget is kept here, never in Lua's hook counter (which every lua_sethook resets): each call of the hook
   takes its period off, whatever else happened in between. */
void us_hook(lua_State *L, lua_Debug *ar) {
    us_info *info = us_info_of(L);
    int period = lua_gethookcount(L);
    info->budget -= period;
    us_check_limits(info);
    if (info->deadline != 0 && info->fatal == US_FATAL_NONE) {
        /* Some single instructions do work in proportion to a string's length (comparing two long strings):
           when a period took long, the next ones are shorter, so the deadline is looked at every few ms. */
        uint64_t now = us_monotonic_ns();
        uint64_t elapsed = now - info->last_hook_ns;
        info->last_hook_ns = now;
        if (elapsed > US_SLOW_PERIOD_NS && period > 1) {
            lua_sethook(L, us_hook, LUA_MASKCOUNT, period >= 10 ? period / 10 : 1);
        } else if (elapsed < US_SLOW_PERIOD_NS / 10 && period < US_HOOK_PERIOD) {
            lua_sethook(L, us_hook, LUA_MASKCOUNT, period * 10 < US_HOOK_PERIOD ? period * 10 : US_HOOK_PERIOD);
        }
    }
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
    info->memory_line = 0; /* a new run: no line has passed the cap yet */
    info->last_hook_ns = us_monotonic_ns();
    info->deadline = info->timeout > 0 ? info->last_hook_ns + (uint64_t)(info->timeout * 1e9) : 0;
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
    info->relaxed = 1; /* building the state is not scenario work */
    lua_State *L = lua_newstate(us_alloc, info);
    if (L == NULL) {
        free(info);
        return NULL;
    }
    *(us_info **)lua_getextraspace(L) = info;
    info->main_thread = L;
    lua_atpanic(L, us_panic);
    lua_setwarnf(L, NULL, NULL);
    info->budget_limit = -1; /* forces the messages to be stored */
    us_reset_budget(L, instruction_budget);
    info->relaxed++;
    lua_pushliteral(L, "timed out (raise it with --timeout)");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &us_key_timeout_message);
    info->relaxed--;
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
