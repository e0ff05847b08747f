/*
Abstract:
A command's help, rendered from its signature: usage lines, rows of arguments, options and subcommands.
*/

extension CommandSignature {
    /// The row every executable's help ends its options with; the parser answers it before anything else.
    public static let helpRow = HelpRow(label: "-h, --help", text: "Show this help.")

    /// The usage after the command's name, such as `[--json] [--app-bundle-id ID]`: the declared
    /// ``usage``, else every argument, optional ones in brackets, a repeatable option followed by `...`,
    /// a group's members joined by `|`, and an option that needs another inside that one's brackets.
    /// A command that only dispatches shows its subcommands joined by `|`, such as `add PEM | list [--json]`.
    public var synopsis: String {
        if let usage { return usage }
        guard runsByItself else {
            return runnableCommands.map { command in
                (command.words + [command.signature.synopsis]).filter { !$0.isEmpty }.joined(separator: " ")
            }.joined(separator: " | ")
        }
        let companions = definitions.filter { $0.companion != nil }
        return elements.compactMap { element -> String? in
            switch element {
            case let .argument(definition):
                guard definition.companion == nil else { return nil }
                let nested = companions.filter { $0.companion == definition.primaryName }.map { " [\($0.usageToken)]" }
                let repeats = definition.isRepeatable && definition.kind == .option ? "..." : ""
                return bracketed(definition.usageToken + nested.joined(), unless: definition.isRequired) + repeats
            case let .oneOf(members, isRequired):
                return bracketed(members.map(\.usageToken).joined(separator: " | "), unless: isRequired)
            }
        }.joined(separator: " ")
    }

    /// One usage line per command that can run, such as `ba-package [package] MANIFEST -o ARCHIVE`;
    /// the words of a default subcommand in brackets, since they may be left out.
    /// - Parameter commandName: The name before the words, such as `backgroundassets-debug trust`.
    public func usageLines(commandName: String) -> [String] {
        var lines = runsByItself ? [[commandName, synopsis].filter { !$0.isEmpty }.joined(separator: " ")] : []
        for subcommand in subcommands {
            let word = subcommand.name == defaultSubcommand ? "[\(subcommand.name)]" : subcommand.name
            lines += subcommand.usageLines(commandName: "\(commandName) \(word)")
        }
        return lines
    }

    /// A row for each positional argument that has help.
    public var argumentRows: [HelpRow] {
        runnableCommands.flatMap { $0.signature.positionals }.filter { !$0.help.isEmpty }
            .map { HelpRow(label: $0.rowLabel, text: $0.helpWithNotes) }
    }

    /// A row for each flag and option of the command and its subcommands.
    public var optionRows: [HelpRow] {
        allOptions.map { HelpRow(label: $0.rowLabel, text: $0.helpWithNotes) }
    }

    /// A row for each subcommand that runs: its words, such as `download-manifest create`, and its abstract.
    public var commandRows: [HelpRow] {
        runnableCommands.filter { !$0.words.isEmpty }.map { command in
            HelpRow(label: command.words.joined(separator: " "), text: command.signature.abstract)
        }
    }

    /// The whole help of an executable: usage lines, the abstract, its arguments, options (ending with
    /// `-h, --help`) and commands, then the discussion.
    /// - Parameter commandName: The name the usage lines start with; the signature's own by default.
    public func helpMessage(commandName: String? = nil) -> String {
        let usage = usageLines(commandName: commandName ?? name)
        var sections = [
            (["Usage: " + (usage.first ?? name)] + usage.dropFirst().map { "       " + $0 }).joined(separator: "\n"),
            abstract,
        ]
        if !argumentRows.isEmpty { sections.append("Arguments:\n" + HelpTable.render(argumentRows)) }
        sections.append("Options:\n" + HelpTable.render(optionRows + [Self.helpRow]))
        if !commandRows.isEmpty { sections.append("Commands:\n" + HelpTable.render(commandRows)) }
        sections.append(discussion)
        return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    private func bracketed(_ text: String, unless isRequired: Bool) -> String {
        isRequired ? text : "[\(text)]"
    }
}
