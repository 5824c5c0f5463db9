// Development driver: runs the detector on image files and prints one JSON object per
// file with every detection and the per-stage timings. Used by hand and as the
// ASan/UBSan check (see build.sh).
//
//   detect_main [--gray] [--nv12] [--repeat N] [--track] [--decimate F] [--no-mirror] [--threads N] files...
//
// --repeat N   run N times per file and report median / p90 total time
// --track      after the first run, run again with the detections as hints (tracked frame)
// --track-repeat N  tracked runs per file (default: --repeat's N)
// --sequence   the files are one sequence: each frame is read with the last frame's
//              detections as hints (kept while a frame finds nothing), as a session does
// --truth-hints  also read each frame with its ground truth's homographies (FILE.json beside
//              it, tools/synth) as hints: tells fitting/reading failures from locating ones
// --truth-only with --truth-hints: skip the frame's own search (only the hinted read)
// --acquire    set acquire_unread (as sessions do): unread codes found by ring alignment
// --min-diameter N  smallest code searched for, pixels (default 40; sessions set 20, which
//              also makes the locator work at full resolution on 720p frames)
// --max-codes N  stop after N codes per frame (default 8)
// --seed-truth with --sequence: while the sequence has no hint, the frame's ground truth
//              is the hint (what fusion reads once a code is found, whatever finds it)
// --truth-every with --sequence: every frame is hinted with its ground truth only
//              (fusion's ceiling with perfect registration)
// --bits URL   print the URL's ring bits (gaps, colours per visible position) and exit
// ACC_PRINT_OBSERVATION=1 in the environment adds each detection's soft ring bits
// ACC_DEBUG_PLANE_AS_GIVEN=1 (debug build only): planes are read as given, without the edge
//              fit; with --truth-only, the exact true plane is read
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <opencv2/core/utility.hpp>

#include "appclip_core.h"

namespace {

struct Options {
    bool gray = false, nv12 = false, track = false, mirror = true, truth_hints = false, sequence = false,
         seed_truth = false, truth_every = false, truth_only = false;
    int repeat = 1;
    int track_repeat = 0;   // 0: as repeat
    int threads = 1;   // OpenCV worker threads: 1 measures one core
    float decimate = 0;
    int min_diameter = 0;   // 0: the detector's default (sessions set 20)
    int max_codes = 0;      // 0: the detector's default
    bool acquire = false;
    std::vector<acc_search_hint> fixed_hints;   // --hint: read every file from these planes
};

const char* logo_name(acc_logo logo) {
    return logo == ACC_LOGO_CAMERA ? "camera" : logo == ACC_LOGO_NFC ? "nfc" : "none";
}

void print_json_string(const char* s) {
    std::putchar('"');
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') std::putchar('\\');
        if (static_cast<unsigned char>(*s) < 0x20) std::printf("\\u%04x", *s);
        else std::putchar(*s);
    }
    std::putchar('"');
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5))];
}

// Builds the luma and interleaved chroma planes of an NV12 frame from RGB pixels.
void to_nv12(const acc_owned_image& img, std::vector<uint8_t>& y, std::vector<uint8_t>& uv) {
    const int w = img.width, h = img.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
    y.assign(static_cast<size_t>(w) * h, 0);
    uv.assign(static_cast<size_t>(cw) * 2 * ch, 128);
    auto rgb = [&](int xx, int yy, int c) {
        const uint8_t* p = img.data + static_cast<size_t>(yy) * img.stride;
        return img.format == ACC_PIXEL_GRAY8 ? p[xx] : p[3 * xx + c];
    };
    for (int yy = 0; yy < h; ++yy)
        for (int xx = 0; xx < w; ++xx)
            y[static_cast<size_t>(yy) * w + xx] = static_cast<uint8_t>(
                std::clamp(0.299 * rgb(xx, yy, 0) + 0.587 * rgb(xx, yy, 1) + 0.114 * rgb(xx, yy, 2), 0.0, 255.0));
    for (int yy = 0; yy < ch; ++yy)
        for (int xx = 0; xx < cw; ++xx) {
            const int sx = std::min(2 * xx, w - 1), sy = std::min(2 * yy, h - 1);
            const double r = rgb(sx, sy, 0), g = rgb(sx, sy, 1), b = rgb(sx, sy, 2);
            const double l = 0.299 * r + 0.587 * g + 0.114 * b;
            uv[static_cast<size_t>(yy) * cw * 2 + 2 * xx] = static_cast<uint8_t>(std::clamp((b - l) / 1.772 + 128, 0.0, 255.0));
            uv[static_cast<size_t>(yy) * cw * 2 + 2 * xx + 1] = static_cast<uint8_t>(std::clamp((r - l) / 1.402 + 128, 0.0, 255.0));
        }
}

void print_detections(const acc_detection* d, int n) {
    std::printf("\"detections\":[");
    for (int i = 0; i < n; ++i) {
        const acc_detection& x = d[i];
        std::printf("%s{\"state\":\"%s\",\"failure\":\"%s\",\"url\":", i ? "," : "",
                    x.state == ACC_STATE_DECODED ? "decoded" : "failed", acc_status_name(x.failure));
        print_json_string(x.url);
        std::printf(",\"version\":%d,\"center\":[%.2f,%.2f],\"corners\":[[%.2f,%.2f],[%.2f,%.2f],[%.2f,%.2f],[%.2f,%.2f]]",
                    x.version, x.center[0], x.center[1], x.corners[0][0], x.corners[0][1], x.corners[1][0],
                    x.corners[1][1], x.corners[2][0], x.corners[2][1], x.corners[3][0], x.corners[3][1]);
        std::printf(",\"homography\":[");
        for (int k = 0; k < 9; ++k) std::printf("%s%.8g", k ? "," : "", x.homography[k]);
        std::printf("],\"palette\":[\"%06X\",\"%06X\",\"%06X\"],\"logo\":\"%s\",\"mirrored\":%d,"
                    "\"confidence\":%.3f,\"corrected\":%d,\"erasures\":%d,\"margin\":%.3f",
                    x.palette.foreground, x.palette.background, x.palette.third, logo_name(x.logo), x.mirrored,
                    x.confidence, x.corrected_symbols, x.erasures, x.decision_margin);
        if (std::getenv("ACC_PRINT_OBSERVATION") != nullptr) {
            std::printf(",\"p_arc\":[");
            for (int k = 0; k < ACC_RING_POSITIONS; ++k) std::printf("%s%.3f", k ? "," : "", x.observation.p_arc_start[k]);
            std::printf("],\"p_third\":[");
            for (int k = 0; k < ACC_RING_POSITIONS; ++k) std::printf("%s%.3f", k ? "," : "", x.observation.p_third[k]);
            std::printf("]");
        }
        std::printf("}");
    }
    std::printf("]");
}

// Search hints at the detections' planes (the next frame's, as a session passes them).
void hints_from(const acc_detection* d, int count, std::vector<acc_search_hint>& out) {
    out.clear();
    for (int i = 0; i < count; ++i) {
        acc_search_hint h;
        std::memcpy(h.homography, d[i].homography, sizeof(h.homography));
        out.push_back(h);
    }
}

// The "homography" arrays of a ground-truth frame file, in order (a crude scan: the
// synth files hold homographies only for codes).
std::vector<acc_search_hint> truth_hints(const std::string& image_file) {
    std::vector<acc_search_hint> out;
    const std::string json = image_file.substr(0, image_file.find_last_of('.')) + ".json";
    FILE* f = std::fopen(json.c_str(), "rb");
    if (f == nullptr) return out;
    std::string text;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    const std::string codes_key = "\"codes\"";
    size_t pos = text.find(codes_key);
    const size_t end = text.find("\"lookalikes\"");
    while (pos != std::string::npos) {
        pos = text.find("\"homography\"", pos);
        if (pos == std::string::npos || (end != std::string::npos && pos > end)) break;
        pos = text.find('[', pos) + 1;
        acc_search_hint h{};
        char* p = text.data() + pos;
        for (int k = 0; k < 9; ++k) {
            h.homography[k] = std::strtod(p, &p);
            while (*p == ',' || *p == ' ' || *p == '\n') ++p;
        }
        out.push_back(h);
    }
    return out;
}

}  // namespace

// --bits URL: prints the URL's ring bits (gaps, then colours per visible position) and exits.
int print_bits(const char* url) {
    uint8_t payload[ACC_PAYLOAD_BYTES];
    int32_t length = 0;
    acc_error error{};
    acc_code_bits bits{};
    if (acc_url_compress(url, std::strlen(url), payload, &length, &error) != ACC_OK ||
        acc_codec_encode(payload, &bits, &error) != ACC_OK) {
        std::printf("{\"error\":\"%s\"}\n", error.message);
        return 1;
    }
    std::printf("{\"gaps\":\"");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) std::putchar('0' + bits.gaps[i]);
    std::printf("\",\"colors\":\"");
    for (int i = 0; i < bits.color_count; ++i) std::putchar('0' + bits.colors[i]);
    std::printf("\"}\n");
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--bits") == 0) return print_bits(argv[2]);
    Options opt;
    std::vector<const char*> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--gray") opt.gray = true;
        else if (a == "--nv12") opt.nv12 = true;
        else if (a == "--track") opt.track = true;
        else if (a == "--sequence") opt.sequence = true;
        else if (a == "--seed-truth") opt.seed_truth = true;
        else if (a == "--truth-every") opt.truth_every = true;
        else if (a == "--no-mirror") opt.mirror = false;
        else if (a == "--acquire") opt.acquire = true;
        else if (a == "--truth-hints") opt.truth_hints = true;
        else if (a == "--truth-only") opt.truth_hints = opt.truth_only = true;
        else if (a == "--threads" && i + 1 < argc) opt.threads = std::atoi(argv[++i]);
        else if (a == "--repeat" && i + 1 < argc) opt.repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--track-repeat" && i + 1 < argc) opt.track_repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--decimate" && i + 1 < argc) opt.decimate = static_cast<float>(std::atof(argv[++i]));
        else if (a == "--min-diameter" && i + 1 < argc) opt.min_diameter = std::atoi(argv[++i]);
        else if (a == "--max-codes" && i + 1 < argc) opt.max_codes = std::atoi(argv[++i]);
        else if (a == "--hint" && i + 1 < argc) {
            // Nine comma-separated numbers, row-major (SVG units -> pixels), as a session predicts.
            acc_search_hint h{};
            const char* p = argv[++i];
            for (int k = 0; k < 9; ++k) {
                char* end = nullptr;
                h.homography[k] = std::strtod(p, &end);
                p = *end == ',' ? end + 1 : end;
            }
            opt.fixed_hints.push_back(h);
        }
        else files.push_back(argv[i]);
    }
    cv::setNumThreads(opt.threads);
    acc_detector_options options;
    acc_detector_options_default(&options);
    options.decimate = opt.decimate;
    if (opt.min_diameter > 0) options.min_diameter_px = opt.min_diameter;
    if (opt.max_codes > 0) options.max_codes = opt.max_codes;
    options.acquire_unread = opt.acquire ? 1 : 0;
    options.try_mirrored = opt.mirror ? 1 : 0;
    acc_detector* detector = acc_detector_create(&options);
    if (detector == nullptr) return 2;
    std::vector<acc_detection> detections(16);
    std::vector<acc_search_hint> hints, previous;
    int exit_code = 0;
    for (const char* file : files) {
        acc_owned_image img{};
        acc_error error{};
        if (acc_image_load_file(file, 0, &img, &error) != ACC_OK) {
            std::printf("{\"file\":");
            print_json_string(file);
            std::printf(",\"error\":\"%s\",\"message\":", acc_status_name(error.status));
            print_json_string(error.message);
            std::printf("}\n");
            exit_code = 1;
            continue;
        }
        acc_image_view view{img.data, img.width, img.height, img.stride, img.format, nullptr, 0};
        std::vector<uint8_t> gray, y, uv;
        if (opt.gray && img.format == ACC_PIXEL_RGB8) {
            gray.resize(static_cast<size_t>(img.width) * img.height);
            for (int r = 0; r < img.height; ++r)
                for (int c = 0; c < img.width; ++c) {
                    const uint8_t* p = img.data + static_cast<size_t>(r) * img.stride + 3 * c;
                    gray[static_cast<size_t>(r) * img.width + c] = static_cast<uint8_t>((77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8);
                }
            view = acc_image_view{gray.data(), img.width, img.height, img.width, ACC_PIXEL_GRAY8, nullptr, 0};
        } else if (opt.nv12) {
            to_nv12(img, y, uv);
            view = acc_image_view{y.data(), img.width, img.height, img.width, ACC_PIXEL_NV12, uv.data(),
                                  ((img.width + 1) / 2) * 2};
        }
        std::vector<double> totals;
        acc_frame_stats stats{};
        int count = 0;
        acc_status status = ACC_OK;
        acc_frame_stats sum{};
        if (opt.sequence && ((opt.seed_truth && previous.empty()) || opt.truth_every)) previous = truth_hints(file);
        if (!opt.fixed_hints.empty()) previous = opt.fixed_hints;
        for (int r = 0; r < (opt.truth_only ? 0 : opt.repeat); ++r) {
            status = acc_detector_detect(detector, &view, previous.data(), static_cast<int>(previous.size()),
                                         detections.data(), static_cast<int>(detections.size()), &count, &stats,
                                         &error);
            totals.push_back(stats.total_ms);
            sum.locate_ms += stats.locate_ms / opt.repeat;
            sum.fit_ms += stats.fit_ms / opt.repeat;
            sum.sample_ms += stats.sample_ms / opt.repeat;
            sum.decode_ms += stats.decode_ms / opt.repeat;
            sum.total_ms += stats.total_ms / opt.repeat;
        }
        if (opt.sequence && !opt.truth_every && count > 0) hints_from(detections.data(), count, previous);
        // Stage times are means over the repeats.
        stats.locate_ms = sum.locate_ms;
        stats.fit_ms = sum.fit_ms;
        stats.sample_ms = sum.sample_ms;
        stats.decode_ms = sum.decode_ms;
        stats.total_ms = sum.total_ms;
        std::printf("{\"file\":");
        print_json_string(file);
        std::printf(",\"status\":\"%s\",\"width\":%d,\"height\":%d,\"count\":%d,", acc_status_name(status),
                    img.width, img.height, count);
        print_detections(detections.data(), count);
        std::printf(",\"stats\":{\"locate_ms\":%.3f,\"fit_ms\":%.3f,\"sample_ms\":%.3f,\"decode_ms\":%.3f,"
                    "\"total_ms\":%.3f,\"candidates\":%d,\"min_ms\":%.3f,\"median_ms\":%.3f,\"p90_ms\":%.3f}",
                    stats.locate_ms, stats.fit_ms, stats.sample_ms, stats.decode_ms, stats.total_ms, stats.candidates,
                    percentile(totals, 0.0), percentile(totals, 0.5), percentile(totals, 0.9));
        if (opt.track && count > 0) {
            hints_from(detections.data(), count, hints);
            std::vector<double> tracked;
            int tracked_count = 0;
            for (int r = 0; r < (opt.track_repeat > 0 ? opt.track_repeat : opt.repeat); ++r) {
                acc_detector_detect(detector, &view, hints.data(), static_cast<int>(hints.size()), detections.data(),
                                    static_cast<int>(detections.size()), &tracked_count, &stats, &error);
                tracked.push_back(stats.total_ms);
            }
            // Stage times of the last repeat (one of the hint-only frames when repeating).
            std::printf(",\"tracked\":{\"count\":%d,\"min_ms\":%.3f,\"median_ms\":%.3f,\"p90_ms\":%.3f,"
                        "\"last\":{\"locate_ms\":%.3f,\"fit_ms\":%.3f,\"sample_ms\":%.3f,\"decode_ms\":%.3f,"
                        "\"total_ms\":%.3f}}",
                        tracked_count, percentile(tracked, 0.0), percentile(tracked, 0.5), percentile(tracked, 0.9),
                        stats.locate_ms, stats.fit_ms, stats.sample_ms, stats.decode_ms, stats.total_ms);
        }
        if (opt.truth_hints) {
            const std::vector<acc_search_hint> truth = truth_hints(file);
            int hinted = 0;
            std::fprintf(stderr, "=== truth hints\n");
            acc_detector* fresh = acc_detector_create(&options);
            acc_detector_detect(fresh, &view, truth.data(), static_cast<int>(truth.size()), detections.data(),
                                static_cast<int>(detections.size()), &hinted, &stats, &error);
            acc_detector_destroy(fresh);
            std::printf(",\"truth_hinted\":{");
            print_detections(detections.data(), std::min<int>(hinted, static_cast<int>(truth.size())));
            std::printf("}");
        }
        std::printf("}\n");
        acc_image_free(&img);
    }
    acc_detector_destroy(detector);
    return exit_code;
}
