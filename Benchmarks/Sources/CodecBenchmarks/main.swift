import AppClipCodeKit
import Benchmark
import CAppClipCore

// Warm micro-benchmarks of the format layer through the C surface (what every
// binding pays) and through the Swift API. Inputs are built once, outside the timings.
let urls = [
    "https://a.co",
    "https://appclip.example.com/shop?p=42",
    "https://qr.netflix.com/title/80100172",
    "https://www.apple.com/pibcu/ibak/ui",
]
let payloads: [[UInt8]] = urls.compactMap { try? URLCompression.compress($0).payload }
let observations: [RingObservation] = payloads.compactMap { p in (try? RingCodec.encode(payload: p)).map { RingObservation(certain: $0) } }
let cObservations = observations.map { o -> acc_ring_observation in
    var c = acc_ring_observation()
    withUnsafeMutableBytes(of: &c.p_arc_start) { raw in for (i, v) in o.arcStart.enumerated() { raw.storeBytes(of: v, toByteOffset: i * 4, as: Float.self) } }
    withUnsafeMutableBytes(of: &c.p_third) { raw in for (i, v) in o.third.enumerated() { raw.storeBytes(of: v, toByteOffset: i * 4, as: Float.self) } }
    return c
}
let svg = (try? AppClipCodeGenerator(palette: .template(0)).svg(for: urls[1])) ?? ""
acc_format_tables_info(nil, nil)  // tables built before any timing

benchmark("url_decompress (C, 4 URLs)") {
    var buffer = [CChar](repeating: 0, count: Int(ACC_URL_CAPACITY))
    var length = 0
    for p in payloads { _ = acc_url_decompress(p, &buffer, buffer.count, &length, nil) }
}

benchmark("url_compress (C, 4 URLs)") {
    var payload = [UInt8](repeating: 0, count: 16)
    for u in urls { _ = acc_url_compress(u, u.utf8.count, &payload, nil, nil) }
}

benchmark("payload_decode (C, 4 codes: RS + checks + URL)") {
    var result = acc_decode_result()
    for var o in cObservations { _ = acc_codec_decode(&o, &result, nil) }
}

benchmark("payload_encode (C, 4 payloads)") {
    var bits = acc_code_bits()
    for p in payloads { _ = acc_codec_encode(p, &bits, nil) }
}

benchmark("payload_decode (Swift API, 4 codes)") {
    for o in observations { _ = try? RingCodec.decode(o) }
}

benchmark("svg_read + decode (Swift API, 1 file)") {
    _ = try? SVGCodeReading(svg: svg).decode()
}

Benchmark.main()
