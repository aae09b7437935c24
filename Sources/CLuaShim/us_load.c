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


/* Lua 5.4.4 compiles wrong code for a `<const>` _ENV (fixed in 5.4.5): such a chunk is refused. */
int us_has_const_env(const char *text, size_t length) {
    for (const char *p = text; (p = memchr(p, '_', (size_t)(text + length - p))) != NULL; p++) {
        if ((size_t)(text + length - p) < 4 || memcmp(p, "_ENV", 4) != 0) continue;
        const char *q = p + 4;
        while (q < text + length && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')) q++;
        if (q < text + length && *q == '<') return 1;
    }
    return 0;
}
