// Implementation of the plain-C facade declared in include/CPhoneNumber.h.
//
// Thread safety: PhoneNumberUtil::GetInstance() is a pthread_once-guarded
// singleton in Debian's build, and the const query methods used here only
// touch immutable metadata plus an internally mutex-protected regexp cache.
// This file keeps no state of its own, so concurrent calls are safe.

#include "CPhoneNumber.h"

#include <cstring>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

// The C enum is a straight cast of libphonenumber's; keep them in lock-step.
#define UNDERSTUDY_CHECK_TYPE(name)                                            \
    static_assert(static_cast<int>(UNDERSTUDY_PHONE_TYPE_##name) ==            \
                      static_cast<int>(PhoneNumberUtil::name),                 \
                  "understudy_phone_type out of sync: " #name)
UNDERSTUDY_CHECK_TYPE(FIXED_LINE);
UNDERSTUDY_CHECK_TYPE(MOBILE);
UNDERSTUDY_CHECK_TYPE(FIXED_LINE_OR_MOBILE);
UNDERSTUDY_CHECK_TYPE(TOLL_FREE);
UNDERSTUDY_CHECK_TYPE(PREMIUM_RATE);
UNDERSTUDY_CHECK_TYPE(SHARED_COST);
UNDERSTUDY_CHECK_TYPE(VOIP);
UNDERSTUDY_CHECK_TYPE(PERSONAL_NUMBER);
UNDERSTUDY_CHECK_TYPE(PAGER);
UNDERSTUDY_CHECK_TYPE(UAN);
UNDERSTUDY_CHECK_TYPE(VOICEMAIL);
UNDERSTUDY_CHECK_TYPE(UNKNOWN);
static_assert(PhoneNumberUtil::kMaxNumberType == PhoneNumberUtil::UNKNOWN,
              "libphonenumber grew a new PhoneNumberType");
#undef UNDERSTUDY_CHECK_TYPE

// True if the first non-blank character is '+', i.e. the number carries its
// own country calling code and needs no region.
bool starts_with_plus(const char *s) {
    while (*s == ' ' || *s == '\t') ++s;
    return *s == '+';
}

// `region` upper-cased, as libphonenumber's metadata spells region codes.
std::string canonical_region(const char *region) {
    std::string code = region;
    for (char &c : code) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return code;
}

understudy_phone_status normalize(const char *number, const char *region,
                                  char *out, size_t out_cap,
                                  understudy_phone_type *type_out) {
    if (out == nullptr || out_cap == 0) return UNDERSTUDY_PHONE_BUFFER_TOO_SMALL;
    if (number == nullptr) return UNDERSTUDY_PHONE_UNPARSEABLE;

    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();

    // libphonenumber spells "no region" as "ZZ". Region codes in its metadata
    // are upper case and an unknown one is silently treated like "ZZ", so
    // canonicalise and check explicitly to be able to report BAD_REGION.
    const bool have_region = region != nullptr && region[0] != '\0';
    const std::string region_code = have_region ? canonical_region(region) : "ZZ";
    if (have_region) {
        // 0 means "not a geographic region libphonenumber has metadata for"
        // (this also rejects "ZZ" and the non-geographic "001").
        if (util.GetCountryCodeForRegion(region_code) == 0) {
            return UNDERSTUDY_PHONE_BAD_REGION;
        }
    }

    PhoneNumber parsed;
    switch (util.Parse(number, region_code, &parsed)) {
    case PhoneNumberUtil::NO_PARSING_ERROR:
        break;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR:
        // Either a local number with no region to interpret it in, or an
        // unknown country calling code after '+' (or after an IDD prefix).
        return (!have_region && !starts_with_plus(number))
                   ? UNDERSTUDY_PHONE_BAD_REGION
                   : UNDERSTUDY_PHONE_INVALID;
    default:  // NOT_A_NUMBER, TOO_SHORT_AFTER_IDD, TOO_SHORT_NSN, TOO_LONG_NSN
        return UNDERSTUDY_PHONE_UNPARSEABLE;
    }

    // Parse happily accepts "...;ext=123" / "... x123"; E.164 would silently
    // drop the extension, so refuse such input instead.
    if (parsed.has_extension() || !util.IsValidNumber(parsed)) {
        return UNDERSTUDY_PHONE_INVALID;
    }

    const PhoneNumberUtil::PhoneNumberType type = util.GetNumberType(parsed);
    if (type_out != nullptr) *type_out = static_cast<understudy_phone_type>(type);
    if (type != PhoneNumberUtil::MOBILE &&
        type != PhoneNumberUtil::FIXED_LINE_OR_MOBILE) {
        return UNDERSTUDY_PHONE_NOT_MOBILE;
    }

    std::string e164;
    util.Format(parsed, PhoneNumberUtil::E164, &e164);
    if (e164.size() >= out_cap) return UNDERSTUDY_PHONE_BUFFER_TOO_SMALL;
    std::memcpy(out, e164.c_str(), e164.size() + 1);
    return UNDERSTUDY_PHONE_OK;
}

}  // namespace

extern "C" understudy_phone_status
understudy_phone_normalize_ex(const char *number, const char *region, char *out,
                              size_t out_cap,
                              understudy_phone_type *type_out) {
    if (type_out != nullptr) *type_out = UNDERSTUDY_PHONE_TYPE_UNKNOWN;
    understudy_phone_status status;
    try {
        status = normalize(number, region, out, out_cap, type_out);
    } catch (...) {
        // Never unwind into C/Swift frames.
        status = UNDERSTUDY_PHONE_INTERNAL_ERROR;
    }
    if (status != UNDERSTUDY_PHONE_OK) {
        if (out != nullptr && out_cap > 0) out[0] = '\0';
        if (type_out != nullptr && status != UNDERSTUDY_PHONE_NOT_MOBILE) {
            *type_out = UNDERSTUDY_PHONE_TYPE_UNKNOWN;
        }
    }
    return status;
}

extern "C" understudy_phone_status
understudy_phone_normalize(const char *number, const char *region, char *out,
                           size_t out_cap) {
    return understudy_phone_normalize_ex(number, region, out, out_cap, nullptr);
}

extern "C" int understudy_phone_region_known(const char *region) {
    if (region == nullptr || region[0] == '\0') return 0;
    try {
        const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
        return util.GetCountryCodeForRegion(canonical_region(region)) != 0;
    } catch (...) {
        return 0;
    }
}
