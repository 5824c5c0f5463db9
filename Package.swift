// swift-tools-version:6.0
import PackageDescription

// OpenCV, libjpeg-turbo and libpng come from the system (Debian's -dev packages)
// through pkg-config; tools/setup.sh installs them.
let package = Package(
    name: "AppClipCodeKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AppClipCodeKit", targets: ["AppClipCodeKit"]),
        .library(name: "CAppClipCore", targets: ["CAppClipCore"]),
        .executable(name: "appclipcode", targets: ["appclipcode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenCV", path: "Sources/COpenCV", pkgConfig: "opencv4",
            providers: [.apt(["libopencv-dev"]), .brew(["opencv"])]),
        .systemLibrary(
            name: "CLibJPEG", path: "Sources/CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .target(
            name: "CAppClipCore",
            dependencies: ["COpenCV", "CLibJPEG", "CLibPNG"],
            path: "Sources/CAppClipCore",
            cxxSettings: [
                .headerSearchPath("."),
            ]),
        .target(
            name: "AppClipCodeKit",
            dependencies: ["CAppClipCore"],
            path: "Sources/AppClipCodeKit"),
        .executableTarget(
            name: "appclipcode",
            dependencies: [
                "AppClipCodeKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/appclipcode"),
        .testTarget(
            name: "AppClipCodeKitTests",
            dependencies: ["AppClipCodeKit", "CAppClipCore"],
            path: "Tests/AppClipCodeKitTests"),
    ],
    cxxLanguageStandard: .cxx17
)
