/*
Abstract:
What a signature says beyond names: positional arguments in order, one option of a group, companions, requirements.
*/

extension CommandLineArguments {
    /// Gives each positional argument of the command its words, in order.
    /// - Throws: A usage error for a missing argument or a word no argument takes.
    static func assign(
        _ words: [String], to command: CommandSignature, named name: String
    ) throws(UsageError) -> [String: [String]] {
        var words = words[...]
        var assigned: [String: [String]] = [:]
        for definition in command.positionals {
            guard !words.isEmpty else {
                if definition.isRequired { throw UsageError(needs(definition, in: name)) }
                continue
            }
            let taken = definition.isRepeatable ? words : words.prefix(1)
            words = words.dropFirst(taken.count)
            assigned[definition.primaryName] = Array(taken)
        }
        if let extra = words.first {
            throw UsageError("Unknown argument \(extra.debugDescription).")
        }
        return assigned
    }

    /// Checks the flags and options given against the selected command's declarations.
    /// - Throws: A usage error naming the first option at fault.
    static func check(
        _ given: [GivenOption], against command: CommandSignature, in signature: CommandSignature, named name: String,
        words: [String]
    ) throws(UsageError) {
        let declared = command.definitions
        var seen: [String: String] = [:]
        for option in given {
            guard declared.contains(where: { $0.primaryName == option.definition.primaryName }) else {
                let owners = signature.runnableCommands.filter { command in
                    command.signature.definitions.contains { $0.primaryName == option.definition.primaryName }
                }.map { ([signature.name] + $0.words).joined(separator: " ") }
                let whole = ([signature.name] + words).joined(separator: " ")
                throw UsageError("\(option.spelling) is not an option of \(whole); it belongs to \(owners.joined(separator: " and ")).")
            }
            if let earlier = seen[option.definition.primaryName], option.definition.kind == .option,
               !option.definition.isRepeatable {
                throw UsageError(earlier == option.spelling
                    ? "\(earlier) is given twice; give it once."
                    : "\(earlier) and \(option.spelling) are the same option; give it once.")
            }
            seen[option.definition.primaryName] = option.spelling
        }
        for case let .oneOf(members, isRequired) in command.elements {
            let chosen = members.compactMap { seen[$0.primaryName] }
            if chosen.count > 1 {
                throw UsageError("\(chosen.joined(separator: " and ")) do not go together; choose one.")
            }
            if isRequired, chosen.isEmpty {
                throw UsageError("\(name) needs one of \(members.map(\.usageToken).joined(separator: ", ")).")
            }
        }
        for definition in declared {
            if let companion = definition.companion, let spelling = seen[definition.primaryName], seen[companion] == nil {
                let token = declared.first { $0.primaryName == companion }?.usageToken ?? companion
                throw UsageError("\(spelling) only goes with \(companion); add \(token).")
            }
            if definition.isRequired, definition.kind != .positional, seen[definition.primaryName] == nil {
                throw UsageError(needs(definition, in: name))
            }
        }
    }

    /// `download needs --output PATH: the file to write.`
    static func needs(_ definition: ArgumentDefinition, in name: String) -> String {
        let token = definition.usageToken
        guard let first = definition.help.first else { return "\(name) needs \(token)." }
        // Lowercased unless the first word is an acronym, such as URL.
        let second = definition.help.dropFirst().first
        let help = second?.isUppercase == true ? definition.help : first.lowercased() + definition.help.dropFirst()
        return "\(name) needs \(token): \(help)" + (help.hasSuffix(".") ? "" : ".")
    }
}
