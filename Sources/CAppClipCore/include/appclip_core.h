/*
 * appclip_core.h — the whole public surface of CAppClipCore.
 *
 * Plain C so that Swift, Python (ctypes/cffi) or any other runtime can bind it.
 * Conventions:
 *   - every fallible call returns acc_status and, when `error` is non-NULL, fills it
 *     with a message saying what went wrong and where;
 *   - memory returned through `char**` / acc_owned_image is freed with acc_free /
 *     acc_image_free; everything else is caller-owned;
 *   - no function keeps global mutable state: a detector is one object per thread of
 *     work, and the format tables are built once and then only read.
 */
#ifndef APPCLIP_CORE_H
#define APPCLIP_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

typedef enum acc_status {
    ACC_OK = 0,
    ACC_E_INVALID_ARGUMENT = 1,   /* NULL pointer, bad option value */
    ACC_E_BUFFER_TOO_SMALL = 2,
    ACC_E_OUT_OF_MEMORY = 3,

    /* URL validation (the rules of Apple's generator) */
    ACC_E_URL_SCHEME = 10,        /* not https */
    ACC_E_URL_NO_HOST = 11,
    ACC_E_URL_USERINFO = 12,
    ACC_E_URL_PORT = 13,
    ACC_E_URL_HOST_CHARACTER = 14,
    ACC_E_URL_PUNYCODE = 15,      /* a host label starting with xn-- */
    ACC_E_URL_CHARACTER = 16,     /* raw character not allowed in path/query/fragment */
    ACC_E_URL_TOO_LONG = 17,      /* compressed size over 128 bits (error.value = bit count) */

    /* payload and codec */
    ACC_E_PAYLOAD_INVALID = 30,   /* bits that no URL compresses to */
    ACC_E_UNCORRECTABLE = 31,     /* Reed-Solomon could not correct the word */
    ACC_E_UNSUPPORTED_VERSION = 32,
    ACC_E_BIT_COUNT = 33,         /* wrong number of ring positions / bits */

    /* SVG */
    ACC_E_SVG_MALFORMED = 40,     /* not parseable XML/path data */
    ACC_E_SVG_NOT_A_CODE = 41,    /* parseable, but not App Clip Code geometry */

    /* images */
    ACC_E_IMAGE_FORMAT = 50,      /* unknown or corrupt image data */
    ACC_E_IMAGE_TRUNCATED = 51,
    ACC_E_IMAGE_TOO_LARGE = 52,   /* dimensions over the configured limit */
    ACC_E_IMAGE_STRIDE = 53,      /* row stride smaller than a row */
    ACC_E_IO = 54                 /* file could not be read or written */
} acc_status;

typedef struct acc_error {
    acc_status status;
    int32_t position;   /* character/byte index in the input where it went wrong, or -1 */
    int32_t value;      /* a number that explains it (e.g. compressed bit count), or -1 */
    char message[240];  /* NUL-terminated English sentence */
} acc_error;

/* A short, stable name for a status ("url_too_long", "uncorrectable", ...). */
const char* acc_status_name(acc_status status);

/* Frees memory the library returned through a char** or uint8_t** out-parameter. */
void acc_free(void* pointer);

/* ------------------------------------------------------------------ format */

#define ACC_PAYLOAD_BYTES 16      /* a compressed URL */
#define ACC_TOKEN_BYTES 20        /* a version-8 binary token */
#define ACC_RING_POSITIONS 128    /* 17 + 23 + 26 + 29 + 33 */
#define ACC_RING_COUNT 5
#define ACC_URL_CAPACITY 1024     /* enough for any URL 128 bits can hold */
#define ACC_TEMPLATE_COUNT 18

/* Builds the format tables now (they are otherwise built on first use) and tells how long
 * that took and how many bytes they hold. Thread-safe; later calls return the same numbers. */
void acc_format_tables_info(double* build_milliseconds, size_t* bytes);

/* Compresses `url` (length `url_length`, not NUL-terminated necessarily) exactly as
 * Apple's generator does: validates it, tries every legal form and keeps the
 * shortest. `payload` receives the 16 bytes (left-padded); `bit_count` (optional)
 * the raw compressed length. */
acc_status acc_url_compress(const char* url, size_t url_length,
                            uint8_t payload[ACC_PAYLOAD_BYTES], int32_t* bit_count,
                            acc_error* error);

/* Decompresses a 16-byte payload into a NUL-terminated URL in Apple's canonical form. */
acc_status acc_url_decompress(const uint8_t payload[ACC_PAYLOAD_BYTES],
                              char* url, size_t url_capacity, size_t* url_length,
                              acc_error* error);

/* What the rings show: for each of the 128 ring positions (ring 1 first, positions in
 * order), whether an arc starts there (gap bit 0), and the color bit of every visible
 * arc in the same order. */
typedef struct acc_code_bits {
    uint8_t gaps[ACC_RING_POSITIONS];    /* 0 = an arc starts here, 1 = the previous arc runs through */
    uint8_t colors[ACC_RING_POSITIONS];  /* per visible position in order: 0 = foreground, 1 = third */
    int32_t color_count;                 /* number of visible positions (zeros in gaps) */
    int32_t version;                     /* 0, 1 (URL) or 8 (token) */
} acc_code_bits;

/* Encodes a 16-byte payload into ring bits (versions 0/1 chosen as Apple does). */
acc_status acc_codec_encode(const uint8_t payload[ACC_PAYLOAD_BYTES], acc_code_bits* bits,
                            acc_error* error);

/* Encodes a 20-byte version-8 binary token (13 bytes in the gap bits, 7 in the arcs;
 * no error correction is known for this version, so readers accept it only from
 * confident samples). */
acc_status acc_codec_encode_token(const uint8_t token[ACC_TOKEN_BYTES], acc_code_bits* bits, acc_error* error);

/* Soft observations of a code, from a sampler or from SVG geometry. Probabilities are
 * in [0,1]; 0.5 means "no idea" and becomes an erasure. */
typedef struct acc_ring_observation {
    float p_arc_start[ACC_RING_POSITIONS];  /* P(an arc starts at this position) = P(gap bit 0) */
    float p_third[ACC_RING_POSITIONS];      /* P(the stroke over this position is the third color) */
} acc_ring_observation;

typedef struct acc_decode_result {
    int32_t version;                 /* 0, 1, or 8 */
    int32_t payload_length;          /* 16 (URL payload) or 20 (token) */
    uint8_t payload[ACC_TOKEN_BYTES];
    int32_t corrected_symbols;       /* symbols Reed-Solomon changed (all three codes) */
    int32_t erasures;                /* symbols decoded as erasures */
    float margin;                    /* 0..1: how far the accepted word is from failing */
    acc_code_bits bits;              /* the corrected ring bits */
    float check_bits;                /* unused checking behind the result, in bits (-log2 of the
                                        chance that noise decodes this way); >= 26 when accepted */
} acc_decode_result;

/* Decodes observations to a payload. Succeeds only when every check passes:
 * metadata, gap and arc Reed-Solomon words, template byte and the repeated gap bits
 * in the color stream. Tries erasure patterns in order of confidence. */
acc_status acc_codec_decode(const acc_ring_observation* observation, acc_decode_result* result,
                            acc_error* error);

/* The format's Reed-Solomon codes, exposed for tests, fuzzing and other tools. */
typedef enum acc_rs_code {
    ACC_RS_METADATA = 0,   /* RS(4,2) over GF(16), symbols 0..15 */
    ACC_RS_GAPS_V0 = 1,    /* RS(13,9) over GF(256) */
    ACC_RS_GAPS_V1 = 2,    /* RS(13,11) over GF(256) */
    ACC_RS_ARCS = 3        /* RS(7,5) over GF(256) */
} acc_rs_code;

/* Lengths of a code: n symbols, k data symbols. */
acc_status acc_rs_shape(acc_rs_code code, int32_t* n, int32_t* k);
/* codeword[0..k) = data, codeword[k..n) = parity. */
acc_status acc_rs_encode(acc_rs_code code, const uint8_t* data, uint8_t* codeword, acc_error* error);
/* Corrects `codeword` in place given erasure positions; fails (ACC_E_UNCORRECTABLE,
 * codeword untouched) rather than return a word whose syndromes are not zero. */
acc_status acc_rs_decode(acc_rs_code code, uint8_t* codeword, const int32_t* erasures, int32_t erasure_count,
                         int32_t* corrected, acc_error* error);

/* ------------------------------------------------------------------ SVG / generator */

typedef enum acc_logo {
    ACC_LOGO_NONE = 0,
    ACC_LOGO_CAMERA = 1,
    ACC_LOGO_NFC = 2
} acc_logo;

typedef struct acc_palette {
    uint32_t foreground;  /* 0xRRGGBB */
    uint32_t background;
    uint32_t third;
} acc_palette;

/* Template index 0..17 → Apple's palette. */
acc_status acc_template_palette(int32_t index, acc_palette* palette, acc_error* error);
/* The third color Apple would pick for a custom pair (template color when the pair is a
 * template, else the midpoint approximation). */
uint32_t acc_third_color(uint32_t foreground, uint32_t background);

typedef struct acc_generate_options {
    acc_palette palette;
    acc_logo logo;
} acc_generate_options;

/* URL → SVG text in Apple's structure (free with acc_free). */
acc_status acc_svg_generate(const char* url, size_t url_length, const acc_generate_options* options,
                            char** svg, size_t* svg_length, acc_error* error);

/* URL → antialiased RGBA raster of `size`×`size` pixels (free with acc_free). */
acc_status acc_raster_generate(const char* url, size_t url_length, const acc_generate_options* options,
                               int32_t size, uint8_t** rgba, acc_error* error);

/* What an SVG's arcs say, read from their geometry (never from data-payload). */
typedef struct acc_svg_code {
    acc_ring_observation observation;
    acc_palette palette;
    acc_logo logo;
} acc_svg_code;

acc_status acc_svg_read(const char* svg, size_t svg_length, acc_svg_code* code, acc_error* error);

/* ------------------------------------------------------------------ images */

typedef enum acc_pixel_format {
    ACC_PIXEL_GRAY8 = 0,
    ACC_PIXEL_RGB8 = 1,
    ACC_PIXEL_BGR8 = 2,
    ACC_PIXEL_RGBA8 = 3,
    ACC_PIXEL_BGRA8 = 4,
    ACC_PIXEL_NV12 = 5,   /* Y plane + interleaved CbCr plane, 4:2:0 (camera format) */
    ACC_PIXEL_NV21 = 6    /* Y plane + interleaved CrCb plane */
} acc_pixel_format;

/* A view over caller-owned pixels; nothing is copied. */
typedef struct acc_image_view {
    const uint8_t* data;      /* plane 0 (Y for NV12/NV21) */
    int32_t width;
    int32_t height;
    int32_t stride;           /* bytes per row of plane 0 */
    acc_pixel_format format;
    const uint8_t* chroma;    /* plane 1 for NV12/NV21, else NULL */
    int32_t chroma_stride;
} acc_image_view;

/* Checks a view: non-NULL planes, positive sizes, strides at least a row. */
acc_status acc_image_view_validate(const acc_image_view* view, acc_error* error);

typedef struct acc_owned_image {
    uint8_t* data;            /* free with acc_image_free */
    int32_t width;
    int32_t height;
    int32_t stride;
    acc_pixel_format format;  /* RGB8 for color files, GRAY8 for gray ones */
} acc_owned_image;

/* Loads JPEG (EXIF orientation applied) or PNG. Images with more than `max_pixels`
 * pixels are reduced while decoding (JPEG DCT scaling) or refused
 * (ACC_E_IMAGE_TOO_LARGE); 0 means the default of 100 megapixels. */
acc_status acc_image_load_file(const char* path, int64_t max_pixels, acc_owned_image* image,
                               acc_error* error);
acc_status acc_image_load_memory(const uint8_t* bytes, size_t length, int64_t max_pixels,
                                 acc_owned_image* image, acc_error* error);
void acc_image_free(acc_owned_image* image);

/* Writes RGBA8, RGB8 or GRAY8 pixels as PNG. */
acc_status acc_png_write_file(const char* path, const acc_image_view* view, acc_error* error);

/* ------------------------------------------------------------------ detection */

typedef struct acc_detector_options {
    int32_t max_codes;          /* at most this many codes per frame (default 8) */
    int32_t min_diameter_px;    /* smallest code looked for (default 40) */
    float decimate;             /* >= 1: work on a reduced image for locating (default: automatic, 0) */
    int32_t try_mirrored;       /* also read mirror images (front camera); default 1 */
    int32_t max_image_pixels;   /* refuse larger views (default 80,000,000) */
    int32_t acquire_unread;     /* sessions: also align the strongest candidates the edge fit
                                   cannot trace and report codes found so as failed (unread),
                                   to be fused over frames; default 0 */
} acc_detector_options;

void acc_detector_options_default(acc_detector_options* options);

typedef struct acc_detector acc_detector;

acc_detector* acc_detector_create(const acc_detector_options* options);  /* NULL → defaults */
void acc_detector_destroy(acc_detector* detector);

typedef enum acc_code_state {
    ACC_STATE_DECODED = 1,
    ACC_STATE_FAILED = 2
} acc_code_state;

/* Where a code was, to search near it first (from the last frame's homography). */
typedef struct acc_search_hint {
    double homography[9];       /* row-major, SVG units → pixels */
} acc_search_hint;

typedef struct acc_detection {
    acc_code_state state;
    acc_status failure;             /* why, when state is FAILED */
    char url[ACC_URL_CAPACITY];     /* NUL-terminated; empty for tokens or failures */
    int32_t payload_length;         /* 0, 16 or 20 */
    uint8_t payload[ACC_TOKEN_BYTES];
    int32_t version;                /* -1 when unknown */
    double center[2];               /* pixels */
    double corners[4][2];           /* rim points: top, right, bottom, left in the code's own orientation */
    double homography[9];           /* row-major, SVG units (0..800) → pixels */
    acc_palette palette;
    acc_logo logo;
    int32_t mirrored;               /* read from a mirror image */
    float confidence;               /* 0..1 */
    int32_t corrected_symbols;
    int32_t erasures;
    float decision_margin;
    acc_ring_observation observation;   /* the soft samples, for accumulating across frames */
    int32_t aligned_only;           /* FAILED codes whose plane comes from ring alignment alone (no
                                       stroke edges: small or noisy codes): its scale can sit one ring
                                       spacing off, so sizes should not be taken from it */
} acc_detection;

typedef struct acc_frame_stats {
    double locate_ms;
    double fit_ms;
    double sample_ms;
    double decode_ms;
    double total_ms;
    int32_t candidates;             /* ellipse candidates examined */
} acc_frame_stats;

/* Finds and reads every code in the image (up to `capacity`). Candidates near the
 * hints are examined first. `stats` is optional. */
acc_status acc_detector_detect(acc_detector* detector, const acc_image_view* image,
                               const acc_search_hint* hints, int32_t hint_count,
                               acc_detection* detections, int32_t capacity, int32_t* count,
                               acc_frame_stats* stats, acc_error* error);

/* Draws each detection's rim, ring sample points, rim points and URL onto a copy of
 * the image and writes it as PNG, for a person to look at. */
acc_status acc_overlay_write_png(const char* path, const acc_image_view* image, const acc_detection* detections,
                                 int32_t count, acc_error* error);

/* ------------------------------------------------------------------ pose */

typedef struct acc_camera_intrinsics {
    double fx, fy, cx, cy;
} acc_camera_intrinsics;

typedef struct acc_pose {
    double rotation[9];         /* row-major, code plane → camera (x right, y down, z forward) */
    double translation[3];      /* code center in camera coordinates, meters */
    double normal[3];           /* unit normal of the printed face, toward the camera */
    double reprojection_rms_px;
} acc_pose;

/* 6-DoF pose of a code of known diameter (meters) from its homography. */
acc_status acc_pose_from_homography(const double homography[9], const acc_camera_intrinsics* intrinsics,
                                    double code_diameter_m, acc_pose* pose, acc_error* error);

#ifdef __cplusplus
}
#endif

#endif /* APPCLIP_CORE_H */
