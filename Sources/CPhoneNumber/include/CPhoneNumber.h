/*
 * CPhoneNumber — a minimal plain-C facade over Google's libphonenumber (C++).
 *
 * Everything here is plain C so that Swift can import it without C++ interop.
 * The caller owns every buffer; nothing is ever allocated for the caller.
 * All functions are safe to call concurrently from any number of threads and
 * never let a C++ exception escape.
 */
#ifndef UNDERSTUDY_CPHONENUMBER_H
#define UNDERSTUDY_CPHONENUMBER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An output buffer of this many bytes always fits the E.164 result plus NUL
 * ('+', up to 3 country-code digits, at most 17 national digits; 22 bytes
 * would do, the rest is headroom). */
#define UNDERSTUDY_PHONE_E164_CAPACITY 32

typedef enum understudy_phone_status {
    /* Valid mobile (or fixed-line-or-mobile) number; E.164 form written. */
    UNDERSTUDY_PHONE_OK = 0,
    /* Not recognisable as a phone number (no digits, too short, too long). */
    UNDERSTUDY_PHONE_UNPARSEABLE = 1,
    /* Parsed, but not a valid number (unknown country calling code, no
     * matching numbering-plan pattern, or it carries an extension). */
    UNDERSTUDY_PHONE_INVALID = 2,
    /* Valid number, but of a type that cannot receive SMS (landline,
     * toll-free, VoIP, ...). */
    UNDERSTUDY_PHONE_NOT_MOBILE = 3,
    /* `region` is not a region libphonenumber knows, or the number is in
     * local (non-"+") form and no region was supplied. */
    UNDERSTUDY_PHONE_BAD_REGION = 4,
    /* `out` is NULL or `out_cap` is too small (see UNDERSTUDY_PHONE_E164_CAPACITY). */
    UNDERSTUDY_PHONE_BUFFER_TOO_SMALL = 5,
    /* Unexpected failure inside libphonenumber (e.g. out of memory). */
    UNDERSTUDY_PHONE_INTERNAL_ERROR = 6
} understudy_phone_status;

/* Mirrors i18n::phonenumbers::PhoneNumberUtil::PhoneNumberType value for value
 * (checked with static_assert in the implementation). */
typedef enum understudy_phone_type {
    UNDERSTUDY_PHONE_TYPE_FIXED_LINE = 0,
    UNDERSTUDY_PHONE_TYPE_MOBILE = 1,
    /* Regions such as US/CA where the number itself does not tell. */
    UNDERSTUDY_PHONE_TYPE_FIXED_LINE_OR_MOBILE = 2,
    UNDERSTUDY_PHONE_TYPE_TOLL_FREE = 3,
    UNDERSTUDY_PHONE_TYPE_PREMIUM_RATE = 4,
    UNDERSTUDY_PHONE_TYPE_SHARED_COST = 5,
    UNDERSTUDY_PHONE_TYPE_VOIP = 6,
    UNDERSTUDY_PHONE_TYPE_PERSONAL_NUMBER = 7,
    UNDERSTUDY_PHONE_TYPE_PAGER = 8,
    UNDERSTUDY_PHONE_TYPE_UAN = 9,
    UNDERSTUDY_PHONE_TYPE_VOICEMAIL = 10,
    UNDERSTUDY_PHONE_TYPE_UNKNOWN = 11
} understudy_phone_type;

/*
 * Parses `number`, validates it, requires type MOBILE or FIXED_LINE_OR_MOBILE,
 * and writes its E.164 form (e.g. "+819012345678") NUL-terminated into `out`.
 *
 *   number  "+<country code><digits>" or local digits such as "09012345678".
 *           Parsing is libphonenumber's (lenient: spaces, dashes, brackets are
 *           ignored); validate character rules before calling if that matters.
 *           Parsing takes time quadratic in the length of `number` (Debian's
 *           libphonenumber 8.12 has no input length limit: 10,000 digits take
 *           about a second), so bound the length before calling.
 *   region  ISO 3166-1 alpha-2 code ("JP", case-insensitive) used to interpret
 *           local numbers. May be NULL or "" for "+" input. If given it must
 *           be a region libphonenumber knows, even for "+" input; "ZZ"/"001"
 *           are rejected, pass NULL instead.
 *   out     caller buffer of `out_cap` bytes. On any status other than
 *           UNDERSTUDY_PHONE_OK it is set to "" (when out_cap > 0).
 */
understudy_phone_status understudy_phone_normalize(const char *number,
                                                   const char *region,
                                                   char *out, size_t out_cap);

/*
 * As understudy_phone_normalize, and also stores the libphonenumber number
 * type in *type_out (may be NULL). The type is meaningful for
 * UNDERSTUDY_PHONE_OK and UNDERSTUDY_PHONE_NOT_MOBILE; for every other status
 * it is UNDERSTUDY_PHONE_TYPE_UNKNOWN.
 */
understudy_phone_status understudy_phone_normalize_ex(const char *number,
                                                      const char *region,
                                                      char *out, size_t out_cap,
                                                      understudy_phone_type *type_out);

/*
 * Nonzero when `region` (ISO 3166-1 alpha-2, case-insensitive) is a geographic
 * region libphonenumber has metadata for: the region check that
 * understudy_phone_normalize makes before it parses (UNDERSTUDY_PHONE_BAD_REGION).
 */
int understudy_phone_region_known(const char *region);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* UNDERSTUDY_CPHONENUMBER_H */
