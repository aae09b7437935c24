/*
 * The C side of Understudy's Lua embedding.
 *
 * The one rule everything here follows: no longjmp ever crosses a Swift frame.
 * - Swift functions exposed to Lua are called by `us_trampoline`; they return a result count, or US_RAISE
 *   with the error value pushed, and only then, after the Swift frame has returned, C calls lua_error.
 * - Swift enters Lua only through `us_pcall` (lua_pcallk with a message handler).
 * - Lua's function-like macros are wrapped here as static inline functions so Swift can call them.
 * - Every call that can raise (lua_error, luaL_error, luaL_check*, ...) appears only in the shim's .c files
 *   (us_state.c, us_calls.c, us_load.c, us_library.c, us_sandbox.c, us_scenarios.c, us_patterns.c).
 */
#ifndef UNDERSTUDY_CLUASHIM_H
#define UNDERSTUDY_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a Swift function returns to raise the Lua error value it pushed.
#define US_RAISE (-1)

/// A Swift function callable from Lua through the trampoline. Returns the number of results, or US_RAISE.
typedef int (*us_swift_fn)(lua_State *L);

/// Why a scenario was stopped for good (the failure cannot be caught by `pcall`).
typedef enum us_fatal {
    US_FATAL_NONE = 0,
    US_FATAL_BUDGET = 1,
    US_FATAL_MEMORY = 2,
    US_FATAL_TIMEOUT = 3,
} us_fatal;

/// Per-state bookkeeping, reached through lua_getextraspace.
typedef struct us_info {
    size_t memory_used;
    size_t memory_limit;      /* bytes; 0 = unlimited (grows by a grace once the cap is hit) */
    size_t memory_cap;        /* the configured cap, for messages */
    size_t memory_peak;
    int relaxed;              /* > 0 while Swift marshals values: the memory limit is lifted */
    int fatal;                /* a us_fatal value; sticky until the state is closed */
    int64_t budget;           /* instructions left */
    int64_t budget_limit;     /* instructions granted per scenario */
    void *host;               /* the Swift runtime object (unretained) */
    char *output;             /* captured print output */
    size_t output_length;
    size_t output_capacity;
    size_t output_limit;
    int output_truncated;
    int declaring;            /* 1 while a scenario file's chunk runs: scenario() may be called */
    uint64_t deadline;        /* CLOCK_MONOTONIC nanoseconds past which the run stops; 0 = none */
    double timeout;           /* seconds granted per run, for the message */
    const char *scenario_chunk; /* the scenario file's chunk name (a string the registry keeps) */
    volatile int last_line;   /* the last line of the scenario file the count hook saw running */
    size_t backend_bytes;     /* memory the backends hold, estimated and counted in memory_used */
    uint64_t last_hook_ns;    /* when the count hook last ran (CLOCK_MONOTONIC), to shorten slow periods */
    int close_depth;          /* nesting of coroutine.close (Lua 5.4.4 overflows the C stack without a limit) */
    lua_State *main_thread;   /* the state's main thread, whose stack the allocator reads when the cap is passed */
    int memory_line;          /* the scenario file's line that passed the memory cap; 0 = unknown */
} us_info;

/// Creates a state with the limited allocator, the instruction hook and an empty registry. NULL on failure.
lua_State *us_newstate(size_t memory_limit, int64_t instruction_budget, void *host);
/// Closes the state and frees its bookkeeping.
void us_close(lua_State *L);
/// The bookkeeping of a state (or of one of its threads).
us_info *us_info_of(lua_State *L);

/// Opens the sandboxed standard library (or the whole library when `unsafe`), installs `print`, `scenario`,
/// a text-only `load`, and seeds `math.random`. Protected: returns a Lua status, with a message on top on failure.
int us_open_sandbox(lua_State *L, int unsafe, lua_Integer random_seed);

/// Grants a fresh instruction budget (and re-arms the hook at its normal period), and restarts the wall-clock
/// deadline when the state has a timeout (us_set_deadline).
void us_reset_budget(lua_State *L, int64_t instruction_budget);
/// Takes `instructions` off the budget: what a Swift call charges for the work it is about to do. Returns 1 while
/// the budget holds, 0 once it is spent (the failure is then sticky and raised as soon as the call returns).
int us_charge(lua_State *L, int64_t instructions);
/// Counts `bytes` more (or fewer, when negative) held by the backends towards the memory cap. Returns 1 while
/// the cap holds, 0 once it is passed (sticky, raised as soon as the call returns).
int us_charge_memory(lua_State *L, int64_t bytes);
/// Forgets the backends' memory (a scenario ended and its backends with it).
void us_release_backend_memory(lua_State *L);
/// Only from C functions Lua called: charges `instructions` and raises at once when the budget, the memory cap
/// or the deadline is spent.
void us_charge_checked(lua_State *L, int64_t instructions);
/// Sets the state's timeout to `seconds` and starts its deadline now; 0 or less stops the clock (the timeout is
/// kept for the next us_reset_budget).
void us_set_deadline(lua_State *L, double seconds);
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t us_monotonic_ns(void);
/// The string library's find, match, gmatch and gsub, charged against the budget as they run, into the table on
/// top of the stack (lua_CFunction context: may raise).
void us_open_patterns(lua_State *L);

/// Pushes a C closure that calls `fn` through the trampoline. The `extra` values on top of the stack become
/// upvalues 2...extra+1 (they are popped). Allocates: call with the memory limit lifted.
void us_push_swift_function(lua_State *L, us_swift_fn fn, int extra);

/// Runs the loaded chunk on top in the scenario environment (globals persist between chunks) and leaves all of
/// its results on the stack. Protected: returns a Lua status, with a report on top on failure.
int us_run_live_chunk(lua_State *L);
/// Makes a state usable again after the budget or the memory cap stopped a chunk: clears the sticky failure,
/// collects garbage and grants a fresh budget. Only for live sessions, where the state outlives one run.
void us_recover(lua_State *L);

/// After a live session ran scenarios, and before a posted file: pristine globals and libraries.
void us_restore_file_globals(lua_State *L);
/// Before a live session's chunk or posted file: pristine libraries (deep), and the globals a chunk set that hide
/// a library or prelude name are gone; with `keep_session_globals` 0 every global goes.
void us_reset_live_globals(lua_State *L, int keep_session_globals);

/// lua_pcall with Understudy's message handler. On LUA_ERRRUN the value on top is a report table:
/// { message = string, traceback = string, where = "file:line" or nil, value = the original error value,
///   skip = reason (only for skip()) }. On LUA_ERRMEM it is the plain message.
int us_pcall(lua_State *L, int nargs, int nresults);

/// Loads a text chunk (never binary) under `chunkname`. Protected. Returns a Lua status.
int us_load_text(lua_State *L, const char *buffer, size_t length, const char *chunkname);
/// Loads a chunk this process produced itself (text or binary, e.g. a dumped prelude). Protected.
int us_load_trusted(lua_State *L, const char *buffer, size_t length, const char *chunkname);
/// Dumps the function on top of the stack into a malloc'd buffer (caller frees). NULL on failure.
char *us_dump(lua_State *L, size_t *length);

/// Sets the chunk name used to find "the failing statement" of a scenario file in error reports.
void us_set_scenario_chunk(lua_State *L, const char *chunkname);

/// Runs the loaded prelude chunk on top of the stack, handing it the binder for its environment, error
/// describer and scenario runner. Returns a Lua status (report on top on failure).
int us_run_prelude(lua_State *L);
/// Runs the loaded scenario file on top of the stack in the scenario environment, collecting its declarations.
int us_run_chunk(lua_State *L);
/// Runs declared scenario `index` (1-based) through the prelude's runner. Returns a Lua status.
int us_run_scenario(lua_State *L, int index, lua_Integer seed);
/// Points upvalue 1 (_ENV) of the function at `index` to the scenario environment.
void us_set_chunk_environment(lua_State *L, int index);

/// Number of scenarios the loaded file declared.
int us_scenario_count(lua_State *L);
/// Name, declaration line and tag count of scenario `index` (1-based). Strings stay valid while declared.
const char *us_scenario_name(lua_State *L, int index, size_t *length);
int us_scenario_line(lua_State *L, int index);
int us_scenario_tag_count(lua_State *L, int index);
const char *us_scenario_tag(lua_State *L, int index, int tag, size_t *length);
/// Pushes the function of scenario `index`.
void us_push_scenario_function(lua_State *L, int index);
/// Forgets every declared scenario (before loading another file into the same state).
void us_clear_scenarios(lua_State *L);

/// Output captured from `print` since the last clear.
const char *us_output(lua_State *L, size_t *length);
void us_output_clear(lua_State *L);

/// Calls `fn(arguments...)` protected; on success leaves `nresults` results. Errors leave the report.
/// Re-applies the memory limit while Lua runs, even when called from inside a Swift callback.
int us_pcall_from_swift(lua_State *L, int nargs, int nresults);

/* Macro wrappers (Lua's function-like macros do not import into Swift). */
static inline int us_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int us_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void us_pop(lua_State *L, int n) { lua_settop(L, -(n) - 1); }
static inline void us_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int us_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline const char *us_tostring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline lua_Integer us_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); }
static inline lua_Number us_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }
static inline void us_insert(lua_State *L, int i) { lua_rotate(L, i, 1); }
static inline void us_remove(lua_State *L, int i) { lua_rotate(L, i, -1); lua_settop(L, -2); }
static inline void us_pushglobaltable(lua_State *L) { lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); }

/// Sets the metatable on top (popped) on the value at `index` after removing its `__gc` field: no metatable
/// Understudy sets can arm a finalizer, whatever a scenario wrote into it. Allocates nothing.
void us_setmetatable_unarmed(lua_State *L, int index);

/* Raw table helpers for tables Understudy built itself or reads without metamethods. All are `-` or `m`. */
/// t[key] = value on top (pops it). Raw: no metamethods.
void us_rawsetfield(lua_State *L, int table, const char *key, size_t keylen);
/// Pushes t[key]. Raw: no metamethods. Returns the type.
int us_rawgetfield(lua_State *L, int table, const char *key, size_t keylen);
/// Is the value a "sequence-like" table (has t[1], or is empty)?
int us_rawlen(lua_State *L, int i);

#ifdef __cplusplus
}
#endif
#endif
