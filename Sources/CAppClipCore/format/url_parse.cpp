// Validation and splitting of URLs with the rules of Apple's generator.
#include <cctype>
#include <cstdio>

#include "url.hpp"

namespace appclip {

namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Characters the generator refuses raw in a path or query (a fragment also refuses '#').
bool refused_raw(char c) {
    switch (c) {
        case ' ': case '"': case '<': case '>': case '\\': case '^': case '`':
        case '{': case '|': case '}':
            return true;
        default:
            return false;
    }
}

// Accepted raw characters that the coders' alphabets lack: the generator encodes
// them as percent escapes (Apple documents this for '[' and ']').
bool escaped_on_input(char c) {
    switch (c) {
        case '[': case ']': case '~': case '!': case '$': case '\'': case '(': case ')': case '*': case '@':
            return true;
        default:
            return false;
    }
}

std::string describe(char c) {
    char buffer[16];
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7F) std::snprintf(buffer, sizeof buffer, "'%c'", c);
    else std::snprintf(buffer, sizeof buffer, "byte 0x%02X", u);
    return buffer;
}

// Checks one component and returns it with escapes applied; `offset` is where it
// starts in the URL, for error positions.
Result<std::string> clean_component(const std::string& text, std::size_t offset, bool is_fragment, const char* name) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        unsigned char u = static_cast<unsigned char>(c);
        int at = static_cast<int>(offset + i);
        if (u >= 0x80)
            return fail(ACC_E_URL_CHARACTER, std::string("non-ASCII ") + describe(c) + " in the " + name + " at " + std::to_string(at) + ": percent-encode it", at);
        if (u < 0x21 || u == 0x7F || refused_raw(c) || (is_fragment && c == '#'))
            return fail(ACC_E_URL_CHARACTER, "character " + describe(c) + " is not allowed raw in the " + name + " at " + std::to_string(at), at);
        if (c == '%') {
            if (i + 2 >= text.size() || !is_hex(text[i + 1]) || !is_hex(text[i + 2]))
                return fail(ACC_E_URL_CHARACTER, "'%' at " + std::to_string(at) + " does not begin a %XX escape", at);
            out.append(text, i, 3);  // kept verbatim, hex case included
            i += 2;
            continue;
        }
        if (escaped_on_input(c)) {
            char buffer[4];
            std::snprintf(buffer, sizeof buffer, "%%%02X", u);
            out += buffer;
            continue;
        }
        out.push_back(c);
    }
    return out;
}

}  // namespace

Result<UrlParts> parse_url(const std::string& url) {
    static const char kScheme[] = "https://";
    if (url.size() < 8) return fail(ACC_E_URL_SCHEME, "the URL must start with https://", 0);
    for (std::size_t i = 0; i < 8; ++i)
        if (std::tolower(static_cast<unsigned char>(url[i])) != kScheme[i])
            return fail(ACC_E_URL_SCHEME, "the URL must start with https:// (App Clip Codes hold only https URLs)", 0);

    std::size_t host_begin = 8;
    std::size_t host_end = url.find_first_of("/?#", host_begin);
    if (host_end == std::string::npos) host_end = url.size();
    std::string authority = url.substr(host_begin, host_end - host_begin);
    if (authority.empty()) return fail(ACC_E_URL_NO_HOST, "the URL has no host", static_cast<int>(host_begin));
    std::size_t at = authority.find('@');
    if (at != std::string::npos)
        return fail(ACC_E_URL_USERINFO, "user info ('user@') is not allowed in an App Clip Code URL", static_cast<int>(host_begin + at));
    std::size_t colon = authority.find(':');
    if (colon != std::string::npos)
        return fail(ACC_E_URL_PORT, "a port is not allowed in an App Clip Code URL", static_cast<int>(host_begin + colon));

    UrlParts parts;
    for (std::size_t i = 0; i < authority.size(); ++i) {
        char c = authority[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        int pos = static_cast<int>(host_begin + i);
        if (!ok)
            return fail(ACC_E_URL_HOST_CHARACTER, "host character " + describe(c) + " at " + std::to_string(pos) + " is not allowed (letters, digits, '.' and '-' only)", pos);
        parts.host.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    for (std::size_t label = 0; label <= parts.host.size();) {
        std::size_t dot = parts.host.find('.', label);
        if (dot == std::string::npos) dot = parts.host.size();
        if (parts.host.compare(label, 4, "xn--") == 0 && dot - label >= 4)
            return fail(ACC_E_URL_PUNYCODE, "host label starting with 'xn--' (punycode) at " + std::to_string(host_begin + label) + " is not supported", static_cast<int>(host_begin + label));
        label = dot + 1;
    }
    if (parts.host.compare(0, 8, "appclip.") == 0) {
        parts.appclip_subdomain = true;
        parts.host.erase(0, 8);
        if (parts.host.empty()) return fail(ACC_E_URL_NO_HOST, "the host is only 'appclip.'", static_cast<int>(host_begin));
    }

    // Path up to '?' or '#', query up to '#', fragment after.
    std::size_t rest = host_end;
    std::size_t query_mark = url.find_first_of("?#", rest);
    std::size_t path_end = query_mark == std::string::npos ? url.size() : query_mark;
    std::size_t fragment_mark = url.find('#', rest);
    auto path = clean_component(url.substr(rest, path_end - rest), rest, false, "path");
    if (!path.ok()) return path.failure();
    parts.path = path.value();
    if (query_mark != std::string::npos && url[query_mark] == '?') {
        std::size_t query_end = fragment_mark == std::string::npos ? url.size() : fragment_mark;
        auto query = clean_component(url.substr(query_mark + 1, query_end - query_mark - 1), query_mark + 1, false, "query");
        if (!query.ok()) return query.failure();
        parts.query = query.value();
    }
    if (fragment_mark != std::string::npos) {
        auto fragment = clean_component(url.substr(fragment_mark + 1), fragment_mark + 1, true, "fragment");
        if (!fragment.ok()) return fragment.failure();
        parts.fragment = fragment.value();
    }
    return parts;
}

}  // namespace appclip
