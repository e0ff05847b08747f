/*
Abstract:
Walks the tutorial's pages as a reader would: runs every command block in one shell and compares each output block with the page.
*/

// Run through walk-tutorial.sh, which prepares a copy of the package and a `swift` that runs the
// built products; this file does the reading, running and comparing. Between pages it checks the
// seams: each page must leave the working copy as the next one expects (see `seam`).
//
// A page is read top to bottom. A ```sh block is run in one long-lived bash, as a reader types it
// into a terminal (jobs started with `&` stay that shell's, so `kill %1` works); the ```text block
// after it is the output the page promises. A ```text block is compared line by line after both
// sides are normalized (see `Placeholders`): "…" on a line of its own stands for any number of
// lines, "…" inside a line for any text, and blank lines are ignored. HTML comments just before a
// block tell the walk what a reader is told in prose:
//
//   <!-- walk: skip -->              not run, or not compared (an example, another machine's output)
//   <!-- walk: terminal 2 -->        run in a terminal of its own and left running (the asset server)
//   <!-- walk: tty -->               run on a terminal (a pseudo-terminal), where the output differs
//   <!-- walk: any order -->         the output's lines may come in another order (concurrent events)
//   <!-- walk: retry SECONDS -->     run again until the output matches, for what takes a moment
//   <!-- walk: interrupt SECONDS --> send Ctrl-C after SECONDS, for a command that runs until then
//   <!-- walk: run COMMAND -->       the output block's command, given in the prose rather than a block

import Foundation

// MARK: - Command line

struct Options {
    var repository = ""
    var port = 9191
    var secondPort = 18080
    var pages: [String] = []

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--repository": repository = iterator.next() ?? ""
            case "--port": port = Int(iterator.next() ?? "") ?? port
            case "--second-port": secondPort = Int(iterator.next() ?? "") ?? secondPort
            default: pages.append(argument)
            }
        }
    }
}

// MARK: - Pages

/// One fenced block of a page, with the walk's instructions for it.
struct Block {
    var page: String
    var line: Int
    var language: String
    var text: String
    var instructions: [String: String]

    var location: String { "\(page):\(line)" }
    func has(_ instruction: String) -> Bool { instructions[instruction] != nil }
    func seconds(_ instruction: String) -> Double? { instructions[instruction].flatMap(Double.init) }
}

/// The fenced blocks of a Markdown page, in order, each with the `<!-- walk: ... -->` comments above it.
func blocks(of page: String, root: URL) throws -> [Block] {
    let text = try String(contentsOf: root.appending(path: page), encoding: .utf8)
    var result: [Block] = []
    var pending: [String: String] = [:]
    var open: (line: Int, language: String, lines: [String])?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if var current = open {
            if trimmed == "```" {
                result.append(Block(page: page, line: current.line, language: current.language,
                                    text: current.lines.joined(separator: "\n"), instructions: pending))
                pending = [:]
                open = nil
            } else {
                current.lines.append(String(line))
                open = current
            }
        } else if trimmed.hasPrefix("```") {
            open = (index + 1, String(trimmed.dropFirst(3)), [])
        } else if trimmed.hasPrefix("<!-- walk:"), trimmed.hasSuffix("-->") {
            let body = trimmed.dropFirst("<!-- walk:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
            let words = body.split(separator: " ", maxSplits: 1).map(String.init)
            let key = ["any", "terminal"].contains(words.first) ? body : words.first ?? ""
            pending[key] = key == body ? "" : (words.count > 1 ? words[1] : "")
        }
    }
    return result
}

// MARK: - Placeholders

/// What differs from one run to the next, and is written on the pages as their own run had it:
/// times, dates, process ids, durations, sizes, long numbers (bytes, clock readings), and the ports.
struct Placeholders {
    let ports: [String: String]

    /// A page's commands with the walk's ports for the ones the pages give to their extra servers
    /// (the app's own port comes from App/Info.plist, which the walk changed as Getting Started says).
    func commands(_ text: String) -> String {
        ports.filter { $0.key != "8080" }.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    private static let rules: [(pattern: String, replacement: String)] = [
        (#"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?"#, "<date>"),
        (#"\d{2}-\d{2} \d{2}:\d{2}"#, "<date>"),
        (#"\b\d{2}:\d{2}:\d{2}(\.\d+)?"#, "<time>"),
        (#"pid \d+"#, "pid <n>"),
        (#"\(\d+(\.\d+)? of \d+(\.\d+)? MiB\)"#, "(<size>)"),
        (#"\b\d+(\.\d+)? ?(ms|MiB|KiB|GiB|MB|KB|GB|B/s|MB/s)\b"#, "<size>"),
        (#"\b\d+(\.\d+)?%"#, "<percent>"),
        (#"\b\d+ (d|h|min|s)( \d+ (h|min|s))?\b"#, "<duration>"),
        (#"SHA-256 [0-9a-f]{8,}…?"#, "SHA-256 <digest>"),
        (#"\b[0-9a-f]{64}\b"#, "<digest>"),
        // Byte counts and clock readings; not the digits of an identifier such as wwdc23-10108.
        (#"(?<![-\w])\d{5,}\b"#, "<number>"),
        (#"\bt\d+\.[A-Za-z0-9]{6}\b"#, "<temporary>"),
    ]

    /// A line with every volatile part replaced by its placeholder.
    func normalize(_ line: String, expected: Bool) -> String {
        var text = line.replacingOccurrences(of: "\r", with: "")
        // Terminal escapes (colours, cursor movement) are not text.
        text = text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        if expected {
            for (page, walk) in ports { text = text.replacingOccurrences(of: ":\(page)", with: ":\(walk)") }
            for (page, walk) in ports { text = text.replacingOccurrences(of: "port \(page)", with: "port \(walk)") }
        }
        for rule in Self.rules {
            text = text.replacingOccurrences(of: rule.pattern, with: rule.replacement, options: .regularExpression)
        }
        // A table's columns are as wide as their widest value, which differs from run to run.
        text = text.replacingOccurrences(of: " {2,}", with: " ", options: .regularExpression)
        return text.trimmingCharacters(in: .whitespaces)
    }
}

// MARK: - Comparing

/// Whether an actual line matches an expected one, where "…" in the expected line stands for any text.
func lineMatches(_ actual: String, _ expected: String) -> Bool {
    guard expected.contains("…") else { return actual == expected }
    let parts = expected.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:))
    let pattern = "^" + parts.joined(separator: ".*") + "$"
    return actual.range(of: pattern, options: .regularExpression) != nil
}

/// Compares output with a page's block: `nil` when it matches, else why not.
func compare(actual rawActual: String, expected rawExpected: String, anyOrder: Bool, placeholders: Placeholders) -> String? {
    // "\r\n" (a terminal's line end) is one Character in Swift: split on scalars' terms instead.
    let actual = rawActual.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        .map { placeholders.normalize(String($0), expected: false) }.filter { !$0.isEmpty }
    let expected = rawExpected.split(separator: "\n", omittingEmptySubsequences: false)
        .map { placeholders.normalize(String($0), expected: true) }.filter { !$0.isEmpty }
    if anyOrder {
        var unused = actual
        for line in expected where line != "…" {
            guard let index = unused.firstIndex(where: { lineMatches($0, line) }) else {
                return "the page's line \"\(line)\" is not in the output"
            }
            unused.remove(at: index)
        }
        return !unused.isEmpty && !expected.contains("…") ? "the output has lines the page does not show: \(unused)" : nil
    }
    // Expected lines in order; "…" alone lets any number of output lines pass.
    var memo: [Int: Bool] = [:]
    var deepest = (expected: 0, actual: 0)
    func match(_ e: Int, _ a: Int) -> Bool {
        let key = e * (actual.count + 1) + a
        if let known = memo[key] { return known }
        if e > deepest.expected || (e == deepest.expected && a > deepest.actual) { deepest = (e, a) }
        let result: Bool
        if e == expected.count {
            result = a == actual.count
        } else if expected[e] == "…" {
            result = match(e + 1, a) || (a < actual.count && match(e, a + 1))
        } else {
            result = a < actual.count && lineMatches(actual[a], expected[e]) && match(e + 1, a + 1)
        }
        memo[key] = result
        return result
    }
    if match(0, 0) { return nil }
    if deepest.expected < expected.count {
        let near = deepest.actual < actual.count ? "the output has \"\(actual[deepest.actual])\" there" : "the output ended"
        return "the page's line \(deepest.expected + 1), \"\(expected[deepest.expected])\", does not match: \(near)"
    }
    return "the output goes on after the page's last line: \"\(actual[min(deepest.actual, actual.count - 1)])\""
}

// MARK: - Quoted code

/// Checks a ```swift block that names its file on its first line (`// App/RunCommand.swift`): every
/// line of it, but for "…", must be in that file, in order. `nil` when it is, else why not.
func checkQuotedCode(_ block: Block, root: URL) -> String? {
    let lines = block.text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
    }
    guard let first = lines.first, first.hasPrefix("// "), first.hasSuffix(".swift"), !first.contains(" ", after: 3)
    else { return nil }
    let path = String(first.dropFirst(3))
    guard let source = try? String(contentsOf: root.appending(path: path), encoding: .utf8) else {
        return "it quotes \(path), which does not exist"
    }
    let code = source.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
    }
    var position = 0
    for line in lines.dropFirst() where !line.isEmpty && line != "…" {
        guard let found = code[position...].firstIndex(of: line) else {
            return "\(path) has no line \"\(line)\" (after the ones before it in the block)"
        }
        position = found + 1
    }
    return nil
}

extension String {
    /// Whether the string has `character` after its first `offset` characters.
    func contains(_ character: Character, after offset: Int) -> Bool {
        dropFirst(offset).contains(character)
    }
}

// MARK: - The shell

/// One bash, as the reader's terminal: blocks run in it one after another and keep its jobs and variables.
final class Shell {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    private static let marker = "__TUTORIAL_WALK_DONE__"

    init(folder: URL, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile"]
        process.currentDirectoryURL = folder
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    private func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    }

    /// Runs commands and returns what they printed, standard error included, once they are done.
    /// - Parameter interruptAfter: Send Ctrl-C (SIGINT) to the shell's foreground command after this long.
    func run(_ commands: String, timeout: Double = 240, interruptAfter: Double? = nil) throws -> String {
        let script = FileManager.default.temporaryDirectory.appending(path: "walk-block-\(UUID().uuidString).sh")
        try Data(commands.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        if let seconds = interruptAfter {
            // A session of its own, so Ctrl-C reaches the command's processes and not the shell.
            try send("setsid --wait bash \(script.path) & WALK_PID=$!; sleep \(seconds); "
                + "kill -INT -- -$WALK_PID 2>/dev/null; wait $WALK_PID; printf '\\n\(Self.marker)\\n'")
        } else {
            try send("source \(script.path); printf '\\n\(Self.marker)\\n'")
        }
        return try read(timeout: timeout)
    }

    private func read(timeout: Double) throws -> String {
        let deadline = Date.now.addingTimeInterval(timeout)
        let handle = output.fileHandleForReading
        while true {
            if let range = buffer.range(of: Data("\n\(Self.marker)\n".utf8)) {
                let text = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<range.upperBound)
                return text
            }
            // Waits for output at most until the deadline: a command that never ends (a server
            // started in the foreground) fails the walk instead of holding it for ever.
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline.timeIntervalSinceNow
            guard left > 0, poll(&descriptor, 1, Int32(min(left, 1) * 1000)) >= 0 else {
                throw WalkError("""
                    the commands did not finish within \(Int(timeout)) s; what they printed so far:
                    \(String(decoding: buffer, as: UTF8.self))
                    """)
            }
            guard descriptor.revents != 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { throw WalkError("The shell ended.") }
            buffer.append(chunk)
        }
    }

    func stop() {
        try? send("kill $(jobs -p) 2>/dev/null; exit")
        process.waitUntilExit()
    }
}

struct WalkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Seams

/// The working copy as `git status` sees it: tracked files changed, files not tracked, and ignored
/// folders (`.device/`, `.catalog/`), one line each.
/// The changes themselves are one more line, `~ ` and the diff, so a file changed again is seen too.
func workingCopy(_ root: URL) throws -> Set<String> {
    func git(_ arguments: String...) throws -> String {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path] + arguments
        let output = Pipe()
        git.standardOutput = output
        try git.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { throw WalkError("git \(arguments[0]) failed in \(root.path).") }
        return String(decoding: data, as: UTF8.self)
    }
    let lines = try git("status", "--porcelain", "--ignored").split(separator: "\n").map(String.init)
    return Set(lines + ["~ " + (try git("diff"))])
}

/// Why a page leaves the working copy other than the next page expects, or `nil` when it does not:
/// a tracked file it changed and did not put back, a file outside `.gitignore`, or an ignored folder
/// the page never names (a test's or a tool's leftover, such as `.tls/` in the wrong place).
func seam(after page: String, root: URL, before: Set<String>, after: Set<String>) throws -> String? {
    let text = try String(contentsOf: root.appending(path: page), encoding: .utf8)
    var problems: [String] = []
    for line in after.subtracting(before).sorted() {
        let path = String(line.dropFirst(3))
        if line.hasPrefix("~ ") {
            if after.subtracting(before).count == 1 { problems.append("a tracked file was changed again and not put back") }
            continue
        }
        if line.hasPrefix("!! ") {
            let name = path.hasSuffix("/") ? path : path + "/"
            if !text.contains(name) && !text.contains(path) { problems.append("\(path) appeared, and the page never names it") }
        } else if line.hasPrefix("?? ") {
            problems.append("\(path) appeared, outside .gitignore")
        } else {
            problems.append("\(path) was changed (\(line.prefix(2).trimmingCharacters(in: .whitespaces))) and not put back")
        }
    }
    for line in before.subtracting(after).sorted() where !line.hasPrefix("!! ") && !line.hasPrefix("~ ") {
        problems.append("\(line.dropFirst(3)) is no longer as the page before left it")
    }
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
}

// MARK: - The walk

/// A command run in a terminal of its own, such as the asset server the pages keep running.
final class SecondTerminal {
    let process = Process()
    let log: URL

    init(_ commands: String, folder: URL, environment: [String: String], log: URL) throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", commands]
        process.currentDirectoryURL = folder
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// Its output, once it has at least `lines` lines or `timeout` passed.
    func output(lines: Int, timeout: Double = 120) -> String {
        let deadline = Date.now.addingTimeInterval(timeout)
        var text = ""
        repeat {
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").count >= lines { break }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date.now < deadline
        return text
    }
}

func walk(_ options: Options) -> Int32 {
    let root = URL(fileURLWithPath: options.repository)
    let placeholders = Placeholders(ports: ["8080": String(options.port), "8081": String(options.secondPort),
                                            "8443": String(options.secondPort)])
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = "dumb"
    let shell: Shell
    do {
        shell = try Shell(folder: root, environment: environment)
    } catch {
        print("walk-tutorial: could not start bash: \(error)")
        return 1
    }
    var terminals: [SecondTerminal] = []
    defer {
        shell.stop()
        for terminal in terminals where terminal.process.isRunning { terminal.process.interrupt() }
    }
    let started = Date.now
    var checked = 0
    // What the reader has before the first page (the port changed as Getting Started says), and after
    // each page: the next page starts from exactly what the one before left.
    var state: Set<String>
    do {
        state = try workingCopy(root)
    } catch {
        print("walk-tutorial: \(error)")
        return 1
    }
    for (index, page) in options.pages.enumerated() {
        if index > 0 {
            let previous = options.pages[index - 1]
            do {
                let now = try workingCopy(root)
                if let problem = try seam(after: previous, root: root, before: state, after: now) {
                    print("walk-tutorial: \(previous) leaves the working copy changed for \(page): \(problem).")
                    return 1
                }
                state = now
            } catch {
                print("walk-tutorial: \(error)")
                return 1
            }
        }
        let pageBlocks: [Block]
        do {
            pageBlocks = try blocks(of: page, root: root)
        } catch {
            print("walk-tutorial: cannot read \(page): \(error)")
            return 1
        }
        print("== \(page)")
        var lastOutput: (block: Block, text: String, rerun: () throws -> String)?
        for block in pageBlocks where block.language == "swift" {
            if let problem = checkQuotedCode(block, root: root) {
                print("walk-tutorial: \(block.location): the quoted code drifted from the source: \(problem).")
                return 1
            }
        }
        for block in pageBlocks where ["sh", "text"].contains(block.language) {
            if block.has("skip") {
                if block.language == "sh" { lastOutput = nil }
                continue
            }
            do {
                if block.language == "sh" {
                    let commands = placeholders.commands(block.text)
                    if block.has("terminal 2") {
                        let log = FileManager.default.temporaryDirectory.appending(path: "walk-terminal-\(terminals.count).log")
                        let terminal = try SecondTerminal(commands, folder: root, environment: environment, log: log)
                        terminals.append(terminal)
                        lastOutput = (block, "", { terminal.output(lines: 1) })
                        continue
                    }
                    let tty = block.has("tty")
                    let interrupt = block.seconds("interrupt")
                    let run = { () throws -> String in
                        guard tty else { return try shell.run(commands, interruptAfter: interrupt) }
                        // A pseudo-terminal, as a reader's: tables instead of key=value lines.
                        let file = try scriptFile(commands)
                        defer { try? FileManager.default.removeItem(at: file) }
                        return try shell.run("script -qefc 'bash --norc \(file.path)' /dev/null < /dev/null")
                    }
                    let text = try run()
                    lastOutput = (block, text, run)
                    if block.instructions["retry"] == nil { print("   ran \(block.location)") }
                } else {
                    var source = lastOutput
                    if let command = block.instructions["run"].map(placeholders.commands) {
                        let run = { try shell.run(command) }
                        source = (block, try run(), run)
                    }
                    guard var current = source else {
                        print("""
                            walk-tutorial: \(block.location): this output block has no command before it. Put the \
                            command in a ```sh block above it, name it with <!-- walk: run COMMAND -->, or mark the \
                            block <!-- walk: skip --> if it is an example.
                            """)
                        return 1
                    }
                    let anyOrder = block.has("any order")
                    if current.block.has("terminal 2") {
                        let lines = block.text.split(separator: "\n").filter { $0 != "…" }.count
                        current.text = terminals.last?.output(lines: lines) ?? ""
                    }
                    var problem = compare(actual: current.text, expected: block.text, anyOrder: anyOrder, placeholders: placeholders)
                    // What takes a moment (a download finishing) is run again until it matches.
                    if problem != nil, let retry = current.block.seconds("retry") {
                        let deadline = Date.now.addingTimeInterval(retry)
                        while problem != nil, Date.now < deadline {
                            Thread.sleep(forTimeInterval: 1)
                            current.text = try current.rerun()
                            problem = compare(actual: current.text, expected: block.text, anyOrder: anyOrder, placeholders: placeholders)
                        }
                    }
                    if let problem {
                        print("""

                            walk-tutorial: \(block.location) drifted from what the commands print.
                            The output block after \(current.block.location) (\(firstLine(of: current.block))): \(problem).
                            --- the page's block ---
                            \(block.text)
                            --- the output, as the walk got it ---
                            \(current.text)
                            ---
                            """)
                        return 1
                    }
                    checked += 1
                    print("   ok  \(block.location)")
                    lastOutput = nil
                }
            } catch {
                print("walk-tutorial: \(block.location): \(error)")
                return 1
            }
        }
    }
    do {
        if let last = options.pages.last,
           let problem = try seam(after: last, root: root, before: state, after: try workingCopy(root)) {
            print("walk-tutorial: \(last) leaves the working copy changed: \(problem).")
            return 1
        }
    } catch {
        print("walk-tutorial: \(error)")
        return 1
    }
    print("\nEvery output block matched: \(checked) blocks on \(options.pages.count) pages, "
        + "port \(options.port), in \(Int(Date.now.timeIntervalSince(started))) s.")
    return 0
}

func firstLine(of block: Block) -> String {
    "`" + (block.text.split(separator: "\n").first.map(String.init) ?? "") + "`"
}

/// Writes commands to a temporary script file, for a command that runs them itself.
func scriptFile(_ commands: String) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appending(path: "walk-tty-\(UUID().uuidString).sh")
    try Data(commands.utf8).write(to: file)
    return file
}

// Progress lines as they happen, also into a pipe or a file.
setvbuf(stdout, nil, _IOLBF, 0)
exit(walk(Options(Array(CommandLine.arguments.dropFirst()))))
