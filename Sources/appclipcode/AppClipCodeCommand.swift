import ArgumentParser

@main
struct AppClipCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appclipcode",
        abstract: "Read and write Apple App Clip Codes.",
        discussion: """
            decode reads codes from photos, camera frames (JPEG, PNG) and SVG files; \
            generate writes codes exactly as Apple's AppClipCodeGenerator does.
            """,
        subcommands: [DecodeCommand.self, GenerateCommand.self, TemplatesCommand.self, BenchCommand.self, TrackCommand.self])
}
