/*
Abstract:
One thing a command takes on its command line, declared once: the parser reads it and the help shows it.
*/

/// A flag, an option with a value, or a positional argument, with everything its help line says.
///
/// Commands do not build definitions directly: they wrap a stored property of their
/// ``ParsableArguments`` in ``Flag``, ``Option`` or ``Argument``, and the signature read from those
/// properties parses with it and renders it.
public struct ArgumentDefinition: Sendable, Hashable {
    /// How the argument appears on the command line.
    public enum Kind: Sendable, Hashable {
        /// Present or absent, such as `--json`.
        case flag
        /// A name followed by a value, such as `--port 8080` or `--port=8080`.
        case option
        /// A bare word, such as a URL, by its position.
        case positional
    }

    /// The spellings, the preferred one first, such as `--app-bundle-id` and Apple's `-b`; none for a positional.
    public var names: [String]
    /// How it appears on the command line.
    public var kind: Kind
    /// What its value stands for in the help, such as `PORT`; empty for a flag.
    public var valueName: String
    /// The value name in this command's usage line, when it differs, such as `ARCHIVE` for `-o PATH`.
    public var usageValueName: String?
    /// What it does, as sentences.
    public var help: String
    /// What happens when it is not given, shown as `(default: …)`.
    public var defaultDescription: String?
    /// Whether the command refuses to run without it.
    public var isRequired = false
    /// Whether it may be given more than once (positional: takes every remaining word).
    public var isRepeatable = false
    /// The name of another option this one only goes with, such as `--low-power` for an app's own switch.
    public var companion: String?
    /// Spellings it no longer answers to, such as `--app` for `--app-bundle-id`: the parser refuses them
    /// with a sentence naming the spelling to use instead, so an old command line fails plainly
    /// rather than being read as a second convention.
    public var retiredNames: [String] = []
    /// The group of options it belongs to, of which at most one (or exactly one) may be given.
    public var group: ExclusiveGroup?

    /// The name errors and the usage line use: the first spelling, or the value name of a positional.
    public var primaryName: String { names.first ?? valueName }

    /// The argument as the usage line shows it, such as `--port PORT`, `-o ARCHIVE` or `ARCHIVE...`.
    public var usageToken: String {
        let value = usageValueName ?? valueName
        switch kind {
        case .flag: return primaryName
        case .option: return "\(primaryName) \(value)"
        case .positional: return isRepeatable ? "\(value)..." : value
        }
    }

    /// The spellings, short ones first, such as `-o` and `--output-path`.
    var spellingsShortFirst: [String] {
        names.filter { !$0.hasPrefix("--") } + names.filter { $0.hasPrefix("--") }
    }

    /// The argument as its help row shows it: short spellings first, then long ones, then the value,
    /// such as `-o, --output-path PATH`.
    public var rowLabel: String {
        let spellings = spellingsShortFirst.joined(separator: ", ")
        return kind == .flag ? spellings : kind == .option ? "\(spellings) \(valueName)" : usageToken
    }

    /// The help with what the parser knows folded in before its last full stop, so that it cannot
    /// drift: `Catalog folder (default: .catalog).`, `Serve PATH with some bytes flipped (repeatable).`,
    /// `Give up after SECONDS (with --until-complete; default: 600).`
    public var helpWithNotes: String {
        var notes: [String] = []
        if let companion { notes.append("with \(companion)") }
        if isRepeatable, kind == .option { notes.append("repeatable") }
        if let defaultDescription { notes.append("default: \(defaultDescription)") }
        guard !notes.isEmpty else { return help }
        let body = help.hasSuffix(".") ? String(help.dropLast()) : help
        return "\(body) (\(notes.joined(separator: "; ")))."
    }
}
