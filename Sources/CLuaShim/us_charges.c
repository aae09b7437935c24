/*
 * Every standard-library function a scenario can reach whose C code loops over its input charges the instruction
 * budget in proportion to that work, before it starts or while it runs: in stock Lua a C function runs with no
 * count hook inside, so a loop there escaped both the budget and the deadline. The table of every library
 * function and how it is bounded is in docs/writing-scenarios.md ("Limits and containment").
 *
 * Rates: one instruction (about 4 ns of VM work) is charged for the work C does in about the same time: 64 bytes
 * compared with memcmp/memchr, 1 to 4 bytes decoded or converted one at a time, 2 values moved on the stack, one
 * element read and written through lua_geti/lua_seti, one comparison of a sort; os.date 8 instructions a byte of
 * its format (one strftime call a conversion). Measured with --timeout 0 and the default budget: every case of
 * Tests/HostileScenarios/cloops.lua ends within a few times what 100,000,000 plain VM instructions take.
 */
#include "us_internal.h"

#include <string.h>

/* A charge this large (about 50 µs of work) also looks at the clock, so the deadline holds inside C loops. */
#define US_CLOCK_CHARGE 10000
/* Elements a table loop handles between two charges. */
#define US_TABLE_PERIOD 256

void us_charge_work(lua_State *L, int64_t instructions) {
    us_info *info = us_info_of(L);
    info->budget -= instructions;
    if (info->budget <= 0 || instructions >= US_CLOCK_CHARGE || info->fatal != US_FATAL_NONE)
        us_charge_checked(L, 0);
}

/* Charges what `count` steps cost at `per_instruction` steps per instruction (count may be huge or negative). */
void us_charge_steps(lua_State *L, lua_Unsigned count, unsigned per_instruction) {
    lua_Unsigned cost = count / per_instruction;
    us_charge_work(L, cost > (lua_Unsigned)INT64_MAX ? INT64_MAX : (int64_t)cost);
}

/* The generic guard of a library function that is linear in its arguments: upvalue 1 is the original (a light C
   function of the standard library, which uses no upvalues of its own, so it is called here directly, in this
   frame), upvalue 2 the rate of its string arguments: n > 0, n bytes an instruction; n < 0, -n instructions a
   byte; 0, strings are not read whole. Before the call: the arguments (2 an instruction) and the strings' bytes;
   after it: the results it pushed (2 an instruction; a function returns at most about a million values, so this
   is work already bounded). */
static int us_charged_call(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    lua_Integer rate = lua_tointegerx(L, lua_upvalueindex(2), NULL);
    int nargs = lua_gettop(L);
    int64_t cost = nargs / 2;
    if (rate != 0) {
        for (int i = 1; i <= nargs; i++) {
            if (lua_type(L, i) != LUA_TSTRING) continue;
            size_t length = lua_rawlen(L, i);
            cost += rate > 0 ? (int64_t)(length / (size_t)rate) : (int64_t)length * -rate;
        }
    }
    if (cost > 0) us_charge_work(L, cost);
    int results = original(L);
    if (results >= 2) us_charge_work(L, results / 2);
    return results;
}

/* The table the library functions work on: a table, or anything whose metatable gives what they use. */
#define US_TAB_R 1
#define US_TAB_W 2
#define US_TAB_L 4

static int us_has_field(lua_State *L, const char *key) {
    lua_pushstring(L, key);
    return lua_rawget(L, -2) != LUA_TNIL;
}

static void us_check_table(lua_State *L, int what) {
    if (lua_type(L, 1) == LUA_TTABLE) return;
    int n = 1;
    if (lua_getmetatable(L, 1) && (!(what & US_TAB_R) || (n++, us_has_field(L, "__index"))) &&
        (!(what & US_TAB_W) || (n++, us_has_field(L, "__newindex"))) &&
        (!(what & US_TAB_L) || (n++, us_has_field(L, "__len")))) {
        lua_pop(L, n);
    } else {
        luaL_checktype(L, 1, LUA_TTABLE); /* raises the usual "table expected" */
    }
}

static lua_Integer us_length(lua_State *L, int what) {
    us_check_table(L, what | US_TAB_L);
    return luaL_len(L, 1);
}

/* table.insert(t, [pos,] value): the elements after pos move up one, each charged before the first moves (a
   __len of 1 << 40 meant 2^40 moves in one C call). */
static int us_table_insert(lua_State *L) {
    lua_Integer end = us_length(L, US_TAB_R | US_TAB_W);
    end = (lua_Integer)((lua_Unsigned)end + 1u); /* the first empty slot */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = end;
        break;
    case 3: {
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
        us_charge_steps(L, (lua_Unsigned)end - (lua_Unsigned)pos, 1);
        for (lua_Integer i = end; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* table.remove(t [, pos]): the elements after pos move down one, each charged before the first moves. */
static int us_table_remove(lua_State *L) {
    lua_Integer size = us_length(L, US_TAB_R | US_TAB_W);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    if (pos < size) us_charge_steps(L, (lua_Unsigned)size - (lua_Unsigned)pos, 1);
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.concat(t [, sep [, i [, j]]]): each element is charged as it is added, with the bytes it copies. */
static int us_table_concat(lua_State *L) {
    lua_Integer last = us_length(L, US_TAB_R);
    size_t separator_length;
    const char *separator = luaL_optlstring(L, 2, "", &separator_length);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int64_t pending = 0;
    for (; i <= last; i++) {
        if (lua_geti(L, 1, i) == LUA_TSTRING || lua_isstring(L, -1)) {
            size_t length;
            lua_tolstring(L, -1, &length);
            pending += 1 + (int64_t)((length + separator_length) / 64);
            luaL_addvalue(&b);
        } else {
            return luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
        }
        if (i != last) luaL_addlstring(&b, separator, separator_length);
        if (pending >= US_TABLE_PERIOD) {
            us_charge_work(L, pending);
            pending = 0;
        }
        if (i == LUA_MAXINTEGER) break;
    }
    us_charge_work(L, pending);
    luaL_pushresult(&b);
    return 1;
}

/* The comparison table.sort uses when it is given none: `a < b`, charged with the bytes two strings compare. */
static int us_sort_less(lua_State *L) {
    int64_t cost = 1;
    if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
        size_t a = lua_rawlen(L, 1), b = lua_rawlen(L, 2);
        cost += (int64_t)((a < b ? a : b) / 16); /* strcoll: a few bytes a nanosecond */
    }
    us_charge_work(L, cost);
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

/* table.sort(t [, comp]): without comp, every comparison is charged (200,000 references to one 4 MiB string
   compared 4 MiB at a time, in one C call); with comp, each call runs Lua code under the count hook. */
static int us_table_sort(lua_State *L) {
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_pushcfunction(L, us_sort_less);
    }
    return us_call_original(L);
}

/* Puts charged versions of a library's functions into the table on top of the stack. */
static void us_charge_library(lua_State *L, const char *const *names, lua_Integer per_instruction) {
    for (; *names != NULL; names++) {
        if (lua_getfield(L, -1, *names) != LUA_TFUNCTION || lua_tocfunction(L, -1) == NULL) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushinteger(L, per_instruction);
        lua_pushcclosure(L, us_charged_call, 2);
        lua_setfield(L, -2, *names);
    }
}

static void us_replace(lua_State *L, const char *name, lua_CFunction guard, int keep_original) {
    if (keep_original) {
        lua_getfield(L, -1, name);
        lua_pushcclosure(L, guard, 1);
    } else {
        lua_pushcfunction(L, guard);
    }
    lua_setfield(L, -2, name);
}

void us_open_charges(lua_State *L) {
    /* base library: the values passed through, and the strings converted */
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    static const char *const base_values[] = { "select", "assert", "warn", NULL };
    us_charge_library(L, base_values, 0);
    static const char *const base_convert[] = { "tonumber", NULL };
    us_charge_library(L, base_convert, 4);
    static const char *const base_compare[] = { "rawequal", NULL };
    us_charge_library(L, base_compare, 64);
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_STRLIBNAME) == LUA_TTABLE) {
        static const char *const values[] = { "byte", "char", NULL };
        us_charge_library(L, values, 0);
        static const char *const bytewise[] = { "upper", "lower", "reverse", "format", NULL };
        us_charge_library(L, bytewise, 2);
        static const char *const formats[] = { "pack", "packsize", "unpack", NULL };
        us_charge_library(L, formats, 1);
    }
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_UTF8LIBNAME) == LUA_TTABLE) {
        static const char *const values[] = { "char", NULL };
        us_charge_library(L, values, 0);
        static const char *const decoding[] = { "len", "codepoint", "offset", NULL };
        us_charge_library(L, decoding, 1);
    }
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_TABLIBNAME) == LUA_TTABLE) {
        static const char *const values[] = { "pack", "unpack", NULL };
        us_charge_library(L, values, 0);
        us_replace(L, "insert", us_table_insert, 0);
        us_replace(L, "remove", us_table_remove, 0);
        us_replace(L, "concat", us_table_concat, 0);
        us_replace(L, "sort", us_table_sort, 1);
    }
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_MATHLIBNAME) == LUA_TTABLE) {
        static const char *const values[] = { "max", "min", NULL };
        us_charge_library(L, values, 0);
    }
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_COLIBNAME) == LUA_TTABLE) {
        static const char *const values[] = { "resume", "yield", NULL };
        us_charge_library(L, values, 0);
    }
    lua_pop(L, 1);

    if (lua_getglobal(L, LUA_OSLIBNAME) == LUA_TTABLE) {
        static const char *const formats[] = { "date", NULL };
        us_charge_library(L, formats, -8); /* strftime, one conversion at a time: 8 instructions a byte */
    }
    lua_pop(L, 1);
}
