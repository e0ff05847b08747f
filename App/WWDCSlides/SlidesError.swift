/*
Abstract:
The errors of WWDC Slides, each saying what to do next.
*/

import Foundation

enum SlidesError: Error, CustomStringConvertible {
    case unknownSession(String)

    var description: String {
        switch self {
        case let .unknownSession(id):
            "The session list has no session \(id.debugDescription); wwdc-slides list shows the sessions it has."
        }
    }
}
