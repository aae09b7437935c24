/*
 * Loading chunks: text only for scenarios, the `<const>` _ENV refusal, and dumping the prelude.
 */
#include "us_internal.h"

#include <stdlib.h>
#include <string.h>

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


/* The level of a long bracket opening at p ("[[" is 0, "[==[" is 2), or -1 when p opens none. */
static long us_long_bracket(const char *p, const char *end) {
    if (p >= end || *p != '[') return -1;
    const char *q = p + 1;
    while (q < end && *q == '=') q++;
    return q < end && *q == '[' ? (long)(q - p - 1) : -1;
}

/* Skips a long bracket of `level` whose opening starts at p; returns the first byte after its closing. */
static const char *us_skip_long(const char *p, const char *end, long level) {
    for (p += level + 2; p < end; p++) {
        if (*p != ']') continue;
        const char *q = p + 1;
        while (q < end && *q == '=') q++;
        if (q < end && *q == ']' && q - p - 1 == level) return q + 1;
    }
    return end;
}

static int us_is_name(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Lua 5.4.4 compiles wrong code for a `<const>` (or `<close>`) _ENV (fixed in 5.4.5): such a chunk is refused.
   The text is read as Lua tokens: comments, strings and every kind of white space (form feed included) between
   `_ENV` and `<` are skipped, and the word inside a comment or a string is no token at all. */
int us_has_const_env(const char *text, size_t length) {
    const char *p = text, *end = text + length;
    int after_env = 0; /* the previous token was the name _ENV */
    while (p < end) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') { p++; continue; }
        if (c == '-' && p + 1 < end && p[1] == '-') { /* a comment: long or to the end of the line */
            long level = us_long_bracket(p + 2, end);
            if (level >= 0) {
                p = us_skip_long(p + 2, end, level);
            } else {
                while (p < end && *p != '\n' && *p != '\r') p++;
            }
            continue;
        }
        if (c == '<' && after_env) return 1;
        after_env = 0;
        if (c == '"' || c == '\'') { /* a short string, with its escapes */
            for (p++; p < end && *p != c && *p != '\n'; p++) {
                if (*p != '\\' || p + 1 >= end) continue;
                p++;
                if (*p == 'z') /* \z skips the white space after it, line breaks included */
                    while (p + 1 < end && (p[1] == ' ' || (p[1] >= '\t' && p[1] <= '\r'))) p++;
            }
            p++;
            continue;
        }
        long level = us_long_bracket(p, end);
        if (level >= 0) { p = us_skip_long(p, end, level); continue; }
        if (us_is_name(c)) {
            const char *q = p;
            while (q < end && us_is_name(*q)) q++;
            after_env = q - p == 4 && memcmp(p, "_ENV", 4) == 0;
            p = q;
            continue;
        }
        p++;
    }
    return 0;
}
