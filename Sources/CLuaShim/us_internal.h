/*
 * What the files of the shim share and Swift never sees: registry keys, the sticky-failure raise, the _ENV scan.
 * Every lua_error / luaL_error / luaL_check* of the embedding is in the shim's .c files: the functions there run
 * either as Lua C functions (where a longjmp crosses only C and Lua frames) or are `-` API calls that never raise.
 */
#ifndef UNDERSTUDY_US_INTERNAL_H
#define UNDERSTUDY_US_INTERNAL_H

#include "CLuaShim.h"

/* How many VM instructions run between two looks at the budget. */
#define US_HOOK_PERIOD 1000
/* A period of the count hook that took longer than this makes the next ones shorter (see us_hook). */
#define US_SLOW_PERIOD_NS 2000000u
/* An allocation this large (while scenario code runs) also looks at the clock. */
#define US_CLOCK_BYTES (1u << 20)
/* What one call of a Swift function costs against the budget (so API calls cannot outrun it). */
#define US_CALL_COST 50
/* Extra memory granted once the cap is hit, so the error can still be reported. */
#define US_MEMORY_GRACE (4u * 1024u * 1024u)
/* Captured print output per scenario. */
#define US_OUTPUT_LIMIT (1u * 1024u * 1024u)
/* How deep coroutine.close may nest (Lua 5.4.4 overflows the C stack past a few thousand). */
#define US_CLOSE_DEPTH 100

/* Registry keys (addresses are unique); defined in us_state.c. */
extern const char us_key_budget_message;
extern const char us_key_memory_message;
extern const char us_key_timeout_message;
extern const char us_key_scenarios;
extern const char us_key_scenario_chunk;
extern const char us_key_env;
extern const char us_key_describe;
extern const char us_key_skip;
extern const char us_key_chunk_function;
extern const char us_key_runner;

/* us_state.c: the sticky failure. */
const void *us_fatal_key(us_info *info);
int us_raise_fatal(lua_State *L, us_info *info);
void us_check_limits(us_info *info);
void us_hook(lua_State *L, lua_Debug *ar);

/* us_load.c: does the text give _ENV an attribute (Lua 5.4.4 compiles `<const>` _ENV wrongly)? */
int us_has_const_env(const char *text, size_t length);

/* us_charges.c: charging C work against the budget. us_charge_work takes `instructions` off and raises when the
   budget, the cap or the deadline is spent (a large charge also looks at the clock); us_charge_steps charges
   `count` steps at `per_instruction` steps an instruction. us_open_charges puts charged versions of the
   library's linear functions in place (lua_CFunction context). */
void us_charge_work(lua_State *L, int64_t instructions);
void us_charge_steps(lua_State *L, lua_Unsigned count, unsigned per_instruction);
void us_open_charges(lua_State *L);

/* us_library.c: the sandboxed standard library's guarded functions. */
int us_print(lua_State *L);
int us_call_original(lua_State *L);
int us_safe_load(lua_State *L);
int us_safe_coroutine_close(lua_State *L);
int us_safe_rep(lua_State *L);
int us_safe_move(lua_State *L);
int us_safe_utf8_codes(lua_State *L);
int us_raw_getmetatable(lua_State *L);
int us_raw_setmetatable(lua_State *L);
int us_safe_collectgarbage(lua_State *L);
int us_safe_setmetatable(lua_State *L);
int us_safe_xpcall(lua_State *L);

#endif
