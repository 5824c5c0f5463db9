import AppClipCodeKit
import ArgumentParser

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "Print Apple's 18 color templates as AppClipCodeGenerator does.")

    func run() throws {
        for index in 0..<Palette.templateCount {
            let p = try Palette.template(index)
            print("Index: \(index) Foreground: \(p.foreground.appleHex) Background: \(p.background.appleHex)")
        }
    }
}
