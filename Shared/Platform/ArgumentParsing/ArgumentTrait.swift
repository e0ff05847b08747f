/*
Abstract:
What a declaration may add to its names and help: a group, a companion, retired spellings, another value name in the usage line.
*/

/// Something a flag, option or positional argument declares beyond its names and help.
public enum ArgumentTrait: Sendable, Hashable {
    /// One of a group of options of which at most one may be given, such as `trace`'s outputs.
    case oneOf(String)
    /// One of a group of options of which exactly one must be given, such as `simulate`'s events.
    case exactlyOneOf(String)
    /// Allowed only together with the option of this name, such as an app's own switch with
    /// `--low-power`; the usage line shows it inside the other's brackets.
    case requiring(String)
    /// A spelling it no longer answers to, such as `--app` for `--app-bundle-id`: given it, the parser
    /// names the spellings to use instead. The help does not list it.
    case retiring(String)
    /// Another value name in this command's usage line, such as `-o ARCHIVE` for an output path that is
    /// an archive here; the help row keeps the general one.
    case usageValueName(String)

    /// Applies the traits to a definition, in order.
    static func apply(_ traits: [ArgumentTrait], to definition: inout ArgumentDefinition) {
        for trait in traits {
            switch trait {
            case let .oneOf(name): definition.group = ExclusiveGroup(name, isRequired: false)
            case let .exactlyOneOf(name): definition.group = ExclusiveGroup(name, isRequired: true)
            case let .requiring(companion): definition.companion = companion
            case let .retiring(name): definition.retiredNames.append(name)
            case let .usageValueName(name): definition.usageValueName = name
            }
        }
    }
}
